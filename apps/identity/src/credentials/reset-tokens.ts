import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** A reset link's token: `<reset id>.<256 random bits, base64url>`. Only its SHA-256 is stored. */
export const hashResetToken = (token: string) => createHash('sha256').update(token).digest();

export function newResetToken(): { resetId: string; token: string; tokenHash: string } {
  const resetId = randomUUID();
  const token = `${resetId}.${randomBytes(32).toString('base64url')}`;
  return { resetId, token, tokenHash: hashResetToken(token).toString('hex') };
}

/** The reset id a token names, or null for anything not shaped like one. */
export function resetIdOf(token: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? match[1]! : null;
}

/** Compares in constant time, so the stored hash leaks nothing through timing. */
export function tokenMatches(token: string, storedHashHex: string): boolean {
  const stored = Buffer.from(storedHashHex, 'hex');
  const given = hashResetToken(token);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** The link's path and fragment: the fragment never reaches a server's logs. */
export const resetLinkPath = (email: string, token: string) => `/reset-password#${new URLSearchParams({ email, token }).toString()}`;

/** An e-mail change's links carry only the token: its id names the change, its hash proves it. */
export const confirmEmailLinkPath = (token: string) => `/confirm-email#${new URLSearchParams({ token }).toString()}`;
export const undoEmailChangeLinkPath = (token: string) => `/undo-email-change#${new URLSearchParams({ token }).toString()}`;
/** A new-sign-in alert's "this wasn't me" link. */
export const notMeLinkPath = (token: string) => `/not-me#${new URLSearchParams({ token }).toString()}`;
/** An address's verification link (sign-up, or a resend). */
export const verifyEmailLinkPath = (token: string) => `/verify-email#${new URLSearchParams({ token }).toString()}`;
