// Types of tools/dev/compose-secrets.mjs for TypeScript consumers (its specs).
export function secretGenerators(): Record<string, () => string>;
export function parseEnvFile(text: string): Record<string, string>;
export function ensureEnvFile(path: string): string[];
export function ensureNatsTls(dir: string): boolean;
