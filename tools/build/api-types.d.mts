export declare const OPENAPI_DOCUMENT: string;
export declare const API_TYPES_FILE: string;
export declare function apiTypesText(documentText: string): Promise<string>;
