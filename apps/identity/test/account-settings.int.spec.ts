import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { IdentityEvents, IdentityRpc, SettingsMessages, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import { generateTestKeys, waitFor } from '@lv/testing';
import { asSession, type IdentityHarness, NATS_URL, startIdentity } from './test-support/harness.js';
import type { IdentityConfig } from '../src/config.js';

// /settings and /admin against identity over NATS: the e-mail, the password (every other session
// ended), the notification switches, and the admin overview (admins only, by identity's own record).

const keys = generateTestKeys();
let addressSeq = 0;
const meta = () => ({ requestId: 'test', ip: `10.201.${Math.floor(addressSeq / 250) % 250}.${(addressSeq++ % 250) + 1}` });

describe('identity account settings and admin overview', () => {
  let identity: RunningService<IdentityConfig>;
  let rpc: RpcClient;
  const signer = new AccessTokenSigner(keys.privateKey);
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string) => rpc.callUnchecked(declaration, payload, { accessToken, meta: meta() });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  let n = 0;
  const newEmail = (stem = 'parent') => `${stem}.${Date.now()}.${n++}@example.com`;
  const signUp = (email: string, password = 'secret-one') => call(IdentityRpc.signUp, { email, password });
  const signIn = (email: string, password = 'secret-one') => call(IdentityRpc.signIn, { email, password }).then(asSession);
  const eventsOf = async (userId: string) =>
    (await identity.core.orm.em.fork().execute<{ type: string; data: Record<string, unknown> }[]>('select type, data from events where stream_id = ? order by version', [`user-${userId}`]));

  let harness: IdentityHarness;
  beforeAll(async () => {
    harness = await startIdentity('identityset', keys, { SIGNIN_WINDOW_SECONDS: '60' });
    ({ identity, rpc } = harness);
  });

  afterAll(() => harness?.close());

  it('asks for a new sign-in e-mail with the current password only, keeping addresses unique', async () => {
    const email = newEmail();
    const session = await signUp(email);
    const taken = newEmail('taken');
    await signUp(taken);
    const next = newEmail('moved');

    await expect(call(IdentityRpc.changeEmail, { email: next, currentPassword: 'wrong-1' }, session.accessToken)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED', details: { fields: { currentPassword: SettingsMessages.currentPasswordWrong } },
    });
    await expect(call(IdentityRpc.changeEmail, { email: next, currentPassword: '' }, session.accessToken)).rejects.toMatchObject({
      details: { fields: { currentPassword: SettingsMessages.currentPasswordRequired } },
    });
    expect(await codeOf(call(IdentityRpc.changeEmail, { email: taken.toUpperCase(), currentPassword: 'secret-one' }, session.accessToken))).toBe('EMAIL_TAKEN');
    await expect(call(IdentityRpc.changeEmail, { email: 'nope@', currentPassword: 'secret-one' }, session.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });

    // Asked for: nothing changes until the new address confirms (email-change.int.spec.ts follows the links).
    const profile = await call(IdentityRpc.changeEmail, { email: ` ${next.toUpperCase()} `, currentPassword: 'secret-one' }, session.accessToken);
    expect(profile.email).toBe(email);
    expect((await call(IdentityRpc.getMe, {}, session.accessToken)).email).toBe(email);
    expect((await signIn(email)).profile.id).toBe(session.profile.id);
    expect(await codeOf(signIn(next))).toBe('INVALID_CREDENTIALS');
    expect((await eventsOf(session.profile.id)).map((e) => e.type)).toContain('EmailChangeRequested');
    expect((await eventsOf(session.profile.id)).map((e) => e.type)).not.toContain('EmailChanged');
  });

  it('changes the password (argon2id), ends every other session at once, and keeps the one that changed it', async () => {
    const email = newEmail();
    const here = await signUp(email);
    const laptop = await signIn(email);
    const phone = await signIn(email);

    expect(await codeOf(call(IdentityRpc.changePassword, { currentPassword: 'wrong-1', newPassword: 'better-secret' }, here.accessToken))).toBe('VALIDATION_FAILED');
    await expect(call(IdentityRpc.changePassword, { currentPassword: 'secret-one', newPassword: '12345' }, here.accessToken)).rejects.toMatchObject({
      details: { fields: { newPassword: 'Password must be at least 8 characters' } },
    });
    await expect(call(IdentityRpc.changePassword, { currentPassword: 'secret-one', newPassword: 'secret-one' }, here.accessToken)).rejects.toMatchObject({
      details: { fields: { newPassword: SettingsMessages.samePassword } },
    });
    // Nothing was changed by the refusals: the other sessions still work.
    expect(await codeOf(call(IdentityRpc.getMe, {}, laptop.accessToken))).toBe('OK');

    expect(await call(IdentityRpc.changePassword, { currentPassword: 'secret-one', newPassword: 'better-secret' }, here.accessToken)).toEqual({ otherSessionsEnded: 2 });

    for (const other of [laptop, phone]) {
      expect(await codeOf(call(IdentityRpc.getMe, {}, other.accessToken))).toBe('SESSION_EXPIRED');
      expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: other.refreshToken }))).toBe('SESSION_EXPIRED');
    }
    expect((await call(IdentityRpc.getMe, {}, here.accessToken)).email).toBe(email);
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: here.refreshToken }))).toBe('OK');
    expect(await codeOf(signIn(email))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(signIn(email, 'better-secret'))).toBe('OK');

    const [hash] = await identity.core.orm.em.fork().execute<{ password_hash: string }[]>('select password_hash from credentials where user_id = ?', [here.profile.id]);
    expect(hash!.password_hash).toMatch(/^\$argon2id\$/);
    const changed = (await eventsOf(here.profile.id)).filter((e) => e.type === 'PasswordChanged');
    expect(changed).toHaveLength(1);
    expect(JSON.stringify(changed[0]!.data)).not.toContain('better-secret');
    // Published on JetStream through the outbox (the relay runs in the service).
    const { connectNats } = await import('@lv/platform/messaging');
    const nc = await connectNats(NATS_URL, 'settings-check');
    try {
      const jsm = await jetstreamManager(nc);
      await waitFor(async () => {
        const message = await jsm.streams.getMessage(scopedStreamName('identity'), { last_by_subj: scopedSubject(IdentityEvents.PasswordChanged) }).catch(() => null);
        return message ? JSON.stringify(message.json()).includes(here.profile.id) : false;
      }, 10_000, 'identity.user.password-changed.v1 on JetStream');
    } finally {
      await nc.close();
    }
  });

  it('keeps the notification switches, the spec defaults first', async () => {
    const session = await signUp(newEmail());
    expect(await call(IdentityRpc.notificationPreferences, {}, session.accessToken)).toEqual({
      emailNotifications: true, accessRequests: true, systemUpdates: false, marketingEmails: false, updated_at: null,
    });
    const saved = await call(IdentityRpc.saveNotificationPreferences, { emailNotifications: false, accessRequests: true, systemUpdates: true, marketingEmails: false }, session.accessToken);
    expect(saved).toMatchObject({ emailNotifications: false, systemUpdates: true });
    expect(saved.updated_at).not.toBeNull();
    expect(await call(IdentityRpc.notificationPreferences, {}, session.accessToken)).toEqual(saved);
    expect(await codeOf(call(IdentityRpc.saveNotificationPreferences, { emailNotifications: 'yes', accessRequests: true, systemUpdates: true, marketingEmails: false }, session.accessToken))).toBe('VALIDATION_FAILED');
    expect(await codeOf(call(IdentityRpc.saveNotificationPreferences, { emailNotifications: true, accessRequests: true, systemUpdates: true, marketingEmails: false, userId: 'x' }, session.accessToken))).toBe('VALIDATION_FAILED');
    // Another account still has the defaults: each sees only his own.
    const other = await signUp(newEmail());
    expect((await call(IdentityRpc.notificationPreferences, {}, other.accessToken)).updated_at).toBeNull();
    // The read model is rebuilt from the events alone.
    await call(IdentityRpc.rebuildProjections, {}, signOperatorToken(signer, 'test-operator'));
    expect(await call(IdentityRpc.notificationPreferences, {}, session.accessToken)).toEqual(saved);
  });

  it('gives notifications the owner’s address for access-request e-mails while his Email Notifications and Access Requests switches are on (the default), none while either is off or for no account', async () => {
    const email = newEmail();
    const session = await signUp(email);
    await call(IdentityRpc.updateMe, { full_name: ' Sam Taylor ' }, session.accessToken);
    const mailTo = () => call(IdentityRpc.accessRequestMailTo, { user_id: session.profile.id });
    expect(await mailTo()).toEqual({ email, full_name: 'Sam Taylor' });
    await call(IdentityRpc.saveNotificationPreferences, { emailNotifications: true, accessRequests: false, systemUpdates: false, marketingEmails: false }, session.accessToken);
    expect(await mailTo()).toEqual({ email: null, full_name: 'Sam Taylor' });
    await call(IdentityRpc.saveNotificationPreferences, { emailNotifications: false, accessRequests: true, systemUpdates: false, marketingEmails: false }, session.accessToken);
    expect(await mailTo()).toEqual({ email: null, full_name: 'Sam Taylor' });
    await call(IdentityRpc.saveNotificationPreferences, { emailNotifications: true, accessRequests: true, systemUpdates: false, marketingEmails: false }, session.accessToken);
    expect(await mailTo()).toEqual({ email, full_name: 'Sam Taylor' });
    expect(await call(IdentityRpc.accessRequestMailTo, { user_id: randomUUID() })).toEqual({ email: null, full_name: null });
    expect(await codeOf(call(IdentityRpc.accessRequestMailTo, { user_id: 'not-an-id' }))).toBe('VALIDATION_FAILED');
  });

  it('answers the admin overview only to an admin that identity itself still knows as one', async () => {
    const operator = signOperatorToken(signer, 'test-operator');
    const adminEmail = newEmail('boss');
    await signUp(adminEmail);
    await call(IdentityRpc.setAdmin, { email: adminEmail, admin: true }, operator);
    const admin = await signIn(adminEmail);
    expect(admin.profile.ai_admin).toBe(true);
    const john = await signUp(newEmail('john.smith'));
    await call(IdentityRpc.updateMe, { full_name: 'John SMITH' }, john.accessToken);
    const pro = newEmail('pro');
    await signUp(pro);
    await call(IdentityRpc.setTier, { email: pro, tier: 'pro' }, operator);

    const everyone = await call(IdentityRpc.adminOverview, {}, admin.accessToken);
    const [total] = await identity.core.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from user_profiles`);
    expect(everyone.counts.total).toBe(total!.n);
    expect(everyone.counts.pro).toBe(1);
    expect(everyone.counts.admins).toBe(1);
    expect(everyone.counts.free).toBe(total!.n - 1);
    expect(everyone.users[0]!.email).toBe(pro);
    expect(everyone.signupsByDay.reduce((sum, d) => sum + d.count, 0)).toBe(total!.n);

    // Case-insensitive, on the e-mail or the full name; % and _ are themselves.
    expect((await call(IdentityRpc.adminOverview, { q: 'JOHN.SMITH' }, admin.accessToken)).users.map((u) => u.id)).toEqual([john.profile.id]);
    expect((await call(IdentityRpc.adminOverview, { q: 'john smith' }, admin.accessToken)).users.map((u) => u.id)).toEqual([john.profile.id]);
    expect((await call(IdentityRpc.adminOverview, { q: '%' }, admin.accessToken)).users).toEqual([]);
    expect((await call(IdentityRpc.adminOverview, { q: 'zzz-nobody' }, admin.accessToken)).counts.total).toBe(total!.n);

    // Denied: a member, an anonymous caller, a viewer-less operator, and a token whose admin claim identity no longer backs.
    expect(await codeOf(call(IdentityRpc.adminOverview, {}, john.accessToken))).toBe('FORBIDDEN');
    expect(await codeOf(call(IdentityRpc.adminOverview, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(IdentityRpc.adminOverview, {}, operator))).toBe('FORBIDDEN');
    const forged = signer.sign({ sub: john.profile.id, sid: john.sessionId, email: 'x@example.com', tier: 'none', admin: true, kind: 'user' }, 300).token;
    expect(await codeOf(call(IdentityRpc.adminOverview, {}, forged))).toBe('FORBIDDEN');
    await call(IdentityRpc.setAdmin, { email: adminEmail, admin: false }, operator);
    expect(await codeOf(call(IdentityRpc.adminOverview, {}, admin.accessToken))).toBe('FORBIDDEN');
  });
});
