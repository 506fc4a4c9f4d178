import { z } from 'zod';

/**
 * Secrets a production process refuses to start with: known placeholders (the values the repository
 * itself ships in examples and old compose files: anyone can read them) and secrets shorter than
 * 32 characters. loadConfig runs this for every service when NODE_ENV=production, so a deployment
 * that forgot to replace a value stops at boot with the variable named, instead of accepting
 * playback links signed with a published key.
 */

/**
 * How a variable is checked: a `secret` against the placeholders and the minimum length; an
 * `identifier` (not secret by itself, or a key given as PEM text or a path, where no length rule fits
 * both) only against the placeholders; a `url-password` on the password part of its URL
 * (postgres://user:PASSWORD@host/db). Each schema marks its own variables (markSecret): the platform
 * knows no service's secrets.
 */
export type SecretKind = 'secret' | 'identifier' | 'url-password';

interface SecretMark {
  secretKind: SecretKind;
  /** Optional where a process can do without it (development, or a command that never needs it), required in production. */
  requiredInProduction?: boolean;
}

const secretKinds = z.registry<SecretMark>();

/** Marks a config variable's schema as a secret of the given kind; loadConfig checks it in production. */
export function markSecret<T extends z.ZodType>(schema: T, secretKind: SecretKind = 'secret', options: { requiredInProduction?: boolean } = {}): T {
  secretKinds.add(schema, { secretKind, ...options });
  return schema;
}

/** The mark of a variable's schema, looking through optional/default wrappers. */
function secretMarkOf(schema: z.ZodType): SecretMark | undefined {
  let current: z.ZodType = schema;
  for (;;) {
    const mark = secretKinds.get(current);
    if (mark) return mark;
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
    else return undefined;
  }
}

export const MIN_SECRET_LENGTH = 32;

/** Values published in this repository or in the backing services' own documentation. */
const KNOWN_PLACEHOLDERS = new Set([
  'legacy-vault',
  'legacy-vault-minio-secret',
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
 * The problems of the secrets `schema` marks, in `config` (variables a process does not have are skipped,
 * unless marked `requiredInProduction`: then they are "missing").
 * Never echoes a value: messages name the variable and what is wrong with it.
 */
export function findWeakSecrets(schema: z.ZodObject, config: Record<string, unknown>): SecretProblem[] {
  const problems: SecretProblem[] = [];
  // Secrets first, then identifiers, then URLs: an operator reads the worst problems first.
  const order: SecretKind[] = ['secret', 'identifier', 'url-password'];
  const marked = Object.entries(schema.shape as Record<string, z.ZodType>)
    .map(([variable, field]) => ({ variable, mark: secretMarkOf(field) }))
    .filter((entry): entry is { variable: string; mark: SecretMark } => entry.mark !== undefined)
    .map(({ variable, mark }) => ({ variable, kind: mark.secretKind, required: mark.requiredInProduction === true }))
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  for (const { variable, kind, required } of marked) {
    const value = config[variable];
    if (typeof value !== 'string') {
      if (required) problems.push({ variable, problem: 'is missing' });
      continue;
    }
    if (kind === 'url-password') {
      const password = urlPassword(value);
      const problem = password === null ? null : secretProblem(password);
      if (problem) problems.push({ variable, problem: `has a password that ${problem}` });
      continue;
    }
    const problem = kind === 'secret' ? secretProblem(value) : placeholderProblem(value);
    if (problem) problems.push({ variable, problem });
  }
  return problems;
}
