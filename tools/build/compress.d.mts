export declare function compressDirectory(dir: string): { path: string; bytes: number; br: number; gz: number }[];
