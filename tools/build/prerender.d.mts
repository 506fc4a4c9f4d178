export declare const PRERENDERED_PAGES: { path: string; page: string }[];
export declare function prerenderedFile(path: string): string;
export declare function pageHtml(indexHtml: string, markup: string, files: string[]): string;
export declare function inlineFirstPaint(html: string, read: (href: string) => string): string;
export declare function prerenderPages(webDir?: string): Promise<string[]>;
