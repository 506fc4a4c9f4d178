import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ACCESS_REQUEST_NOTICES_PER_HOUR, AccessKeysRpc, IdentityRpc, Queues, type AccessRequestNoticeJob, type RequestNoticeState } from '@lv/contracts';
import { startService, type RunningService } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { answerAsService, generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import type { RunningSmtpCatcher } from '../../../tools/dev/smtp-catcher.mjs';
import { startMailStack, type MailStack } from './test-support/key-email-stack.js';
import type { NotificationsConfig } from '../src/config.js';

// Issue 28: the owner's e-mail about an access request, sent by notifications' worker from the
// `access-request-notices` queue against real PostgreSQL, Redis, NATS and the dev SMTP catcher.
// access-keys (is the request pending, who asked) and identity (where the owner's request e-mails go,
// his "Access Requests" switch) are stand-ins on NATS. Exactly once is counted at the catcher.

jest.setTimeout(240_000);

const STACK_ID = uniqueStackId('reqnotice');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { AccessRequestNoticesService } = await import('../src/access-request-notices/access-request-notices.service.js');
const { createLogger } = await import('@lv/platform/logging');

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PUBLIC_URL = 'http://127.0.0.1:3998';
const keys = generateTestKeys();

/** What access-keys would say of each request; absent = 'unknown' (not committed). */
const requests = new Map<string, RequestNoticeState>();
/** Each owner's address and name as identity would give them; email null = his switch is off. */
const owners = new Map<string, { email: string | null; full_name: string | null }>();

describe('notifications: the owner’s e-mail about an access request', () => {
  let mail: MailStack | undefined;
  let db: TestDatabase;
  let catcher: RunningSmtpCatcher;
  let running: RunningService<NotificationsConfig>;
  let nc: NatsConnection;
  let redis: Redis;
  let queue: Queue<AccessRequestNoticeJob>;

  const mailsTo = (address: string) => catcher.messages.filter((m) => m.envelope.to.includes(address));
  const notices = () => running.app.get(AccessRequestNoticesService);
  const newOwner = (on = true) => {
    const ownerId = randomUUID();
    const email = `owner-${ownerId.slice(0, 8)}@example.com`;
    owners.set(ownerId, { email: on ? email : null, full_name: 'Sam Taylor' });
    return { ownerId, email };
  };
  const newRequest = (ownerId: string, state: RequestNoticeState | null = { state: 'pending', requester_name: 'Ellie Taylor', relationship: 'Daughter' }): AccessRequestNoticeJob => {
    const requestId = randomUUID();
    if (state) requests.set(requestId, state);
    return { requestId, ownerId };
  };
  const jobIdOf = (job: AccessRequestNoticeJob) => `request-notice-${job.requestId}`;
  const add = (job: AccessRequestNoticeJob) =>
    queue.add(Queues.AccessRequestNotices.name, job, { jobId: jobIdOf(job), attempts: 10, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });
  const rowOf = async (requestId: string) =>
    (await db.orm.em.fork().execute<{ state: string; last_error: string | null; owner_id: string }[]>('select state, last_error, owner_id from access_request_notices where request_id = ?', [requestId]))[0];

  beforeAll(async () => {
    mail = await startMailStack(STACK_ID, 'reqnotice', 'request-notice-spec-key-mail-secret-'.padEnd(48, 'z'), keys.publicKey);
    ({ db, catcher, nc } = mail);
    answerAsService<{ owner_id: string; request_id: string }>(nc, AccessKeysRpc.requestNoticeState, ({ request_id }) => requests.get(request_id) ?? { state: 'unknown', requester_name: null, relationship: null });
    answerAsService<{ user_id: string }>(nc, IdentityRpc.accessRequestMailTo, ({ user_id }) => owners.get(user_id) ?? { email: null, full_name: null });
    await nc.flush();
    running = await startService(notificationsService, mail.env({ PUBLIC_URL, KEY_EMAIL_LOCK_SECONDS: '2' }), { logger: createLogger('request-notice-spec', 'silent') });
    redis = new Redis(REDIS_URL);
    queue = new Queue<AccessRequestNoticeJob>(Queues.AccessRequestNotices.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await running?.close();
    redis?.disconnect();
    await mail?.close();
  });

  it('tells the owner once, when the request is committed, who asked (their name and relationship) and where to decide (/access-control)', async () => {
    const { ownerId, email } = newOwner();
    const job = newRequest(ownerId, null);
    await add(job);
    // Not committed yet (access-keys does not know the request): the worker's first attempt sends nothing, the job retries.
    await waitFor(async () => {
      const queued = await queue.getJob(jobIdOf(job));
      return !queued || queued.attemptsMade >= 1; // put back for a retry, or done and gone
    }, 20_000, 'the first attempt at the job');
    expect(mailsTo(email)).toHaveLength(0);
    expect((await queue.getJob(jobIdOf(job)))?.failedReason).toMatch(/is not committed yet$/);
    requests.set(job.requestId, { state: 'pending', requester_name: 'Ellie Taylor', relationship: 'Daughter' });
    await waitFor(() => mailsTo(email).length === 1, 20_000, 'the request notice');
    const [mail] = mailsTo(email);
    expect(mail!.subject).toBe('Someone asked for access to your Legacy Vault');
    expect(mail!.text).toContain('Dear Sam Taylor,');
    expect(mail!.text).toContain('Name they gave: Ellie Taylor');
    expect(mail!.text).toContain('Relationship: Daughter');
    expect(mail!.text).toContain(`${PUBLIC_URL}/access-control`);
    expect(mail!.html).toContain(`href="${PUBLIC_URL}/access-control"`);
    expect(mail!.messageId).toBe(`<access-request-${job.requestId}@legacy-vault>`);

    // Once per request: the same job again, and racing attempts, send nothing more. The sent job leaves
    // Redis first; only then is the same job id a new job, kept once done so its outcome can be read.
    await waitFor(async () => (await queue.getJob(jobIdOf(job))) === undefined, 20_000, 'the sent job to leave Redis');
    const again = await queue.add(Queues.AccessRequestNotices.name, job, { jobId: jobIdOf(job), attempts: 10, backoff: { type: 'fixed', delay: 300 } });
    expect(await Promise.all([notices().send(job, 2), notices().send(job, 3)])).toEqual(['already-done', 'already-done']);
    // Sentinel: the worker has run the job added again to completion.
    await waitFor(async () => (await again.getState()) === 'completed', 20_000, 'the job added again to complete');
    expect(mailsTo(email)).toHaveLength(1);
    expect((await queue.getJob(jobIdOf(job)))?.returnvalue).toBe('already-done');
    expect(await rowOf(job.requestId)).toMatchObject({ state: 'sent', owner_id: ownerId });
  });

  it('records nothing for a job whose request never committed when it runs out of attempts: the job of the attempt that commits sends once', async () => {
    const { ownerId, email } = newOwner();
    const job = newRequest(ownerId, null);
    // access-keys' first attempt queued its job and died before its commit: access-keys never knows the request.
    const lost = await queue.add(Queues.AccessRequestNotices.name, job, { jobId: `${jobIdOf(job)}-lost-attempt`, attempts: 3, backoff: { type: 'fixed', delay: 200 } });
    await waitFor(async () => (await lost.getState()) === 'failed', 20_000, 'the lost attempt\'s job to run out of attempts');
    expect((await queue.getJob(lost.id!))?.failedReason).toMatch(/is not committed yet$/);
    // The family member's retry commits the same request id and queues its own job.
    requests.set(job.requestId, { state: 'pending', requester_name: 'Ellie Taylor', relationship: 'Daughter' });
    const committed = await queue.add(Queues.AccessRequestNotices.name, job, { jobId: `${jobIdOf(job)}-committed-attempt`, attempts: 10, backoff: { type: 'fixed', delay: 300 } });
    await waitFor(async () => (await committed.getState()) === 'completed', 20_000, 'the committing attempt\'s job to complete');
    expect((await queue.getJob(committed.id!))?.returnvalue).toBe('sent');
    expect(mailsTo(email)).toHaveLength(1);
    expect(await rowOf(job.requestId)).toMatchObject({ state: 'sent', owner_id: ownerId });
    // Still once per request: another job for it sends nothing more.
    expect(await notices().send(job, 1)).toBe('already-done');
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('sends two racing attempts at one request once', async () => {
    const { ownerId, email } = newOwner();
    const job = newRequest(ownerId);
    expect((await Promise.all([notices().send(job, 1), notices().send(job, 1)])).sort()).toEqual(['already-done', 'sent']);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('sends nothing while the owner’s Access Requests switch is off, nor for a request he already decided, and records why', async () => {
    const off = newOwner(false);
    const quiet = newRequest(off.ownerId);
    expect(await notices().send(quiet, 1)).toBe('switched-off');
    expect(mailsTo(off.email)).toHaveLength(0);
    expect(await rowOf(quiet.requestId)).toMatchObject({ state: 'failed', last_error: 'the owner turned access-request e-mails off' });
    // Turning the switch on later does not send an old request's e-mail (the request waits in the app).
    owners.set(off.ownerId, { email: off.email, full_name: null });
    expect(await notices().send(quiet, 2)).toBe('already-done');
    expect(mailsTo(off.email)).toHaveLength(0);

    const on = newOwner();
    const decided = newRequest(on.ownerId, { state: 'decided', requester_name: null, relationship: null });
    expect(await notices().send(decided, 1)).toBe('decided');
    expect(mailsTo(on.email)).toHaveLength(0);
  });

  it(`sends at most ${ACCESS_REQUEST_NOTICES_PER_HOUR} an hour to one owner and holds the rest back (recorded, not sent); another owner is not held back`, async () => {
    const busy = newOwner();
    const jobs = Array.from({ length: ACCESS_REQUEST_NOTICES_PER_HOUR + 3 }, () => newRequest(busy.ownerId));
    // Two at a time, as the workers would take them: the owner's sends are serialised, so none slips past the limit.
    const outcomes: string[] = [];
    for (let i = 0; i < jobs.length; i += 2) outcomes.push(...(await Promise.all(jobs.slice(i, i + 2).map((job) => notices().send(job, 1)))));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(ACCESS_REQUEST_NOTICES_PER_HOUR);
    expect(outcomes.filter((o) => o === 'held-back')).toHaveLength(3);
    expect(mailsTo(busy.email)).toHaveLength(ACCESS_REQUEST_NOTICES_PER_HOUR);
    const held = jobs[outcomes.indexOf('held-back')]!;
    expect((await rowOf(held.requestId))?.last_error).toMatch(/^held back/);

    const other = newOwner();
    expect(await notices().send(newRequest(other.ownerId), 1)).toBe('sent');
  });

  it('keeps what the requester wrote plain text: no forged lines in the text, no markup in the HTML', async () => {
    const { ownerId, email } = newOwner();
    const job = newRequest(ownerId, { state: 'pending', requester_name: '<a href="https://evil.example">Ellie</a>\r\nBcc: victim@example.com', relationship: 'Son<script>alert(1)</script>\n\nClick http://evil.example' });
    expect(await notices().send(job, 1)).toBe('sent');
    const [mail] = mailsTo(email);
    expect(mail!.envelope.to).toEqual([email]);
    expect(mail!.text).toContain('Name they gave: <a href="https://evil.example">Ellie</a> Bcc: victim@example.com');
    expect(mail!.text.split('\n').filter((line) => line.startsWith('Bcc:') || line.startsWith('Click'))).toEqual([]);
    expect(mail!.html).not.toContain('<script>');
    expect(mail!.html).not.toContain('<a href="https://evil.example">');
    expect(mail!.html).toContain('&lt;script&gt;');
  });
});
