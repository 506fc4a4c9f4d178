import { createHash, randomBytes } from 'node:crypto';

/** How many recovery codes an account holds after enrolling or regenerating. */
export const RECOVERY_CODE_COUNT = 10;

/** Letters and digits with none that read alike (no 0/o, 1/l/i): 31 symbols. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One code: 10 symbols (about 49 random bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte % ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Ten distinct codes, shown to the owner once; only their hashes are kept. */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  return [...codes];
}

/** A code as typed: case, spaces and dashes do not matter. Null for anything not shaped like one. */
export function normaliseRecoveryCode(typed: string): string | null {
  const compact = typed.replace(/[\s-]/g, '').toLowerCase();
  return compact.length === 10 && [...compact].every((c) => ALPHABET.includes(c)) ? compact : null;
}

/**
 * What is stored of a code: SHA-256 of its normal form, hex. 49 random bits are far beyond guessing
 * within the second step's limit, so a fast hash is enough (as for the reset links' 256-bit tokens).
 */
export function hashRecoveryCode(normalised: string): string {
  return createHash('sha256').update(`lv-recovery-code:${normalised}`).digest('hex');
}
