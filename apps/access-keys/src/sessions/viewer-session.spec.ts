import { DomainError } from '@lv/platform/errors';
import type { ViewerCaller } from '@lv/platform/auth';
import { NotificationStates } from '../notification-states.js';
import { OwnerKeys } from '../keys/owner-keys.js';
import { accessFixture, consent, fromAddress, ownerCaller } from '../test-support/access-fixture.js';
import { OwnerSessions } from './owner-sessions.js';
import { RedeemKey } from './redeem-key.js';
import { ViewerSession } from './viewer-session.js';

const DAY_MS = 86_400_000;
const codeOf = (error: unknown) => (error instanceof DomainError ? error.code : error);

async function openedVault(options: { days?: number } = {}) {
  const world = accessFixture();
  const { access, now, revokedViewSessions, verifier } = world;
  const deps = { keys: access.keys, sessions: access.sessions, commands: access, revokedViewSessions, now };
  const redeemKey = new RedeemKey({ ...deps, budget: world.budget, viewerTokens: world.viewerTokens });
  const viewerSession = new ViewerSession(deps);
  const ownerSessions = new OwnerSessions(deps);
  const ownerKeys = new OwnerKeys(deps);
  const states = new NotificationStates({ keys: access.keys, requests: access.requests, commands: access, now });
  const owner = ownerCaller();
  const { key, keyId } = await world.issueKey(owner, { scopes: ['timeline', 'letters'], days: options.days ?? 90 });
  const meta = fromAddress('203.0.113.40');
  const opened = await redeemKey.redeem({ access_key: key, owner: owner.userId, consent }, meta);
  const viewer: ViewerCaller = await verifier.verify(opened.viewer_token);
  return { ...world, viewerSession, ownerSessions, ownerKeys, states, owner, keyId, opened, viewer, meta };
}

describe("a viewer's session", () => {
  it('shows the owner who opened his vault, with the consent given and what was viewed, newest first', async () => {
    const { viewerSession, ownerSessions, owner, viewer, meta, clock, opened, keyId } = await openedVault();
    await viewerSession.recordView(viewer, 'timeline', undefined, meta);
    clock.now += 120_000;
    await viewerSession.recordView(viewer, 'letters', { kind: 'letter', id: '4d5e6f7a-8b9c-4d4e-8f5a-6b7c8d9e0f1a' }, meta);
    const [summary] = await ownerSessions.list(owner);
    expect(summary).toMatchObject({
      id: opened.session_id, key_id: keyId, key_name: 'Sam', recipient_email: 'sam@example.com', status: 'active',
      consent: { consent_hash: consent.text_hash, user_agent: 'Firefox', origin: 'https://vault.example' },
      views: [{ section: 'letters', item: { kind: 'letter', title: null } }, { section: 'timeline' }],
    });
    expect(await ownerSessions.list(ownerCaller())).toEqual([]);
  });

  it('records a section at most once a minute, and only a section its key shares', async () => {
    const { viewerSession, ownerSessions, owner, viewer, meta, clock } = await openedVault();
    await viewerSession.recordView(viewer, 'timeline', undefined, meta);
    clock.now += 30_000;
    await viewerSession.recordView(viewer, 'timeline', undefined, meta);
    expect((await ownerSessions.list(owner))[0]!.views).toHaveLength(1);
    clock.now += 31_000;
    await viewerSession.recordView(viewer, 'timeline', undefined, meta);
    expect((await ownerSessions.list(owner))[0]!.views).toHaveLength(2);
    expect(codeOf(await viewerSession.recordView({ ...viewer, scopes: [...viewer.scopes, 'court-journal'] }, 'court-journal', undefined, meta).catch((e: unknown) => e))).toBe('FORBIDDEN');
  });

  it('reads nothing once the owner revokes it, the viewer closes it, or it runs out', async () => {
    const revoked = await openedVault();
    expect(await revoked.ownerSessions.revoke(revoked.owner, revoked.opened.session_id, revoked.meta)).toMatchObject({ status: 'revoked' });
    expect(revoked.revoked.has(revoked.opened.session_id)).toBe(true);
    expect(codeOf(await revoked.viewerSession.recordView(revoked.viewer, 'timeline', undefined, revoked.meta).catch((e: unknown) => e))).toBe('VIEW_SESSION_ENDED');

    const closed = await openedVault();
    expect(await closed.viewerSession.close(closed.opened.session, closed.meta)).toEqual({ closed: true });
    expect(await closed.viewerSession.close('no-such-secret', closed.meta)).toEqual({ closed: false });
    expect(codeOf(await closed.viewerSession.recordView(closed.viewer, 'timeline', undefined, closed.meta).catch((e: unknown) => e))).toBe('VIEW_SESSION_ENDED');

    const expiring = await openedVault({ days: 1 });
    expiring.clock.now += DAY_MS;
    expect(codeOf(await expiring.viewerSession.recordView(expiring.viewer, 'timeline', undefined, expiring.meta).catch((e: unknown) => e))).toBe('VIEW_SESSION_ENDED');
    expect((await expiring.ownerSessions.list(expiring.owner))[0]!.status).toBe('expired');
  });

  it("refuses a viewer token naming another vault's session, and an owner revoking another owner's session", async () => {
    const { viewerSession, ownerSessions, viewer, meta, opened } = await openedVault();
    expect(codeOf(await viewerSession.recordView({ ...viewer, vaultOwnerId: ownerCaller().userId }, 'timeline', undefined, meta).catch((e: unknown) => e))).toBe('VIEW_SESSION_ENDED');
    expect(codeOf(await ownerSessions.revoke(ownerCaller(), opened.session_id, meta).catch((e: unknown) => e))).toBe('NOT_FOUND');
  });
});

describe("the owner's keys", () => {
  it('lists each key with its use, and revoking one ends every session it opened', async () => {
    const { ownerKeys, ownerSessions, viewerSession, owner, viewer, keyId, meta, revoked, opened, states } = await openedVault();
    await viewerSession.recordView(viewer, 'timeline', undefined, meta);
    expect(await ownerKeys.list(owner)).toMatchObject([{ id: keyId, status: 'active', sessions: 1, last_viewed_at: expect.any(String), email_status: 'queued' }]);
    expect(await ownerKeys.revoke(owner, keyId, meta)).toMatchObject({ id: keyId, status: 'revoked', revoked_at: expect.any(String) });
    expect((await ownerSessions.list(owner))[0]).toMatchObject({ id: opened.session_id, status: 'revoked' });
    expect(revoked.has(opened.session_id)).toBe(true);
    expect(await states.keyMailState(keyId)).toEqual({ state: 'revoked' });
  });

  it("answers another owner's key as not found, and leaves it working", async () => {
    const { ownerKeys, owner, keyId, meta, states } = await openedVault();
    expect(codeOf(await ownerKeys.revoke(ownerCaller(), keyId, meta).catch((e: unknown) => e))).toBe('NOT_FOUND');
    expect((await ownerKeys.list(owner))[0]!.status).toBe('active');
    expect(await states.keyMailState(keyId)).toEqual({ state: 'active' });
    expect(await states.keyMailState('5e6f7a8b-9c0d-4e5f-8a6b-7c8d9e0f1a2b')).toEqual({ state: 'unknown' });
  });

  it("records the key's e-mail as sent once, and a late failure report does not undo it", async () => {
    const { owner, keyId, states, ownerKeys } = await openedVault();
    const at = new Date().toISOString();
    await states.recordEmailStatus({ keyId, status: 'sent', at, messageId: 'm-1', reason: null });
    await states.recordEmailStatus({ keyId, status: 'failed', at, messageId: null, reason: 'bounced' });
    expect((await ownerKeys.list(owner))[0]).toMatchObject({ email_status: 'sent', email_sent_at: at, email_failure: null });
  });

  it("tells the owner a key e-mail stopped by the daily cap apart from one the mail server refused", async () => {
    const { owner, keyId, states, ownerKeys } = await openedVault();
    const at = new Date().toISOString();
    await states.recordEmailStatus({ keyId, status: 'failed', at, messageId: null, reason: 'smtp: 550 mailbox unavailable' });
    expect((await ownerKeys.list(owner))[0]).toMatchObject({ email_status: 'failed', email_failure: 'undeliverable' });
    const capped = await openedVault();
    await capped.states.recordEmailStatus({ keyId: capped.keyId, status: 'failed', at, messageId: null, reason: 'daily-limit: 50 key e-mails already went for this owner in the last 24 hours' });
    expect((await capped.ownerKeys.list(capped.owner))[0]).toMatchObject({ email_status: 'failed', email_failure: 'daily_limit' });
  });
});
