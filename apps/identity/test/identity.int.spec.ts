import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AuthMessages, BillingEvents, IdentityEvents, IdentityRpc, type EventDataInput, type IssuedSession, type PublishedEvent, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner, AccessTokenVerifier, signOperatorToken } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { connectNats, scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import { generateTestKeys, waitFor, type TestDatabase } from '@lv/testing';
import { asSession, NATS_URL, startIdentity, type IdentityHarness } from './test-support/harness.js';
import { identityConfigSchema, type IdentityConfig } from '../src/config.js';

const keys = generateTestKeys();
// Each call from its own address unless a test names one, so sign-ups never share an address's budget by accident.
let addressSeq = 0;
const freshAddress = () => `10.200.${Math.floor(addressSeq / 250) % 250}.${(addressSeq++ % 250) + 1}`;
const meta = (ip = freshAddress(), device?: string) => ({ requestId: 'test', ip, ...(device ? { device } : {}) });

describe('identity service over NATS', () => {
  let db: TestDatabase;
  let identity: RunningService<IdentityConfig>;
  let rpc: RpcClient;
  const operatorToken = () => signOperatorToken(new AccessTokenSigner(keys.privateKey), 'test-operator');

  // Unchecked payloads: these specs also send what the types would refuse, to see the service refuse it.
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string, ip?: string, device?: string) =>
    rpc.callUnchecked(declaration, payload, { accessToken, meta: meta(ip, device) });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  let n = 0;
  const newEmail = () => `parent.${Date.now()}.${n++}@example.com`;

  let harness: IdentityHarness;
  beforeAll(async () => {
    // The sign-in and sign-up limits are the defaults (5 per account+address, 20 per address, 25 per
    // account, 10 per known device; 10 sign-ups an hour per address), in a shorter window.
    harness = await startIdentity('identity', keys, { SIGNIN_WINDOW_SECONDS: '60', REFRESH_REUSE_GRACE_MS: '0' });
    ({ db, identity, rpc } = harness);
  });

  afterAll(async () => {
    await harness?.close();
    // billing's stream of this stack, made by the tier specs below.
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('billing')).catch(() => undefined);
    await nc.close();
  });

  it('signs up a new user with a default profile and a normalised email', async () => {
    const email = newEmail();
    const session = await call(IdentityRpc.signUp, { email: `  ${email.toUpperCase()} `, password: 'secret-one' });
    expect(session.profile).toMatchObject({ email, full_name: null, avatar_url: null, subscription_tier: 'none', ai_admin: false });
    expect(session.accessToken.split('.')).toHaveLength(3);
    expect(session.refreshToken).toMatch(/^[0-9a-f-]{36}\./);
    expect(session.accessTokenExpiresAt).toBeGreaterThan(Date.now());
  });

  it('gives the spec’s messages for bad input', async () => {
    await expect(call(IdentityRpc.signUp, { email: '', password: '' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED', details: { fields: { email: 'Email is required', password: 'Password is required' } },
    });
    await expect(call(IdentityRpc.signUp, { email: 'not-an-email', password: '12345' })).rejects.toMatchObject({
      details: { fields: { email: 'Please enter a valid email', password: 'Password must be at least 8 characters' } },
    });
  });

  it('refuses a duplicate email, whatever its case, and lets exactly one of racing sign-ups win', async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    expect(await codeOf(call(IdentityRpc.signUp, { email: email.toUpperCase(), password: 'other-one-2' }))).toBe('EMAIL_TAKEN');
    const racer = newEmail();
    const results = await Promise.all(Array.from({ length: 6 }, () => codeOf(call(IdentityRpc.signUp, { email: racer, password: 'secret-one' }))));
    expect(results.filter((r) => r === 'OK')).toHaveLength(1);
    expect(results.filter((r) => r === 'EMAIL_TAKEN')).toHaveLength(5);
  });

  it('signs in with the right password only, with one message for a wrong email or password', async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    const session = asSession(await call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.1.0.1'));
    expect(session.profile.email).toBe(email);
    await expect(call(IdentityRpc.signIn, { email, password: 'wrong-1' }, undefined, '10.1.0.2')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials' });
    await expect(call(IdentityRpc.signIn, { email: newEmail(), password: 'secret-one' }, undefined, '10.1.0.3')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials' });
  });

  it('rate-limits failed sign-ins per account and address, even for the right password, and per address', async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    for (let i = 0; i < 5; i++) expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'wrong-1' }, undefined, '10.2.0.1'))).toBe('INVALID_CREDENTIALS');
    const limited = await call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.2.0.1').catch((e: DomainError) => e);
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', message: AuthMessages.tooManySignIns });
    expect((limited as DomainError).details.retryAfter).toBeGreaterThan(0);
    expect((limited as DomainError).details.retryAfter).toBeLessThanOrEqual(60);
    // The same account from another address is not locked out by those failures.
    expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.2.0.2'))).toBe('OK');
    // Per address: one client trying many accounts.
    const ip = '10.3.0.1';
    for (let i = 0; i < 20; i++) expect(await codeOf(call(IdentityRpc.signIn, { email: newEmail(), password: 'wrong-1' }, undefined, ip))).toBe('INVALID_CREDENTIALS');
    const other = newEmail();
    await call(IdentityRpc.signUp, { email: other, password: 'secret-one' });
    expect(await codeOf(call(IdentityRpc.signIn, { email: other, password: 'secret-one' }, undefined, ip))).toBe('RATE_LIMITED');
    expect(await codeOf(call(IdentityRpc.signIn, { email: other, password: 'secret-one' }, undefined, '10.3.0.2'))).toBe('OK');
  });

  it('counts before verifying, atomically: 40 parallel wrong attempts get exactly 5 answers of 401', async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    const results = await Promise.all(Array.from({ length: 40 }, () => codeOf(call(IdentityRpc.signIn, { email, password: 'wrong-1' }, undefined, '10.4.0.1'))));
    expect(results.filter((r) => r === 'INVALID_CREDENTIALS')).toHaveLength(5);
    expect(results.filter((r) => r === 'RATE_LIMITED')).toHaveLength(35);
  });

  it('gives a success back: the owner mistyping now and then is never limited', async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'wrong-1' }, undefined, '10.5.0.1'))).toBe('INVALID_CREDENTIALS');
      expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.5.0.1'))).toBe('OK');
    }
  });

  it('lets the owner in at once on a device that signed in before, while an attacker fails 50 times', async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    const ownerDevice = 'owner-device-0123456789';
    // The attacker spreads 50 guesses over ten addresses: five each, the most one address gets.
    const guesses = await Promise.all(Array.from({ length: 50 }, (_, i) => codeOf(call(IdentityRpc.signIn, { email, password: `guess-${i}` }, undefined, `10.66.0.${i % 10}`))));
    // The account's ceiling (25) stopped the rest.
    expect(guesses.filter((r) => r === 'INVALID_CREDENTIALS')).toHaveLength(25);
    expect(guesses.filter((r) => r === 'RATE_LIMITED')).toHaveLength(25);
    // Unknown browsers are held back now, wherever they are...
    expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.67.0.1'))).toBe('RATE_LIMITED');
    // ...but the owner's known device signs in at once, even from an address the attacker used.
    const session = asSession(await call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.66.0.1', ownerDevice));
    expect(session.profile.email).toBe(email);
  });

  it("gives a known device a budget of its own (10), which does not touch another device's", async () => {
    const email = newEmail();
    await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    const stolen = 'stolen-laptop-0123456789';
    for (let i = 0; i < 10; i++) expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'wrong-1' }, undefined, freshAddress(), stolen))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, freshAddress(), stolen))).toBe('RATE_LIMITED');
    expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, freshAddress(), 'owner-phone-0123456789'))).toBe('OK');
    // Anything that is not a device id the gateway makes counts as no device.
    expect(await codeOf(call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, freshAddress(), 'x'))).toBe('OK');
  });

  it('limits sign-ups to 10 an hour per address, with a message about sign-ups', async () => {
    const ip = '10.7.0.1';
    for (let i = 0; i < 10; i++) expect(await codeOf(call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' }, undefined, ip))).toBe('OK');
    const limited = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' }, undefined, ip).catch((e: DomainError) => e);
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many accounts were created from this network recently. Please try again later.' });
    expect((limited as DomainError).details.retryAfter).toBeGreaterThan(60);
    expect((limited as DomainError).details.retryAfter).toBeLessThanOrEqual(3600);
    expect(await codeOf(call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' }, undefined, '10.7.0.2'))).toBe('OK');
  });

  it('refuses a new password made only of whitespace, naming the field', async () => {
    await expect(call(IdentityRpc.signUp, { email: newEmail(), password: ' \t      ' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED', details: { fields: { password: 'Password cannot be only spaces' } },
    });
  });

  it('rotates refresh tokens, and reuse of an old one revokes the whole session', async () => {
    const first = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    const second = await call(IdentityRpc.refresh, { refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.sessionId).toBe(first.sessionId);
    const third = await call(IdentityRpc.refresh, { refreshToken: second.refreshToken });
    // An attacker replays the first token: the session dies, for the thief and the owner alike.
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: first.refreshToken }))).toBe('SESSION_EXPIRED');
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: third.refreshToken }))).toBe('SESSION_EXPIRED');
    expect(await codeOf(call(IdentityRpc.getMe, {}, third.accessToken))).toBe('SESSION_EXPIRED');
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: 'made-up' }))).toBe('UNAUTHENTICATED');
  });

  it('records a sign-in (ids and time only, through the outbox) at most once an hour per user, refreshes included', async () => {
    const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);
    const email = newEmail();
    const session = await call(IdentityRpc.signUp, { email, password: 'secret-one' });
    const userId = session.profile.id;
    const signIns = () => sql<{ data: Record<string, unknown> }>(`select data from events where stream_id = ? and type = 'UserSignedIn'`, [`user-activity-${userId}`]);
    expect(await signIns()).toEqual([{ data: { userId, sessionId: session.sessionId, signedInAt: expect.any(String) } }]);
    // A refresh and a second sign-in within the hour record nothing more; ten racing refreshes neither.
    await call(IdentityRpc.refresh, { refreshToken: session.refreshToken });
    await call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.88.0.1');
    expect(await signIns()).toHaveLength(1);
    // An hour later (the mark moved back), the next refresh records one, with its time.
    await sql(`update activity_marks set recorded_at = recorded_at - interval '61 minutes' where user_id = ?`, [userId]);
    const again = asSession(await call(IdentityRpc.signIn, { email, password: 'secret-one' }, undefined, '10.88.0.2'));
    const racing = await Promise.all(Array.from({ length: 10 }, () => call(IdentityRpc.refresh, { refreshToken: again.refreshToken }).catch(() => null)));
    expect(racing.some(Boolean)).toBe(true);
    expect(await signIns()).toHaveLength(2);
    // It leaves through the outbox onto JetStream with the same facts: no address, no agent, no e-mail.
    const jsm = await jetstreamManager(identity.core.nats);
    let published = '';
    await waitFor(async () => {
      const last = await jsm.streams.getMessage(scopedStreamName('identity'), { last_by_subj: scopedSubject(IdentityEvents.UserSignedIn) }).catch(() => null);
      published = last ? last.string() : '';
      return published.includes(userId);
    }, 15_000, 'UserSignedIn on JetStream');
    expect(published).not.toMatch(/10\.88|@example\.com|SpecAgent/);
  });

  it('serves two tabs refreshing with the same token at once (inside the grace window)', async () => {
    const { SessionStore } = await import('../src/sessions/session-store.js');
    const store = new SessionStore(3600, 10_000);
    const em = identity.core.orm.em.fork();
    const user = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    const { refreshToken } = await em.transactional((tem) => store.open(tem, user.profile.id, {}));
    const [a, b] = await Promise.all([
      identity.core.orm.em.fork().transactional((tem) => store.rotate(tem, refreshToken)),
      identity.core.orm.em.fork().transactional((tem) => store.rotate(tem, refreshToken)),
    ]);
    expect(a.kind).toBe('rotated');
    expect(b.kind).toBe('rotated');
    if (a.kind !== 'rotated' || b.kind !== 'rotated') return;
    expect(a.refreshToken).not.toBe(b.refreshToken);
    // Both tabs' new tokens work.
    expect((await em.fork().transactional((tem) => store.rotate(tem, a.refreshToken))).kind).toBe('rotated');
    expect((await em.fork().transactional((tem) => store.rotate(tem, b.refreshToken))).kind).toBe('rotated');
  });

  describe('a replayed refresh token with the default grace window (REFRESH_REUSE_GRACE_MS unset: 10 s)', () => {
    const defaults = () => identityConfigSchema.parse({ DATABASE_URL: db.url, NATS_URL, JWT_PUBLIC_KEY: keys.publicKey, JWT_PRIVATE_KEY: keys.privateKey, KEY_MAIL_SECRET: 'identity-spec-key-mail-secret-of-32-characters' });
    const rotate = async (store: InstanceType<typeof import('../src/sessions/session-store.js').SessionStore>, token: string) =>
      identity.core.orm.em.fork().transactional((tem) => store.rotate(tem, token));
    async function openSession() {
      const { SessionStore } = await import('../src/sessions/session-store.js');
      const config = defaults();
      expect(config.REFRESH_REUSE_GRACE_MS).toBe(10_000);
      const store = new SessionStore(3600, config.REFRESH_REUSE_GRACE_MS);
      const user = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
      const { refreshToken, session } = await identity.core.orm.em.fork().transactional((tem) => store.open(tem, user.profile.id, {}));
      return { store, refreshToken, sessionId: session.id };
    }
    const revokedReason = async (sessionId: string) =>
      (await identity.core.orm.em.fork().execute<{ revoked_reason: string | null }[]>('select revoked_reason from sessions where id = ?', [sessionId]))[0]!.revoked_reason;

    it('inside the window: one sibling token per rotation, and a second replay of that token revokes the session', async () => {
      const { store, refreshToken, sessionId } = await openSession();
      const first = await rotate(store, refreshToken);
      const sibling = await rotate(store, refreshToken);
      expect(first.kind).toBe('rotated');
      expect(sibling.kind).toBe('rotated');
      if (first.kind !== 'rotated' || sibling.kind !== 'rotated') return;
      expect(sibling.refreshToken).not.toBe(first.refreshToken);
      expect(await revokedReason(sessionId)).toBeNull();
      // A third presentation of the same token, still well inside 10 s: no second sibling.
      expect(await rotate(store, refreshToken)).toEqual({ kind: 'reused', sessionId });
      expect(await revokedReason(sessionId)).toBe('refresh token reused');
      await expect(rotate(store, first.refreshToken)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
      await expect(rotate(store, sibling.refreshToken)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    });

    it('just after the window: the first replay already revokes the session', async () => {
      const { store, refreshToken, sessionId } = await openSession();
      const first = await rotate(store, refreshToken);
      expect(first.kind).toBe('rotated');
      // The token was used 10.05 s ago (moved back in the database rather than waited for).
      await identity.core.orm.em.fork().execute(`update refresh_tokens set used_at = used_at - interval '10050 milliseconds' where session_id = ? and used_at is not null`, [sessionId]);
      expect(await rotate(store, refreshToken)).toEqual({ kind: 'reused', sessionId });
      expect(await revokedReason(sessionId)).toBe('refresh token reused');
      if (first.kind === 'rotated') await expect(rotate(store, first.refreshToken)).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    });
  });

  it('signs out on the server: the refresh and access tokens stop working at once', async () => {
    const session = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    expect(await call(IdentityRpc.signOut, { refreshToken: session.refreshToken })).toEqual({ revoked: true });
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: session.refreshToken }))).toBe('SESSION_EXPIRED');
    expect(await codeOf(call(IdentityRpc.getMe, {}, session.accessToken))).toBe('SESSION_EXPIRED');
  });

  it('refuses at once a session it read a moment ago, once signed out: the announcement drops its cached "not revoked" answer', async () => {
    const session = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    const verifier = identity.app.get(AccessTokenVerifier);
    // The first look-up opens the revocation subscription; once it is live, reads reuse the answers.
    await waitFor(async () => (await call(IdentityRpc.getMe, {}, session.accessToken)).id === session.profile.id && verifier.revocationsCached, 5000, 'the revocation cache');
    expect((await call(IdentityRpc.getMe, {}, session.accessToken)).id).toBe(session.profile.id);
    expect(await call(IdentityRpc.signOut, { refreshToken: session.refreshToken })).toEqual({ revoked: true });
    expect(await codeOf(call(IdentityRpc.getMe, {}, session.accessToken))).toBe('SESSION_EXPIRED');
  });

  it('scopes every read and write to the caller: a second user cannot read or change the first one’s profile', async () => {
    const alice = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    const bob = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    expect((await call(IdentityRpc.getMe, { userId: alice.profile.id }, bob.accessToken)).id).toBe(bob.profile.id);
    expect(await codeOf(call(IdentityRpc.updateMe, { id: alice.profile.id, full_name: 'Mallory' }, bob.accessToken))).toBe('VALIDATION_FAILED');
    await call(IdentityRpc.updateMe, { full_name: 'Bob' }, bob.accessToken);
    expect((await call(IdentityRpc.getMe, {}, alice.accessToken)).full_name).toBeNull();
    expect(await codeOf(call(IdentityRpc.getMe, {}))).toBe('UNAUTHENTICATED');
    const forged = new AccessTokenSigner(generateTestKeys().privateKey).sign({ sub: alice.profile.id, sid: alice.sessionId, email: '', tier: 'none', admin: true, kind: 'user' }, 60);
    expect(await codeOf(call(IdentityRpc.getMe, {}, forged.token))).toBe('UNAUTHENTICATED');
  });

  it('keeps operator commands for operator tokens, acting through events', async () => {
    const session = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    const email = session.profile.email;
    expect(await codeOf(call(IdentityRpc.setAdmin, { email, admin: true }, session.accessToken))).toBe('FORBIDDEN');
    expect(await codeOf(call(IdentityRpc.setAdmin, { email, admin: true }))).toBe('UNAUTHENTICATED');
    expect(await call(IdentityRpc.setAdmin, { email, admin: true }, operatorToken())).toMatchObject({ ai_admin: true });
    expect(await call(IdentityRpc.setTier, { email, tier: 'legacy' }, operatorToken())).toMatchObject({ subscription_tier: 'legacy' });
    expect(await codeOf(call(IdentityRpc.setTier, { email, tier: 'gold' }, operatorToken()))).toBe('VALIDATION_FAILED');
    expect(await codeOf(call(IdentityRpc.findUserByEmail, { email: 'nobody@example.com' }, operatorToken()))).toBe('NOT_FOUND');
    // An operator token is not a user session.
    expect(await codeOf(call(IdentityRpc.getMe, {}, operatorToken()))).toBe('FORBIDDEN');
    // A refreshed session carries the new claims.
    const refreshed = await call(IdentityRpc.refresh, { refreshToken: session.refreshToken });
    expect(refreshed.profile).toMatchObject({ ai_admin: true, subscription_tier: 'legacy' });
  });

  it('rebuilds user_profiles from the event store to the same state', async () => {
    // Its own users, one renamed and one made an admin, whatever ran before.
    const named = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    await call(IdentityRpc.updateMe, { full_name: 'Rebuilt Name' }, named.accessToken);
    const admin = await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' });
    await call(IdentityRpc.setAdmin, { email: admin.profile.email, admin: true }, operatorToken());
    const em = identity.core.orm.em.fork();
    const before = await em.execute<{ id: string; full_name: string | null; ai_admin: boolean }[]>('select * from user_profiles order by id');
    expect(before.find((p) => p.id === named.profile.id)?.full_name).toBe('Rebuilt Name');
    expect(before.find((p) => p.id === admin.profile.id)?.ai_admin).toBe(true);
    const reply = await call(IdentityRpc.rebuildProjections, {}, operatorToken());
    expect(reply.projections[0]).toMatchObject({ projection: 'user_profiles' });
    expect(reply.projections[0]!.events).toBeGreaterThanOrEqual(before.length);
    expect(await identity.core.orm.em.fork().execute('select * from user_profiles order by id')).toEqual(before);
  });

  it('publishes its events to JetStream through the outbox', async () => {
    const em = identity.core.orm.em.fork();
    // Every event but the private ones (a verification link's, say: the publish policy keeps them home).
    const { count } = (await em.execute<{ count: string }[]>("select count(*)::text as count from events where type not in ('EmailVerificationRequested', 'EmailVerified', 'PasswordResetRequested', 'PasswordResetUsed', 'EmailChangeRequested', 'EmailChangeConfirmed', 'EmailChangeUndone')"))[0]!;
    const jsm = await jetstreamManager(identity.core.nats);
    await waitFor(async () => (await jsm.streams.info(scopedStreamName('identity'))).state.messages === Number(count), 10_000, 'every event on JetStream');
    const { pending } = (await em.execute<{ pending: string }[]>('select count(*)::text as pending from outbox'))[0]!;
    expect(pending).toBe('0');
  });
  it("follows billing's events: the tier is the one billing's latest event leaves the owner on; a redelivery changes nothing; an operator's user:tier lasts until billing's next event", async () => {
    const js = jetstream(identity.core.nats);
    /** Any data, even what billing's declarations refuse. */
    const publishRaw = async (subject: string, data: { ownerId: string } & Record<string, unknown>, eventId: string = randomUUID()) => {
      const event: PublishedEvent = { eventId, type: subject, streamId: `subscription-${data.ownerId}`, version: 1, occurredAt: new Date().toISOString(), data, metadata: {} };
      // A message id of its own each time: JetStream's dedupe window would drop a republished one before the inbox sees it.
      await js.publish(scopedSubject(subject), JSON.stringify(event), { msgID: randomUUID() });
      return eventId;
    };
    type BillingEvent = (typeof BillingEvents)[keyof typeof BillingEvents];
    /** As billing publishes it: the data its declaration types. */
    const publish = <E extends BillingEvent>(declaration: E, data: EventDataInput<E> & { ownerId: string }, eventId?: string) => publishRaw(declaration.subject, data, eventId);
    const now = () => new Date().toISOString();
    const signUp = async () => (await call(IdentityRpc.signUp, { email: newEmail(), password: 'secret-one' })) as IssuedSession;
    const tierOf = async (session: IssuedSession) => ((await call(IdentityRpc.getMe, {}, session.accessToken)) as { subscription_tier: string }).subscription_tier;
    const parent = await signUp();
    const ownerId = parent.profile.id;

    const activation = await publish(BillingEvents.SubscriptionActivated, { ownerId, tier: 'pro', periodEnd: null, activatedAt: now() });
    await waitFor(async () => (await tierOf(parent)) === 'pro', 10_000, 'the tier billing activated');
    await publish(BillingEvents.CancelRequested, { ownerId, tier: 'pro', accessUntil: null, requestedAt: now() });
    // The consumer handles in order: once a later event for another owner is in, the cancellation was
    // too. The operator's tier must come after it (applied before, the cancellation's "pro" would follow).
    const watcher = await signUp();
    await publish(BillingEvents.SubscriptionActivated, { ownerId: watcher.profile.id, tier: 'essentials', periodEnd: null, activatedAt: now() });
    await waitFor(async () => (await tierOf(watcher)) === 'essentials', 10_000, 'the cancellation handled');
    expect(await tierOf(parent)).toBe('pro');
    await call(IdentityRpc.setTier, { email: parent.profile.email, tier: 'legacy' }, operatorToken());
    expect(await tierOf(parent)).toBe('legacy');
    await publish(BillingEvents.SubscriptionEnded, { ownerId, tier: 'none', endedAt: now() });
    await waitFor(async () => (await tierOf(parent)) === 'none', 10_000, 'the tier back to none when the subscription ended');

    // The activation redelivered (a relay that lost its ack), then another owner's event as a sentinel:
    // the consumer handles in order, so once the sentinel is in, the redelivery was seen and skipped.
    await publish(BillingEvents.SubscriptionActivated, { ownerId, tier: 'pro', periodEnd: null, activatedAt: now() }, activation);
    const other = await signUp();
    await publish(BillingEvents.SubscriptionActivated, { ownerId: other.profile.id, tier: 'essentials', periodEnd: null, activatedAt: now() });
    await waitFor(async () => (await tierOf(other)) === 'essentials', 10_000, 'the sentinel');
    expect(await tierOf(parent)).toBe('none');
    // An owner identity does not know is skipped, never retried for ever: the next event still applies.
    await publish(BillingEvents.SubscriptionActivated, { ownerId: randomUUID(), tier: 'pro', periodEnd: null, activatedAt: now() });
    await publish(BillingEvents.SubscriptionRenewed, { ownerId: other.profile.id, tier: 'legacy', periodEnd: null });
    await waitFor(async () => (await tierOf(other)) === 'legacy', 10_000, 'the event after an unknown owner’s');
    // An event its declaration refuses (a tier nobody knows) is parked at once with the reason, never
    // applied nor retried; the next event still applies.
    const refused = await publishRaw(BillingEvents.SubscriptionRenewed.subject, { ownerId: other.profile.id, tier: 'gold', periodEnd: null });
    await publish(BillingEvents.SubscriptionRenewed, { ownerId: other.profile.id, tier: 'pro', periodEnd: null });
    await waitFor(async () => (await tierOf(other)) === 'pro', 10_000, 'the event after a refused one');
    const parked = await identity.core.orm.em.fork().execute<{ error: string; payload: PublishedEvent }[]>("select error, payload from dead_letters where consumer = 'identity-billing-tiers'");
    expect(parked.map((p) => ({ eventId: p.payload.eventId, error: p.error }))).toEqual([
      { eventId: refused, error: expect.stringMatching(/^data refused by the declaration of billing\.subscription\.renewed\.v1: tier: /) },
    ]);
  });
});
