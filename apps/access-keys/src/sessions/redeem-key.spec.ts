import { DomainError } from '@lv/platform/errors';
import { OwnerKeys } from '../keys/owner-keys.js';
import { accessFixture, consent, fromAddress, ownerCaller } from '../test-support/access-fixture.js';
import { RedeemKey } from './redeem-key.js';

const DAY_MS = 86_400_000;

async function refusal(attempt: Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  try {
    await attempt;
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
}

function redemption(options: { redeemFailuresPerMinute?: number } = {}) {
  const world = accessFixture(options);
  const { access, budget, viewerTokens, now } = world;
  const redeemKey = new RedeemKey({ keys: access.keys, sessions: access.sessions, commands: access, budget, viewerTokens, now });
  const ownerKeys = new OwnerKeys({ keys: access.keys, sessions: access.sessions, commands: access, revokedViewSessions: world.revokedViewSessions, now });
  return { ...world, redeemKey, ownerKeys };
}

describe('redeeming a key', () => {
  it('opens a view session whose token reads the key owner vault, in the key sections only', async () => {
    const { redeemKey, issueKey, verifier, access } = redemption();
    const owner = ownerCaller();
    const { key, keyId } = await issueKey(owner, { scopes: ['timeline', 'letters'] });
    const opened = await redeemKey.redeem({ access_key: key, owner: owner.userId, consent }, fromAddress('203.0.113.1'));
    const viewer = await verifier.verify(opened.viewer_token);
    expect(viewer).toMatchObject({ kind: 'viewer', vaultOwnerId: owner.userId, viewSessionId: opened.session_id, scopes: ['timeline', 'letters'], mayDownload: false });
    expect(await access.sessions.byId(opened.session_id)).toMatchObject({ key_id: keyId, status: 'active', user_agent: 'Firefox', consent_hash: consent.text_hash });
  });

  it('gives a one-letter key a session limited to its letter, and downloads only where the key allows them', async () => {
    const { redeemKey, issueKey, verifier } = redemption();
    const owner = ownerCaller();
    const letterId = '3c4d5e6f-7a8b-4c3d-8e4f-5a6b7c8d9e0f';
    const milestone = await issueKey(owner, { scopes: ['letters'], letterId });
    expect(await verifier.verify((await redeemKey.redeem({ access_key: milestone.key, owner: null, consent }, fromAddress('203.0.113.2'))).viewer_token))
      .toMatchObject({ letterId, scopes: ['letters'], mayDownload: false });
    const downloads = await issueKey(owner, { allowDownload: true });
    expect((await redeemKey.redeem({ access_key: downloads.key, owner: null, consent }, fromAddress('203.0.113.2'))).may_download).toBe(true);
  });

  it('answers a wrong vault, a revoked, an expired and an unknown key with one and the same refusal', async () => {
    const { redeemKey, issueKey, ownerKeys, clock } = redemption({ redeemFailuresPerMinute: 10 });
    const owner = ownerCaller();
    const other = ownerCaller();
    const good = await issueKey(owner);
    const revoked = await issueKey(owner);
    await ownerKeys.revoke(owner, revoked.keyId, fromAddress('198.51.100.9'));
    const expiring = await issueKey(owner, { days: 1 });
    clock.now += 2 * DAY_MS;
    const meta = fromAddress('203.0.113.3');
    const answers = [
      await refusal(redeemKey.redeem({ access_key: good.key, owner: other.userId, consent }, meta)),
      await refusal(redeemKey.redeem({ access_key: revoked.key, owner: owner.userId, consent }, meta)),
      await refusal(redeemKey.redeem({ access_key: expiring.key, owner: owner.userId, consent }, meta)),
      await refusal(redeemKey.redeem({ access_key: '00000000-0000-4000-8000-000000000000', owner: owner.userId, consent }, meta)),
    ];
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify({ code: 'INVALID_OR_EXPIRED_KEY', message: 'That access key is invalid, expired, or already used.' })]));
    // The same key for its own vault still opens.
    await expect(redeemKey.redeem({ access_key: good.key, owner: owner.userId, consent }, meta)).resolves.toMatchObject({ owner_id: owner.userId });
  });

  it('spends the address budget on failures only: past it even a good key is refused, other addresses are not', async () => {
    const { redeemKey, issueKey } = redemption({ redeemFailuresPerMinute: 3 });
    const owner = ownerCaller();
    const { key } = await issueKey(owner);
    const guesser = fromAddress('203.0.113.4');
    // Successes give their attempt back: more opens than the budget all pass.
    for (let i = 0; i < 5; i++) await redeemKey.redeem({ access_key: key, owner: null, consent }, guesser);
    for (let i = 0; i < 3; i++) expect((await refusal(redeemKey.redeem({ access_key: `guess-${i}`, owner: null, consent }, guesser)))?.code).toBe('INVALID_OR_EXPIRED_KEY');
    expect((await refusal(redeemKey.redeem({ access_key: key, owner: null, consent }, guesser)))?.code).toBe('RATE_LIMITED');
    await expect(redeemKey.redeem({ access_key: key, owner: null, consent }, fromAddress('203.0.113.5'))).resolves.toMatchObject({ owner_id: owner.userId });
  });

  it('asks for consent before anything else, without spending the budget', async () => {
    const { redeemKey, issueKey, access } = redemption({ redeemFailuresPerMinute: 2 });
    const owner = ownerCaller();
    const { key } = await issueKey(owner);
    const meta = fromAddress('203.0.113.6');
    for (let i = 0; i < 4; i++) {
      expect((await refusal(redeemKey.redeem({ access_key: key, owner: null, consent: { ...consent, version: 'v0' } }, meta)))?.code).toBe('CONSENT_REQUIRED');
    }
    expect(await access.sessions.ofOwner(owner.userId)).toEqual([]);
    await expect(redeemKey.redeem({ access_key: key, owner: null, consent }, meta)).resolves.toMatchObject({ owner_id: owner.userId });
  });
});

describe("renewing a viewer's token", () => {
  it('renews a live session, and stops once the owner revokes its key (its tokens are revoked too)', async () => {
    const { redeemKey, issueKey, ownerKeys, verifier } = redemption();
    const owner = ownerCaller();
    const { key, keyId } = await issueKey(owner);
    const meta = fromAddress('203.0.113.7');
    const opened = await redeemKey.redeem({ access_key: key, owner: null, consent }, meta);
    expect((await redeemKey.viewToken(opened.session, meta)).session_id).toBe(opened.session_id);
    await ownerKeys.revoke(owner, keyId, meta);
    expect((await refusal(redeemKey.viewToken(opened.session, meta)))?.code).toBe('VIEW_SESSION_ENDED');
    await expect(verifier.verify(opened.viewer_token)).rejects.toThrow();
  });

  it('stops when the key expires, and never hands out a token that outlives it', async () => {
    const { redeemKey, issueKey, clock } = redemption();
    const owner = ownerCaller();
    const { key } = await issueKey(owner, { days: 1 });
    const meta = fromAddress('203.0.113.8');
    const opened = await redeemKey.redeem({ access_key: key, owner: null, consent }, meta);
    clock.now += DAY_MS - 60_000;
    const lastMinute = await redeemKey.viewToken(opened.session, meta);
    expect(lastMinute.viewer_token_expires_at).toBeLessThanOrEqual(Date.parse(opened.session_expires_at));
    clock.now += 60_000;
    expect((await refusal(redeemKey.viewToken(opened.session, meta)))?.code).toBe('VIEW_SESSION_ENDED');
  });

  it('counts an unknown session secret against the address like a wrong key', async () => {
    const { redeemKey, issueKey } = redemption({ redeemFailuresPerMinute: 2 });
    const { key } = await issueKey(ownerCaller());
    const meta = fromAddress('203.0.113.9');
    for (let i = 0; i < 2; i++) expect((await refusal(redeemKey.viewToken(`unknown-secret-${i}`, meta)))?.code).toBe('VIEW_SESSION_ENDED');
    expect((await refusal(redeemKey.redeem({ access_key: key, owner: null, consent }, meta)))?.code).toBe('RATE_LIMITED');
  });
});
