import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AccountDeletionMessages, IdentityEvents, IdentityRpc, Queues, SUDO_WINDOW_SECONDS, type AccountDeletionStatus, type IssuedSession } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import { createQueue, createRedisConnection } from '@lv/platform/queues';
import { generateTestKeys, waitFor } from '@lv/testing';
import { accountEmailJobs, asSession, callerFrom, type IdentityHarness, startIdentity } from './test-support/harness.js';
import { accountErasureJobId } from '../src/account-deletion/account-deletion.js';

// Deleting an account (issue 32) against identity over NATS on real PostgreSQL, Redis and JetStream:
// asked for in sudo mode with the word typed, kept from Settings or by the e-mailed link (used, lapsed,
// altered and foreign links refused alike), and erased by its timer once due: AccountErased published
// once, every session ended, the address in no identity table nor a dump, the timer re-derived after
// Redis lost it, and the erasure replayed from the journal after a restore brought the account back.

const keys = generateTestKeys();
const PASSWORD = 'farewell-lantern-hill';

describe('identity account deletion', () => {
  let harness: IdentityHarness;
  let emails: ReturnType<typeof accountEmailJobs>;
  let caller: ReturnType<typeof callerFrom>;
  const call: ReturnType<typeof callerFrom>['call'] = (...args) => caller.call(...args);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(query: string, params: unknown[] = []) => harness.identity.core.orm.em.fork().execute<T[]>(query, params);
  const operator = () => signOperatorToken(new AccessTokenSigner(keys.privateKey), 'test-operator');
  let n = 0;
  const newEmail = () => `leaving.${Date.now()}.${n++}@example.com`;
  const signUp = async (email = newEmail()) => ({ email, session: asSession(await call(IdentityRpc.signUp, { email, password: PASSWORD })) });
  const request = (session: IssuedSession, confirmation = 'DELETE') => call(IdentityRpc.requestAccountDeletion, { confirmation }, session.accessToken) as Promise<AccountDeletionStatus>;

  /** The "keep my account" link's token of the latest deletion e-mail to that address, opened as notifications would. */
  async function keepToken(to: string): Promise<string> {
    const job = (await emails.jobsFor(to, 'account-deletion-scheduled')).at(-1);
    expect(job).toBeDefined();
    const path = emails.linkOf(job!);
    expect(path.startsWith('/keep-account#')).toBe(true);
    const token = new URLSearchParams(path.split('#')[1]).get('token')!;
    expect(JSON.stringify(job)).not.toContain(token);
    return token;
  }

  /** The deletion's time moved back to now, in the stream and in account_deletions (as if the grace period had passed). */
  async function makeDue(userId: string) {
    const at = new Date(Date.now() - 1000).toISOString();
    await sql(`update events set data = jsonb_set(data, '{dueAt}', to_jsonb(?::text)) where stream_id = ? and type = 'AccountDeletionRequested'`, [at, `user-${userId}`]);
    await sql('update account_deletions set due_at = ? where user_id = ?', [at, userId]);
  }

  /** How many AccountErased JetStream holds (the specs here erase one account at a time). */
  async function publishedErasures(): Promise<number> {
    const jsm = await jetstreamManager(harness.identity.core.nats);
    const subject = scopedSubject(IdentityEvents.AccountErased);
    const info = await jsm.streams.info(scopedStreamName('identity'), { subjects_filter: subject });
    return info.state.subjects?.[subject] ?? 0;
  }

  /** How many of identity's published naming events (registered, address changed, profile) in JetStream contain `word`. */
  async function publishedNaming(word: string): Promise<number> {
    let containing = 0;
    for (const declaration of [IdentityEvents.UserRegistered, IdentityEvents.EmailChanged, IdentityEvents.ProfileUpdated]) {
      const consumer = await jetstream(harness.identity.core.nats).consumers.get(scopedStreamName('identity'), { filter_subjects: scopedSubject(declaration.subject), deliver_policy: DeliverPolicy.All });
      if ((await consumer.info()).num_pending === 0) continue;
      const messages = await consumer.consume();
      for await (const message of messages) {
        if (message.string().includes(word)) containing++;
        if (message.info.pending === 0) break;
      }
      messages.stop();
    }
    return containing;
  }

  beforeAll(async () => {
    // The timers are re-derived every second here, so a flushed Redis is noticed at once.
    harness = await startIdentity('identitydelete', keys, { ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS: '1' });
    emails = accountEmailJobs(harness.identity, 'identity-account-deletion-spec');
    caller = callerFrom(harness.rpc, 207);
  });

  afterAll(async () => {
    await emails?.close();
    await harness?.close();
  });

  it('asks for the password again (sudo mode) and for the word typed; nothing is scheduled until both are given', async () => {
    const { session } = await signUp();
    await sql(`update sessions set proved_at = now() - make_interval(secs => ?) where id = ?`, [SUDO_WINDOW_SECONDS + 60, session.sessionId]);
    const stale = asSession(await call(IdentityRpc.refresh, { refreshToken: session.refreshToken }));
    expect(await codeOf(request(stale))).toBe('SUDO_REQUIRED');
    const proved = (await call(IdentityRpc.confirmIdentity, { currentPassword: PASSWORD }, stale.accessToken)) as { accessToken: string };
    const fresh = { ...stale, accessToken: proved.accessToken };
    for (const wrong of ['', 'delete it', 'DELETED', session.profile.email]) {
      await expect(request(fresh, wrong)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { confirmation: AccountDeletionMessages.confirmationWrong } } });
    }
    expect(await codeOf(call(IdentityRpc.requestAccountDeletion, { confirmation: 'DELETE' }))).toBe('UNAUTHENTICATED');
    expect(await call(IdentityRpc.accountDeletionStatus, {}, fresh.accessToken)).toEqual({ scheduled: false, dueAt: null, message: '' });
    expect(await sql('select 1 from account_deletions where user_id = ?', [session.profile.id])).toHaveLength(0);
  });

  it('schedules the deletion 7 days ahead: the owner is e-mailed the date and a one-time keep link, the timer waits in Redis, and signing in shows it', async () => {
    const { email, session } = await signUp();
    const before = Date.now();
    const reply = await request(session, ' delete ');
    expect(reply.scheduled).toBe(true);
    const due = Date.parse(reply.dueAt!);
    expect(due - before).toBeGreaterThanOrEqual(7 * 24 * 3600 * 1000 - 1000);
    expect(due - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);
    expect(reply.message).toContain('Your account will be deleted on');
    expect(await codeOf(request(session))).toBe('CONFLICT');

    const [job] = await emails.jobsFor(email, 'account-deletion-scheduled');
    expect(job!.expiresAt).toBe(reply.dueAt);
    await keepToken(email);
    const [row] = await sql<{ deletion_id: string; token_hash: string }>('select deletion_id, token_hash from account_deletions where user_id = ?', [session.profile.id]);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const redis = createRedisConnection(harness.identity.config.REDIS_URL, { role: 'producer' });
    const timers = createQueue(Queues.AccountErasure, redis);
    try {
      const timer = await timers.getJob(accountErasureJobId(row!.deletion_id));
      expect(await timer?.getState()).toBe('delayed');
      expect(timer!.data).toMatchObject({ userId: session.profile.id, deletionId: row!.deletion_id, dueAt: reply.dueAt });
    } finally {
      await timers.close();
      redis.disconnect();
    }
    // Signing in during the grace period works, and the account says when it goes.
    const again = asSession(await call(IdentityRpc.signIn, { email, password: PASSWORD }));
    expect(await call(IdentityRpc.accountDeletionStatus, {}, again.accessToken)).toEqual({ scheduled: true, dueAt: reply.dueAt, message: '' });
    // Kept from Settings (no sudo needed to keep): the link of that deletion no longer works.
    const token = await keepToken(email);
    expect(await call(IdentityRpc.cancelAccountDeletion, {}, again.accessToken)).toEqual({ scheduled: false, dueAt: null, message: AccountDeletionMessages.kept });
    expect(await codeOf(call(IdentityRpc.cancelAccountDeletion, {}, again.accessToken))).toBe('CONFLICT');
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token }))).toBe('ACCOUNT_DELETION_LINK_INVALID');
    expect(await call(IdentityRpc.accountDeletionStatus, {}, again.accessToken)).toMatchObject({ scheduled: false });
  });

  it('keeps the account by its e-mailed link once; a used, lapsed, altered or foreign link is refused alike', async () => {
    const owner = await signUp();
    await request(owner.session);
    const token = await keepToken(owner.email);
    const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token: altered }))).toBe('ACCOUNT_DELETION_LINK_INVALID');
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token: 'not-a-token' }))).toBe('ACCOUNT_DELETION_LINK_INVALID');
    expect(await call(IdentityRpc.keepAccountByLink, { token })).toEqual({ scheduled: false, dueAt: null, message: AccountDeletionMessages.kept });
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token }))).toBe('ACCOUNT_DELETION_LINK_INVALID');

    // Another account's deletion: its token names that deletion, never this one; the token of an older request of the same account is refused too.
    const other = await signUp();
    await request(other.session);
    const otherToken = await keepToken(other.email);
    await request(owner.session);
    const newer = await keepToken(owner.email);
    const [otherId, ownId] = [otherToken.split('.')[0]!, newer.split('.')[0]!];
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token: `${ownId}.${otherToken.split('.')[1]!}` }))).toBe('ACCOUNT_DELETION_LINK_INVALID');
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token: `${otherId}.${newer.split('.')[1]!}` }))).toBe('ACCOUNT_DELETION_LINK_INVALID');
    expect(await call(IdentityRpc.accountDeletionStatus, {}, owner.session.accessToken)).toMatchObject({ scheduled: true });
    expect(await call(IdentityRpc.accountDeletionStatus, {}, other.session.accessToken)).toMatchObject({ scheduled: true });

    // Lapsed: once the deletion is due, the link no longer keeps the account.
    await makeDue(other.session.profile.id);
    expect(await codeOf(call(IdentityRpc.keepAccountByLink, { token: otherToken }))).toBe('ACCOUNT_DELETION_LINK_INVALID');
    expect(await call(IdentityRpc.eraseDueAccounts, {}, operator())).toEqual({ erased: 1 });
    await call(IdentityRpc.cancelAccountDeletion, {}, owner.session.accessToken);
  });

  it('erases the account at its due time, through a timer re-derived after Redis lost it: published once, every session ended, the address in no table nor dump, free again', async () => {
    const { email, session } = await signUp();
    const userId = session.profile.id;
    const bystander = await signUp();
    // Every erasure before this one has reached JetStream (the outbox is empty): the count moves by this one only.
    await waitFor(async () => (await sql('select 1 from outbox')).length === 0, 15_000, 'the outbox relayed');
    const publishedBefore = await publishedErasures();
    await call(IdentityRpc.updateMe, { full_name: 'Quillon Farewellby' }, session.accessToken);
    const laptop = asSession(await call(IdentityRpc.signIn, { email, password: PASSWORD }));
    await request(session);
    // Published before the erasure: his address (registered) and his name (profile) are in identity's stream.
    await waitFor(async () => (await sql('select 1 from outbox')).length === 0, 15_000, 'the outbox relayed');
    expect(await publishedNaming(email)).toBeGreaterThanOrEqual(1);
    expect(await publishedNaming('Farewellby')).toBe(1);

    // Redis loses the timer (a flush, a failover); the grace period ends meanwhile.
    const redis = createRedisConnection(harness.identity.config.REDIS_URL, { role: 'producer' });
    const timers = createQueue(Queues.AccountErasure, redis);
    try {
      await timers.obliterate({ force: true });
      await makeDue(userId);
      // The re-derivation (every second here) adds the job again, and the worker erases the account.
      await waitFor(async () => (await sql('select 1 from user_profiles where id = ?', [userId])).length === 0, 20_000, 'the account erased');
    } finally {
      await timers.close();
      redis.disconnect();
    }

    const events = await sql<{ type: string; data: Record<string, unknown> }>('select type, data from events where stream_id = ? order by version', [`user-${userId}`]);
    expect(events.filter((e) => e.type === 'AccountErased')).toEqual([{ type: 'AccountErased', data: { userId, erasedAt: expect.any(String) } }]);
    // Neither a second run of the operators' check nor a replayed job erases twice.
    expect(await call(IdentityRpc.eraseDueAccounts, {}, operator())).toEqual({ erased: 0 });
    await waitFor(async () => (await sql('select 1 from outbox')).length === 0, 15_000, 'the outbox relayed');
    expect(await publishedErasures()).toBe(publishedBefore + 1);

    // Every session has ended: access tokens refused, refresh refused, and the password opens nothing.
    for (const token of [session.accessToken, laptop.accessToken]) expect(await codeOf(call(IdentityRpc.getMe, {}, token))).toMatch(/SESSION_EXPIRED|NOT_FOUND/);
    // The refresh token is gone with its session: it is no token any more.
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: laptop.refreshToken }))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(IdentityRpc.signIn, { email, password: PASSWORD }))).toBe('INVALID_CREDENTIALS');

    // Not in any of identity's tables, nor in a dump of its database: the address, the name.
    const tables = (await sql<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map((t) => t.table_name);
    expect(tables).toEqual(expect.arrayContaining(['events', 'outbox', 'credentials', 'user_profiles', 'sessions', 'account_deletions', 'erasure_journal']));
    for (const word of [email, 'Farewellby']) {
      for (const table of tables) {
        const [row] = await sql<{ n: number }>(`select count(*)::int as n from "${table}" t where t::text ilike ?`, [`%${word}%`]);
        expect({ table, word, rows: row!.n }).toEqual({ table, word, rows: 0 });
      }
    }
    const dump = (await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', harness.db.url], { maxBuffer: 256 * 1024 * 1024 })).stdout;
    expect(dump).not.toContain(email);
    expect(dump).not.toContain('Farewellby');
    // Nor in identity's JetStream stream: the events published long ago that named him are deleted after the erasure commits.
    await waitFor(async () => (await publishedNaming(email)) === 0 && (await publishedNaming('Farewellby')) === 0, 15_000, 'his published events deleted');
    expect(await publishedNaming(bystander.email)).toBe(1);
    // The history keeps what happened, naming no one.
    expect(events.map((e) => e.type)).toEqual(['UserRegistered', 'EmailVerificationRequested', 'ProfileUpdated', 'AccountDeletionRequested', 'AccountErased']);
    expect(events[0]!.data).toMatchObject({ userId, email: '' });
    expect(await sql('select stream_type, stream_id from erasure_journal where stream_id = ?', [`user-${userId}`])).toEqual([{ stream_type: 'user', stream_id: `user-${userId}` }]);

    // The address is free for a new account.
    const again = await signUp(email);
    expect(again.session.profile.id).not.toBe(userId);
  });

  it('erases the account again when a restore of an older snapshot brings it back (the erasure journal)', async () => {
    const { email, session } = await signUp();
    const userId = session.profile.id;
    await request(session);
    await makeDue(userId);
    expect(await call(IdentityRpc.eraseDueAccounts, {}, operator())).toEqual({ erased: 1 });
    await waitFor(async () => (await sql('select 1 from erasure_journal where stream_id = ? and journaled_at is not null', [`user-${userId}`])).length === 1, 15_000, 'the erasure journaled');

    // What a snapshot taken before the erasure holds: the account alive, its address, its stream without AccountErased.
    await sql(`delete from events where stream_id = ? and type = 'AccountErased'`, [`user-${userId}`]);
    await sql(`update events set data = jsonb_set(data, '{email}', to_jsonb(?::text)) where stream_id = ? and type = 'UserRegistered'`, [email, `user-${userId}`]);
    await sql('insert into user_profiles (id, email, created_at) values (?, ?, now())', [userId, email]);
    await sql(`insert into credentials (user_id, email, password_hash) values (?, ?, 'restored-hash')`, [userId, email]);
    await sql('delete from erasure_journal where stream_id = ?', [`user-${userId}`]);

    const report = await call(IdentityRpc.replayErasures, {}, operator());
    expect(report).toMatchObject({ erasedAgain: 1 });
    expect(await sql('select 1 from user_profiles where id = ?', [userId])).toHaveLength(0);
    expect(await sql('select 1 from credentials where user_id = ?', [userId])).toHaveLength(0);
    const [registered] = await sql<{ data: { email: string } }>(`select data from events where stream_id = ? and type = 'UserRegistered'`, [`user-${userId}`]);
    expect(registered!.data.email).toBe('');
    // Replayed again: nothing left to erase.
    expect(await call(IdentityRpc.replayErasures, {}, operator())).toMatchObject({ erasedAgain: 0 });
  });

  it('lets only the caller act on his own deletion, and only an operator erase due accounts', async () => {
    const { session } = await signUp();
    expect(await codeOf(call(IdentityRpc.eraseDueAccounts, {}, session.accessToken))).toBe('FORBIDDEN');
    expect(await codeOf(call(IdentityRpc.eraseDueAccounts, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(IdentityRpc.cancelAccountDeletion, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(IdentityRpc.accountDeletionStatus, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(IdentityRpc.requestAccountDeletion, { confirmation: 'DELETE', userId: '00000000-0000-4000-8000-000000000000' }, session.accessToken))).toBe('VALIDATION_FAILED');
  });

  it('journals no user word: the erasure journal holds ids and times only', async () => {
    const rows = await sql<Record<string, unknown>>('select * from erasure_journal');
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['erased_at', 'erasure_id', 'journaled_at', 'key_id', 'stream_id', 'stream_type']);
  });
});
