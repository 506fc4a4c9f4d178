import { randomUUID } from 'node:crypto';
import { CONSENT_VERSION, VIEW_SECTIONS, type RequestMeta, type ViewSection } from '@lv/contracts';
import { ViewerTokenSigner, ViewerTokenVerifier, type UserCaller } from '@lv/platform/auth';
import { generateTestKeys } from '@lv/testing';
import { RedeemBudget } from '../address-limits.js';
import { KEY_STREAM_TYPE, keyDecider, keyStreamId } from '../keys/key.decider.js';
import { CONSENT_HASH, hashAccessKey } from '../secrets.js';
import { InMemoryRateBudgets } from '@lv/platform/limits';
import { InMemoryAccess } from './in-memory-access.js';

const DAY_MS = 86_400_000;
const viewerKeys = generateTestKeys();

export const consent = { version: CONSENT_VERSION, text_hash: CONSENT_HASH };
export const fromAddress = (ip: string): RequestMeta => ({ requestId: randomUUID(), ip, userAgent: 'Firefox', origin: 'https://vault.example' });

export const ownerCaller = (userId = randomUUID()): UserCaller => ({ kind: 'user', userId, sessionId: randomUUID(), email: `${userId}@example.com`, tier: 'essentials', isAdmin: false, emailVerified: true, provedAt: Date.now() });

/**
 * The use cases' world in memory: streams and read models (InMemoryAccess), per-address counters, the
 * revocation list, a real viewer token signer and verifier, and a clock the spec moves.
 */
export function accessFixture(options: { redeemFailuresPerMinute?: number } = {}) {
  const clock = { now: Date.now() };
  const now = () => new Date(clock.now);
  const access = new InMemoryAccess(now);
  const counters = new InMemoryRateBudgets(() => now().getTime());
  const revoked = new Set<string>();
  const revokedViewSessions = { revoke: (sessionId: string) => Promise.resolve(void revoked.add(sessionId)) };
  const viewerTokens = new ViewerTokenSigner(viewerKeys.privateKey);
  const verifier = new ViewerTokenVerifier(viewerKeys.publicKey, { isRevoked: (id) => Promise.resolve(revoked.has(id)) });
  const budget = new RedeemBudget(counters, options.redeemFailuresPerMinute ?? 5);

  /** Issues a key the way every issuer does (the key's own decider), `days` from now. */
  const issueKey = async (owner: UserCaller, facts: { days?: number; scopes?: ViewSection[]; letterId?: string; allowDownload?: boolean } = {}) => {
    const key = randomUUID();
    const keyId = randomUUID();
    const issuedAt = now().toISOString();
    await access.run(keyDecider, { streamId: keyStreamId(keyId), streamType: KEY_STREAM_TYPE }, {
      type: 'IssueKey', keyId, ownerId: owner.userId, keyHash: hashAccessKey(key), source: 'owner', requestId: null, scopes: facts.scopes ?? [...VIEW_SECTIONS],
      expiresAt: new Date(clock.now + (facts.days ?? 90) * DAY_MS).toISOString(), recipient: { recipientEmail: 'sam@example.com', name: 'Sam' }, now: issuedAt,
      ...(facts.letterId ? { letterId: facts.letterId } : {}), ...(facts.allowDownload ? { allowDownload: true } : {}),
    }, { actor: { kind: 'user', id: owner.userId } });
    return { key, keyId };
  };

  return { clock, now, access, counters, revoked, revokedViewSessions, viewerTokens, verifier, budget, issueKey, commands: access };
}
