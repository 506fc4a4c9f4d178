// Types of tools/dev/compose-secrets.mjs for TypeScript consumers (its specs).
export function secretGenerators(): Record<string, () => string>;
export function parseEnvFile(text: string): Record<string, string>;
export function ensureEnvFile(path: string): string[];
export function ensureNatsTls(dir: string): boolean;
export const APP_BUCKETS: string[];
export function databaseRole(database: string): string;
export function databasePasswordVariable(database: string): string;
export function s3Identities(env: Record<string, string | undefined>): { identities: { name: string; credentials: { accessKey?: string; secretKey?: string }[]; actions: string[] }[] };
export function writeS3Identities(envFile: string, path: string): void;
