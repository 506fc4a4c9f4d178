import { CONSENT_VERSION, VIEWER_CONSENT_TEXT } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { CONSENT_HASH } from '../secrets.js';
import type { SessionCommand } from './session.decider.js';
import { openSession, requireConsent, requireRedeemable, requireRenewable, requireViewable, type RedeemableKey } from './viewer-access.decider.js';

const id = (n: number) => `${n}0000000-0000-4000-8000-00000000000${n}`;
const { owner, otherOwner, keyId, sessionId, letterId } = { owner: id(1), otherOwner: id(2), keyId: id(3), sessionId: id(4), letterId: id(5) };
const now = '2026-11-25T10:00:00.000Z';
const inDays = (days: number) => new Date(Date.parse(now) + days * 86_400_000);

const key = (facts: Partial<RedeemableKey> = {}): RedeemableKey => ({
  id: keyId, owner_id: owner, scopes: ['timeline', 'letters'], expires_at: inDays(90), revoked_at: null, letter_id: null, allow_download: false, ...facts,
});

/** The refusal a rule throws (undefined when it lets the viewer through). */
function refusal(rule: () => unknown): DomainError | undefined {
  try {
    rule();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/** Given the key the link's hash names (if any), when a viewer redeems it for a vault, then a session opens or the key is refused. */
const given = (known: RedeemableKey | undefined) => ({
  when: (link: { owner: string | null }) => {
    const redeem = (): Extract<SessionCommand, { type: 'OpenSession' }> => {
      requireRedeemable(known, link.owner, Date.parse(now));
      return openSession({ sessionId, secretHash: 'secret-hash', userAgent: 'Firefox', origin: 'https://vault.example', now }, known);
    };
    return {
      thenOpens: (expected: Partial<Extract<SessionCommand, { type: 'OpenSession' }>>) => expect(redeem()).toMatchObject(expected),
      thenRefuses: () => {
        const error = refusal(redeem);
        // One answer for every refused key: it tells a guesser nothing about which keys exist.
        expect({ code: error?.code, message: error?.message }).toEqual({ code: 'INVALID_OR_EXPIRED_KEY', message: 'That access key is invalid, expired, or already used.' });
      },
    };
  },
});

describe('viewer consent', () => {
  it('accepts the current consent text, word for word', () => {
    expect(refusal(() => requireConsent({ version: CONSENT_VERSION, text_hash: CONSENT_HASH }))).toBeUndefined();
  });

  it('asks again for an older version or a different text', () => {
    expect(refusal(() => requireConsent({ version: 'v0', text_hash: CONSENT_HASH }))?.code).toBe('CONSENT_REQUIRED');
    expect(refusal(() => requireConsent({ version: CONSENT_VERSION, text_hash: 'a'.repeat(64) }))?.code).toBe('CONSENT_REQUIRED');
  });
});

describe('redeeming a key', () => {
  it('opens a session in the key owner vault, with the key sections and the consent the viewer accepted', () => {
    given(key()).when({ owner }).thenOpens({
      type: 'OpenSession', sessionId, ownerId: owner, keyId, secretHash: 'secret-hash', scopes: ['timeline', 'letters'], now,
      consent: { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH, userAgent: 'Firefox', origin: 'https://vault.example' },
    });
    given(key()).when({ owner: null }).thenOpens({ ownerId: owner });
  });

  it('refuses unknown, revoked, expired keys and keys of another vault alike', () => {
    given(undefined).when({ owner }).thenRefuses();
    given(key({ revoked_at: inDays(-1) })).when({ owner }).thenRefuses();
    given(key({ expires_at: inDays(-1) })).when({ owner }).thenRefuses();
    given(key()).when({ owner: otherOwner }).thenRefuses();
  });

  it('treats a key as expired from the instant of its expiry', () => {
    given(key({ expires_at: new Date(now) })).when({ owner }).thenRefuses();
    given(key({ expires_at: new Date(Date.parse(now) + 1) })).when({ owner }).thenOpens({ keyId });
  });

  it('lasts 30 days, but never outlives its key', () => {
    given(key()).when({ owner }).thenOpens({ expiresAt: inDays(30).toISOString() });
    given(key({ expires_at: inDays(2) })).when({ owner }).thenOpens({ expiresAt: inDays(2).toISOString() });
  });

  it('carries a one-letter key letter, and downloads only when the key allows them', () => {
    const oneLetter = given(key({ letter_id: letterId, scopes: ['letters'] })).when({ owner });
    oneLetter.thenOpens({ letterId, scopes: ['letters'] });
    expect(openSession({ sessionId, secretHash: 'h', userAgent: null, origin: null, now }, key())).not.toHaveProperty('letterId');
    expect(openSession({ sessionId, secretHash: 'h', userAgent: null, origin: null, now }, key())).not.toHaveProperty('mayDownload');
    given(key({ allow_download: true })).when({ owner }).thenOpens({ mayDownload: true });
  });
});

describe('renewing a viewer token', () => {
  const at = Date.parse(now);
  const live = { status: 'active' as const, expires_at: inDays(10) };

  it('renews while the session is active and its key still opens the vault', () => {
    expect(refusal(() => requireRenewable(live, key(), at))).toBeUndefined();
  });

  it('ends with the session (revoked, closed, past its end) or with its key (revoked, expired, gone)', () => {
    for (const session of [{ ...live, status: 'revoked' as const }, { ...live, status: 'closed' as const }, { ...live, expires_at: new Date(at) }]) {
      expect(refusal(() => requireRenewable(session, key(), at))?.code).toBe('VIEW_SESSION_ENDED');
    }
    for (const ended of [key({ revoked_at: inDays(-1) }), key({ expires_at: new Date(at) }), undefined]) {
      expect(refusal(() => requireRenewable(live, ended, at))?.code).toBe('VIEW_SESSION_ENDED');
    }
  });
});

describe('recording a view', () => {
  const at = Date.parse(now);
  const viewer = { viewSessionId: sessionId, vaultOwnerId: owner, scopes: ['timeline' as const] };
  const session = { owner_id: owner, status: 'active' as const, expires_at: inDays(10) };

  it('records a section the key shares, in a live session of the token vault', () => {
    expect(refusal(() => requireViewable(viewer, session, 'timeline', at))).toBeUndefined();
  });

  it('refuses a section the key does not share', () => {
    expect(refusal(() => requireViewable(viewer, session, 'letters', at))?.code).toBe('FORBIDDEN');
  });

  it('answers an ended, unknown or other vault session as ended', () => {
    for (const ended of [{ ...session, status: 'revoked' as const }, { ...session, expires_at: new Date(at) }, { ...session, owner_id: otherOwner }, undefined]) {
      expect(refusal(() => requireViewable(viewer, ended, 'timeline', at))?.code).toBe('VIEW_SESSION_ENDED');
    }
  });
});
