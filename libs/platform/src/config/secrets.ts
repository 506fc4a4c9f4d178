/**
 * Secrets a production process refuses to start with: known placeholders (the values the repository
 * itself ships in examples and old compose files: anyone can read them) and secrets shorter than
 * 32 characters. loadConfig runs this for every service when NODE_ENV=production, so a deployment
 * that forgot to replace a value stops at boot with the variable named, instead of accepting
 * playback links signed with a published key.
 */

/** Secrets compared against the placeholders and the minimum length. */
export const SECRET_VARIABLES = ['MEDIA_LINK_SECRET', 'COURT_LINK_SECRET', 'KEY_MAIL_SECRET', 'S3_SECRET_KEY', 'DEVICE_COOKIE_SECRET', 'NATS_PASSWORD', 'LOCAL_WEBHOOK_SECRET'] as const;
/**
 * Identifiers that are not secret by themselves, but must not be a shipped default either; and keys
 * given as PEM text or a path (no length rule fits both), which must not be a stand-in either.
 */
export const IDENTIFIER_VARIABLES = ['S3_ACCESS_KEY', 'EVIDENCE_SIGNING_KEY'] as const;
/** URLs whose password part is a secret (postgres://user:PASSWORD@host/db). */
export const URL_PASSWORD_VARIABLES = ['DATABASE_URL', 'REDIS_URL'] as const;

export const MIN_SECRET_LENGTH = 32;

/** Values published in this repository or in the backing services' own documentation. */
const KNOWN_PLACEHOLDERS = new Set([
  'legacy-vault',
  'legacy-vault-minio-secret',
  'legacy-vault-compose-media-link-secret-change-me',
  'minioadmin',
  'postgres',
  'password',
  'secret',
  'changeme',
  'change-me',
  'test',
  'example',
]);

/** Words that mark a value as a stand-in to replace, wherever they appear in it. */
const PLACEHOLDER_MARKERS = /change[-_ ]?me|placeholder|replace[-_ ]?me|your[-_ ]?(secret|password|key)|example|dummy|insecure/i;

export interface SecretProblem {
  variable: string;
  problem: string;
}

function placeholderProblem(value: string): string | null {
  if (KNOWN_PLACEHOLDERS.has(value.toLowerCase())) return 'is a known placeholder published with Legacy Vault';
  if (PLACEHOLDER_MARKERS.test(value)) return 'looks like a placeholder to replace';
  // "aaaa…", "0000…": a length that passes, and no secret at all.
  if (/^(.)\1*$/.test(value)) return 'repeats one character';
  return null;
}

function secretProblem(value: string): string | null {
  return placeholderProblem(value) ?? (value.length < MIN_SECRET_LENGTH ? `is shorter than ${MIN_SECRET_LENGTH} characters` : null);
}

function urlPassword(value: string): string | null {
  try {
    const password = new URL(value).password;
    return password ? decodeURIComponent(password) : null;
  } catch {
    return null; // the schema reports a malformed URL
  }
}

/**
 * The problems of the secrets present in `config` (variables a process does not have are skipped).
 * Never echoes a value: messages name the variable and what is wrong with it.
 */
export function findWeakSecrets(config: Record<string, unknown>): SecretProblem[] {
  const problems: SecretProblem[] = [];
  const text = (name: string) => (typeof config[name] === 'string' ? (config[name] as string) : undefined);
  for (const variable of SECRET_VARIABLES) {
    const value = text(variable);
    const problem = value === undefined ? null : secretProblem(value);
    if (problem) problems.push({ variable, problem });
  }
  for (const variable of IDENTIFIER_VARIABLES) {
    const value = text(variable);
    const problem = value === undefined ? null : placeholderProblem(value);
    if (problem) problems.push({ variable, problem });
  }
  for (const variable of URL_PASSWORD_VARIABLES) {
    const value = text(variable);
    const password = value === undefined ? null : urlPassword(value);
    const problem = password === null ? null : secretProblem(password);
    if (problem) problems.push({ variable, problem: `has a password that ${problem}` });
  }
  return problems;
}
