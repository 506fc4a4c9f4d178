export declare const COMPILE_HINT: string;
interface BundleChunk { type: 'chunk'; code: string; isEntry: boolean; imports: string[] }
interface BundleAsset { type: 'asset'; source: string | Uint8Array }
export declare function eagerChunks(bundle: Record<string, BundleChunk | BundleAsset>): Set<string>;
export declare function addCompileHint(chunk: BundleChunk, mapAsset?: BundleChunk | BundleAsset): void;
export declare function compileHints(): { name: string; apply: 'build'; generateBundle: { order: 'post'; handler(options: unknown, bundle: Record<string, BundleChunk | BundleAsset>): void } };
