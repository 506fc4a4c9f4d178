import { AccessMessages, CONSENT_VERSION, VIEW_SESSION_LIFETIME_DAYS, VIEWER_CONSENT_TEXT, type ViewSection } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { keyStatusAt } from '../keys/key.decider.js';
import type { KeyRow } from '../keys/keys.repository.js';
import { CONSENT_HASH } from '../secrets.js';
import type { SessionRow } from './sessions.repository.js';
import { sessionStatusAt, type SessionCommand } from './session.decider.js';

// What a viewer may do with a key and the session it opened. Pure: the use cases read the key and
// session rows and the clock, and hand them here. Every refusal of a key is the same one, whether the
// key is unknown, revoked, expired or another vault's, so a refusal says nothing about which keys exist.

const DAY_MS = 24 * 3600 * 1000;

/** What redemption needs of a key. */
export type RedeemableKey = Pick<KeyRow, 'id' | 'owner_id' | 'scopes' | 'expires_at' | 'revoked_at' | 'letter_id' | 'allow_download'>;

/** The new session's facts from the viewer's side. */
export interface RedeemAttempt {
  sessionId: string;
  secretHash: string;
  userAgent: string | null;
  origin: string | null;
  now: string;
}

/** The viewer accepted the current consent text, word for word; anything else is asked again. */
export function requireConsent(consent: { version: string; text_hash: string }): void {
  if (consent.version !== CONSENT_VERSION || consent.text_hash !== CONSENT_HASH) throw new DomainError('CONSENT_REQUIRED', AccessMessages.consentRequired);
}

/** Only an active key opens a session, and only in the vault the link named (when it named one). */
export function requireRedeemable<K extends RedeemableKey>(key: K | undefined, owner: string | null, now: number): asserts key is K {
  if (!key || keyStatusAt(key, now) !== 'active' || (owner !== null && owner !== key.owner_id)) throw new DomainError('INVALID_OR_EXPIRED_KEY', AccessMessages.keyInvalid);
}

/**
 * The session a redeemable key opens: its sections, its one letter and its download permission are
 * the key's, and it lasts VIEW_SESSION_LIFETIME_DAYS but never outlives the key.
 */
export function openSession(attempt: RedeemAttempt, key: RedeemableKey): Extract<SessionCommand, { type: 'OpenSession' }> {
  const expiresAt = new Date(Math.min(Date.parse(attempt.now) + VIEW_SESSION_LIFETIME_DAYS * DAY_MS, new Date(key.expires_at).getTime())).toISOString();
  return {
    type: 'OpenSession', sessionId: attempt.sessionId, ownerId: key.owner_id, keyId: key.id, secretHash: attempt.secretHash, scopes: key.scopes as ViewSection[], expiresAt,
    consent: { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH, userAgent: attempt.userAgent, origin: attempt.origin },
    now: attempt.now, ...(key.letter_id ? { letterId: key.letter_id } : {}), ...(key.allow_download ? { mayDownload: true } : {}),
  };
}

/** A fresh viewer token only while the session is active and its key still opens the vault. */
export function requireRenewable<K extends Pick<KeyRow, 'revoked_at' | 'expires_at'>>(session: Pick<SessionRow, 'status' | 'expires_at'>, key: K | undefined, now: number): asserts key is K {
  if (sessionStatusAt(session, now) !== 'active' || !key || keyStatusAt(key, now) !== 'active') throw new DomainError('VIEW_SESSION_ENDED', AccessMessages.viewExpired);
}

/** The viewer's token names the session; a view is recorded only in a live session of that vault, in a section its key shares. */
export function requireViewable(
  viewer: { viewSessionId: string; vaultOwnerId: string; scopes: readonly ViewSection[] }, session: Pick<SessionRow, 'owner_id' | 'status' | 'expires_at'> | undefined,
  section: ViewSection, now: number,
): void {
  if (!session || session.owner_id !== viewer.vaultOwnerId || sessionStatusAt(session, now) !== 'active') throw new DomainError('VIEW_SESSION_ENDED', AccessMessages.viewExpired);
  if (!viewer.scopes.includes(section)) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
}
