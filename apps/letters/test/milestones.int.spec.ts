import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { jest } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  AccessKeysRpc, ErrorCodes, keyEmailSealContext, LettersRpc, MilestoneMessages, Queues, type IssuedAccessKey, type KeyDraft, type Letter, type LetterPage, type MilestoneReleaseJob, type OpenedViewSession,
  type RpcDeclaration, type SendKeyEmailJob,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { createQueue, createRedisConnection, openFromJob, queuePrefix } from '@lv/platform/queues';
import { compileForChildProcess, createTestDatabase, deleteStackStreams, generateTestKeys, startMigratedService, uniqueStackId, type ChildService, type TestDatabase } from '@lv/testing';
import { lettersMigrations } from '../src/migrations.js';

// Letters for a milestone end to end over NATS: letters in-process and access-keys as a child process
// (this checkout compiled to a scratch directory: apps never import each other), a STACK_ID of their
// own, real PostgreSQL, Redis and BullMQ. The owner seals through the real RPC; the due job's
// work runs through a second letters service object on the same database with a fake clock, since a
// sealed day is at least tomorrow. Proves: never early, one release and one key e-mail of 20 racing
// jobs, nothing for a deleted or unsealed letter, and who reads what before and after.

jest.setTimeout(180_000);

const STACK_ID = uniqueStackId('milestone');
process.env.STACK_ID = STACK_ID;
const { lettersService } = await import('../src/letters.definition.js');
const { LettersService } = await import('../src/letters.service.js');
const { RpcClient, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const KEY_MAIL_SECRET = 'milestone-spec-key-mail-secret-'.padEnd(48, 'x');
const signer = new AccessTokenSigner(keys.privateKey);
const DAY = 24 * 3600 * 1000;

interface Owner { id: string; email: string; token: string }
const newOwner = (emailVerified = true): Owner => {
  const id = randomUUID();
  const email = `${id}@example.com`;
  return { id, email, token: signer.sign({ sub: id, sid: randomUUID(), email, tier: 'none', admin: false, emailVerified, kind: 'user' }, 900).token };
};
let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 256) % 256}.${ipCounter % 256}`;
const dayAfter = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

describe('letters for a milestone', () => {
  let lettersDb: TestDatabase;
  let accessDb: TestDatabase;
  let letters: Awaited<ReturnType<typeof startService>>;
  let access: ChildService | undefined;
  let scratch: string;
  let consent: { version: string; text_hash: string };
  let rpc: InstanceType<typeof RpcClient>;
  let redis: Redis;
  let keyEmails: Queue<SendKeyEmailJob>;
  let milestoneQueue: Queue<MilestoneReleaseJob>;
  let producer: Redis;
  /** The fake clock of the due job's service object. */
  let clock = Date.now();
  let dueService: InstanceType<typeof LettersService>;
  const owner = newOwner();
  const otherOwner = newOwner();

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'milestone-spec', ip: freshIp(), userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  /** Generate Access Key, then Save: a whole-vault key for Gran. */
  const keyFor = async (who: Owner) => {
    const drafted = (await call(AccessKeysRpc.draftKey, {}, who.token)) as KeyDraft;
    return (await call(AccessKeysRpc.createKey, { ...drafted, name: 'Gran', email: 'gran@example.com', expires_in_days: 7 }, who.token)) as IssuedAccessKey;
  };
  const write = async (who: Owner, title: string) => (await call(LettersRpc.write, { id: randomUUID(), title, content: `${title}: words for later.` }, who.token)) as Letter;
  const seal = (who: Owner, id: string, over: Record<string, unknown> = {}) =>
    call(LettersRpc.seal, { id, until: dayAfter(10), time_zone: 'UTC', recipient_name: 'Ellie', recipient_email: 'Ellie@Example.com', ...over }, who.token) as Promise<Letter>;
  const titles = async (token: string) => ((await call(LettersRpc.list, {}, token)) as LetterPage).letters.map((l) => l.title);
  const lettersSql = <T>(text: string, params: unknown[] = []) => lettersDb.orm.em.fork().execute<T[]>(text, params);
  const accessSql = <T>(text: string, params: unknown[] = []) => accessDb.orm.em.fork().execute<T[]>(text, params);
  const releaseIdOf = async (letterId: string) => (await lettersSql<{ release_id: string }>('select release_id::text as release_id from letter_milestones where letter_id = ?', [letterId]))[0]?.release_id;
  /** A key holder's viewer token, through the real redemption. */
  const viewerOf = async (key: string) => ((await call(AccessKeysRpc.redeem, { access_key: key, consent }, undefined)) as OpenedViewSession).viewer_token;

  beforeAll(async () => {
    lettersDb = await createTestDatabase(lettersMigrations.slice(1), 'milestone');
    // access-keys migrates its own database (the event store's tables are already there).
    accessDb = await createTestDatabase([], 'milestoneak');
    scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/access-keys'], 'milestone');
    const logger = createLogger('milestone-spec', 'silent');
    const common = { NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'silent' };
    letters = await startService(lettersService, { ...common, DATABASE_URL: lettersDb.url }, { logger });
    const accessEnv = { ...common, DATABASE_URL: accessDb.url, VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey, KEY_MAIL_SECRET, STACK_ID, LOG_LEVEL: 'info' };
    access = await startMigratedService(scratch, 'access-keys', accessEnv);
    rpc = new RpcClient(NATS_URL, 10_000);
    await rpc.connect();
    const text = (await call(AccessKeysRpc.consent, {})) as { version: string; hash: string };
    consent = { version: text.version, text_hash: text.hash };
    redis = new Redis(REDIS_URL);
    keyEmails = new Queue<SendKeyEmailJob>(Queues.KeyEmails.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
    milestoneQueue = new Queue<MilestoneReleaseJob>(Queues.MilestoneRelease.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
    producer = createRedisConnection(REDIS_URL, { role: 'producer', name: 'milestone-spec' });
    dueService = new LettersService({
      orm: lettersDb.orm,
      milestones: {
        jobs: createQueue(Queues.MilestoneRelease, producer, { prefix: queuePrefix(STACK_ID) }),
        issueKey: async (letterId, releaseId) => ((await call(AccessKeysRpc.issueLetterKey, { letter_id: letterId, release_id: releaseId })) as { key_id: string | null }).key_id,
        now: () => new Date(clock),
      },
    });
  });

  afterAll(async () => {
    for (const queue of [keyEmails, milestoneQueue]) {
      await queue?.obliterate({ force: true }).catch(() => undefined);
      await queue?.close();
    }
    await rpc?.close();
    await deleteStackStreams(NATS_URL, ['letters', 'access-keys', 'notifications'], STACK_ID);
    await access?.kill('SIGTERM');
    await letters?.close();
    producer?.disconnect();
    redis?.disconnect();
    await lettersDb?.drop();
    await accessDb?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('seals a letter for its recipient: the owner sees the seal, queued for its day; bad seals are refused with their words', async () => {
    const letter = await write(owner, 'For Ellie at 18');
    const until = dayAfter(10);
    const sealed = await seal(owner, letter.id, { until });
    expect(sealed.milestone).toMatchObject({ until, time_zone: 'UTC', due_at: `${until}T00:00:00.000Z`, recipient_name: 'Ellie', recipient_email: 'ellie@example.com', status: 'sealed' });
    const listed = ((await call(LettersRpc.list, {}, owner.token)) as LetterPage).letters.find((l) => l.id === letter.id);
    expect(listed?.milestone?.status).toBe('sealed');
    // The job that wakes it on its day is queued with the seal.
    const releaseId = await releaseIdOf(letter.id);
    const job = await milestoneQueue.getJob(`milestone-${releaseId}`);
    expect(job?.data).toMatchObject({ letterId: letter.id, releaseId, ownerId: owner.id, dueAt: `${until}T00:00:00.000Z` });
    expect(job!.opts.delay).toBeGreaterThan(9 * DAY);
    // The recipient is sealed in the events like the words.
    const stored = await lettersSql<{ data: unknown }>(`select data from events where stream_id = ?`, [`letter-${letter.id}`]);
    expect(JSON.stringify(stored)).not.toContain('ellie@example.com');
    expect(JSON.stringify(stored)).not.toContain('"Ellie"');

    expect(await codeOf(seal(owner, letter.id, { until: dayAfter(0) }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(seal(owner, letter.id, { recipient_email: 'nope' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(seal(otherOwner, letter.id))).toBe('NOT_FOUND');
    // An edit of the words keeps the seal and the editor's version counts the seal's events.
    const revised = (await call(LettersRpc.revise, { id: letter.id, title: 'For Ellie at 18', content: 'New words.', expectedVersion: sealed.version }, owner.token)) as Letter;
    expect(revised.milestone?.status).toBe('sealed');
  });

  it('refuses to seal for an owner whose address is unverified (EMAIL_NOT_VERIFIED, 403): nothing recorded, nothing queued; verified, it seals', async () => {
    const unverified = newOwner(false);
    const letter = await write(unverified, 'For Sam, one day');
    const events = async () => (await lettersSql<{ type: string }>(`select type from events where stream_id = ?`, [`letter-${letter.id}`])).map((e) => e.type);
    const before = await events();
    const refused = await seal(unverified, letter.id).then(() => null, (e: DomainError) => e);
    expect(refused).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: MilestoneMessages.verifyEmailFirst });
    expect(ErrorCodes.EMAIL_NOT_VERIFIED.status).toBe(403);
    expect(await events()).toEqual(before);
    expect(((await call(LettersRpc.get, { id: letter.id }, unverified.token)) as Letter).milestone ?? null).toBeNull();
    // The same owner once his address is verified (his next token carries the claim).
    const verified = { ...unverified, token: signer.sign({ sub: unverified.id, sid: randomUUID(), email: unverified.email, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 900).token };
    expect((await seal(verified, letter.id)).milestone?.status).toBe('sealed');
  });

  it('releases once on its day, never before, of 20 racing jobs; one key, one key e-mail; only its recipient reads it, and only after', async () => {
    const letter = await write(owner, 'Open on your wedding day');
    const ordinary = await write(owner, 'An ordinary letter');
    await seal(owner, letter.id, { until: dayAfter(3), recipient_name: 'Sam', recipient_email: 'sam@example.com' });
    const releaseId = (await releaseIdOf(letter.id))!;
    const dueAt = Date.parse(`${dayAfter(3)}T00:00:00.000Z`);

    // A key holder of this vault with every section, and another owner: before the day, nothing.
    const holderKey = await keyFor(owner);
    const holder = await viewerOf(holderKey.access_key);
    expect(await titles(holder)).toContain('An ordinary letter');
    expect(await titles(holder)).not.toContain('Open on your wedding day');
    expect(await codeOf(call(LettersRpc.get, { id: letter.id }, holder))).toBe('NOT_FOUND');
    expect(((await call(LettersRpc.titles, { ids: [letter.id, ordinary.id] }, holder)) as { titles: Record<string, string> }).titles).toEqual({ [ordinary.id]: 'An ordinary letter' });
    expect(await codeOf(call(LettersRpc.get, { id: letter.id }, otherOwner.token))).toBe('NOT_FOUND');

    // A millisecond early: nothing, and access-keys refuses a key for a release that did not happen.
    clock = dueAt - 1;
    expect(await dueService.milestones!.release({ letterId: letter.id, releaseId })).toEqual({ outcome: 'not-due', dueAt: new Date(dueAt).toISOString() });
    expect(await call(AccessKeysRpc.issueLetterKey, { letter_id: letter.id, release_id: releaseId })).toEqual({ key_id: null });
    expect(await dueService.milestonesDue()).toEqual({ released: 0, keys_issued: 0, not_due: 0 });

    // On the day: 20 racing jobs (and the operator's due check) release it once.
    clock = dueAt;
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => dueService.milestones!.release({ letterId: letter.id, releaseId })));
    expect(outcomes.filter((o) => o.outcome === 'released')).toHaveLength(1);
    await dueService.milestonesDue();
    const releases = await lettersSql<{ n: number }>(`select count(*)::int as n from events where stream_id = ? and type = 'LetterReleased'`, [`letter-${letter.id}`]);
    expect(releases[0]!.n).toBe(1);
    const keyEvents = await accessSql<{ n: number }>(`select count(*)::int as n from events where type = 'AccessKeyIssued' and stream_id = ?`, [`access-key-${releaseId}`]);
    expect(keyEvents[0]!.n).toBe(1);
    const keyRows = await accessSql<{ id: string; source: string; scopes: string[]; letter_id: string; recipient_email: string }>(`select * from access_keys where source = 'milestone'`);
    expect(keyRows).toEqual([expect.objectContaining({ id: releaseId, scopes: ['letters'], letter_id: letter.id, recipient_email: 'sam@example.com' })]);
    const emailJobs = (await keyEmails.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) => j.data.keyId === releaseId);
    expect(emailJobs).toHaveLength(1);
    expect(emailJobs[0]!.data).toMatchObject({ recipientEmail: 'sam@example.com', recipientName: 'Sam', sharedBy: owner.email, scopes: ['letters'], oneLetter: true });
    const recorded = await lettersSql<{ key_id: string }>('select key_id::text as key_id from letter_milestones where letter_id = ?', [letter.id]);
    expect(recorded[0]!.key_id).toBe(releaseId);

    // The recipient, with the key from the e-mail: that letter only, nothing else of the vault.
    const recipientKey = openFromJob(KEY_MAIL_SECRET, keyEmailSealContext(releaseId), emailJobs[0]!.data.sealedKey);
    const recipientSession = (await call(AccessKeysRpc.redeem, { access_key: recipientKey, consent })) as OpenedViewSession;
    expect(recipientSession).toMatchObject({ scopes: ['letters'], letter_id: letter.id });
    const recipient = recipientSession.viewer_token;
    expect(await titles(recipient)).toEqual(['Open on your wedding day']);
    expect(((await call(LettersRpc.get, { id: letter.id }, recipient)) as Letter).content).toContain('words for later');
    expect(await codeOf(call(LettersRpc.get, { id: ordinary.id }, recipient))).toBe('NOT_FOUND');
    expect(await codeOf(call(LettersRpc.portraitSections, {}, recipient))).toBe('FORBIDDEN');
    // Everyone else, still never: the ordinary key holder and another owner.
    expect(await titles(holder)).not.toContain('Open on your wedding day');
    expect(await codeOf(call(LettersRpc.get, { id: letter.id }, holder))).toBe('NOT_FOUND');
    expect(await codeOf(call(LettersRpc.get, { id: letter.id }, otherOwner.token))).toBe('NOT_FOUND');
    // A released letter's seal is final.
    expect(await codeOf(call(LettersRpc.unseal, { id: letter.id }, owner.token))).toBe('CONFLICT');
  });

  it('never releases a letter deleted or unsealed before its day; an unsealed letter is an ordinary one again', async () => {
    const doomed = await write(owner, 'Deleted before the day');
    const changed = await write(owner, 'Unsealed before the day');
    await seal(owner, doomed.id, { until: dayAfter(2) });
    await seal(owner, changed.id, { until: dayAfter(2) });
    const doomedRelease = (await releaseIdOf(doomed.id))!;
    const changedRelease = (await releaseIdOf(changed.id))!;
    await call(LettersRpc.delete, { id: doomed.id }, owner.token);
    const unsealed = (await call(LettersRpc.unseal, { id: changed.id }, owner.token)) as Letter;
    expect(unsealed.milestone).toBeNull();
    clock = Date.now() + 30 * DAY;
    expect(await dueService.milestones!.release({ letterId: doomed.id, releaseId: doomedRelease })).toEqual({ outcome: 'nothing' });
    expect(await dueService.milestones!.release({ letterId: changed.id, releaseId: changedRelease })).toEqual({ outcome: 'nothing' });
    expect(await call(AccessKeysRpc.issueLetterKey, { letter_id: doomed.id, release_id: doomedRelease })).toEqual({ key_id: null });
    const keys = await accessSql<{ id: string }>('select id::text as id from access_keys where id in (?, ?)', [doomedRelease, changedRelease]);
    expect(keys).toEqual([]);
    const holderKey = await keyFor(owner);
    expect(await titles(await viewerOf(holderKey.access_key))).toContain('Unsealed before the day');
  });

  it('re-derives every pending release job from the letters after Redis lost them, under the seal\'s job id, once', async () => {
    const letter = await write(owner, 'Kept through a Redis loss');
    const until = dayAfter(3);
    await seal(owner, letter.id, { until });
    const releaseId = (await releaseIdOf(letter.id))!;
    // Redis loses every job of this stack's queue (a failover that dropped its last writes, a new empty Redis).
    await milestoneQueue.obliterate({ force: true });
    expect(await milestoneQueue.getJob(`milestone-${releaseId}`)).toBeUndefined();

    const pending = await lettersSql<{ release_id: string }>(`select release_id::text as release_id from letter_milestones where status = 'sealed' or (status = 'released' and key_id is null)`);
    expect(await dueService.milestones!.rearm()).toBe(pending.length);
    const job = await milestoneQueue.getJob(`milestone-${releaseId}`);
    expect(job?.data).toMatchObject({ letterId: letter.id, releaseId, ownerId: owner.id, dueAt: `${until}T00:00:00.000Z` });
    expect(job!.opts.delay).toBeGreaterThan(2 * DAY);
    // Only what is still to happen: nothing for a letter released with its key, deleted or unsealed.
    const queued = (await milestoneQueue.getJobs(['waiting', 'delayed', 'active'])).map((j) => j.data.releaseId).sort();
    expect(queued).toEqual(pending.map((row) => row.release_id).sort());
    // Again: the jobs still there are left as they are.
    await dueService.milestones!.rearm();
    expect((await milestoneQueue.getJobs(['waiting', 'delayed', 'active'])).length).toBe(pending.length);
  });

  it('the due check is the operator’s: owners and the anonymous are refused', async () => {
    const operator = signOperatorToken(signer);
    expect(await codeOf(call(LettersRpc.milestonesDue, {}, operator))).toBe('OK');
    expect(await codeOf(call(LettersRpc.milestonesDue, {}, owner.token))).toBe('FORBIDDEN');
    expect(await codeOf(call(LettersRpc.milestonesDue, {}, undefined))).toBe('UNAUTHENTICATED');
  });
});
