export declare const ROUTE_BUDGET_KB: number;
export declare const GOAL_KB: number;
export declare const ROUTE_BUDGET_EXCEPTIONS: Record<string, number>;
export declare const PAGES_WITHOUT_QUERIES: ReadonlySet<string>;
export declare function budgetFor(page: string): number;
type Manifest = Record<string, { file: string; imports?: string[]; isDynamicEntry?: boolean }>;
export declare function firstLoadFiles(manifest: Manifest, pageKey?: string): string[];
export declare function routeSizes(manifest: Manifest, gzBytesOf: (file: string) => number): { page: string; files: string[]; gzBytes: number }[];
export declare function checkRouteBudgets(distDir: string, budgetOf?: (page: string) => number): { ok: boolean; lines: string[]; sizes: { page: string; files: string[]; gzBytes: number }[] };
