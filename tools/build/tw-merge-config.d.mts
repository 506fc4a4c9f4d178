export declare const WEB_SOURCES: string;
export declare const CONFIG_FILE: string;
export declare function classVocabulary(dir?: string): string[];
export declare function appClasses(words?: string[]): string[];
export declare function configSource(words?: string[]): string;
