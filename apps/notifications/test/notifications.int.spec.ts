import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  AccessKeysRpc, inactivityWarningSealContext, keyEmailSealContext, NotificationsEvents, NotificationsRpc, Queues, type InactivityWarningJob, type RpcDeclaration, type SendKeyEmailJob,
  trusteeLinkSealContext, type TrusteeLinkJob, type TrusteeNoticeJob,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedStreamName } from '@lv/platform/messaging';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import { queuePrefix, sealForJob } from '@lv/platform/queues';
import { answerAsService, compileForChildProcess, generateTestKeys, startChild, uniqueStackId, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import type { RunningSmtpCatcher } from '../../../tools/dev/smtp-catcher.mjs';
import { startMailStack, type MailStack } from './test-support/key-email-stack.js';
import type { NotificationsConfig } from '../src/config.js';
import { keyEmailMessageId } from '../src/key-emails/key-email-message.js';

// notifications with its worker, against real PostgreSQL, Redis, NATS and the dev SMTP catcher; access-keys'
// key-mail-state answered by a stand-in on NATS. Once is counted at the catcher (the window after SMTP's
// acceptance, where one duplicate can go, is key-emails/key-email-crash-window.int.spec.ts).

jest.setTimeout(240_000);

const STACK_ID = uniqueStackId('notify');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { KeyEmailsService } = await import('../src/key-emails/key-emails.service.js');
const { TrusteeNoticesService } = await import('../src/trustee-notices/trustee-notices.service.js');
const { InactivityWarningsService } = await import('../src/inactivity-warnings/inactivity-warnings.service.js');
const { TrusteeLinksService } = await import('../src/trustee-notices/trustee-links.service.js');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY_MAIL_SECRET = 'notify-spec-key-mail-secret-'.padEnd(48, 'z');
const keys = generateTestKeys();

/** What access-keys would say of each key; absent = 'unknown' (not committed). */
const keyStates = new Map<string, 'active' | 'expired' | 'revoked'>();
/** What access-keys would say of each delivery (by release id); absent = 'unknown'. */
const deliveryStates = new Map<string, 'started' | 'released' | 'cancelled'>();
/** What access-keys would say of each inactivity warning; absent = 'unknown'. */
const warningStates = new Map<string, 'current' | 'stale'>();
/** What access-keys would say of each trustee link; absent = 'unknown'. */
const trusteeLinkStates = new Map<string, 'current' | 'stale'>();

function newJob(over: Partial<SendKeyEmailJob> = {}): { job: SendKeyEmailJob; key: string } {
  const keyId = randomUUID();
  const key = randomUUID();
  return {
    key,
    job: {
      keyId, ownerId: randomUUID(), recipientEmail: `${keyId.slice(0, 8)}@example.com`, recipientName: 'Ellie', sharedBy: 'dad@example.com',
      sealedKey: sealForJob(KEY_MAIL_SECRET, keyEmailSealContext(keyId), key), expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), scopes: ['letters'],
      ...over,
    },
  };
}

/**
 * The sentinel of "not sent yet": the worker has finished an attempt at the job (failed and put back for a
 * retry, or done and gone from Redis). Resolves with the attempt's failure ('' when it completed).
 */
async function firstAttemptAt(queue: Queue, jobId: string): Promise<string> {
  let reason = '';
  await waitFor(async () => {
    const job = await queue.getJob(jobId);
    reason = job?.failedReason ?? '';
    return !job || job.attemptsMade >= 1;
  }, 20_000, `a first attempt at job ${jobId}`);
  return reason;
}

describe('notifications: key e-mails', () => {
  let mail: MailStack | undefined;
  let db: TestDatabase;
  let catcher: RunningSmtpCatcher;
  let running: RunningService<NotificationsConfig>;
  let nc: NatsConnection;
  let redis: Redis;
  let queue: Queue<SendKeyEmailJob>;
  let rpc: RpcClient;
  const published: { subject: string; data: { keyId: string } }[] = [];
  const env = () => mail!.env({ KEY_EMAIL_LOCK_SECONDS: '2' });
  const mailsTo = (address: string) => catcher.messages.filter((m) => m.envelope.to.includes(address));
  const service = () => running.app.get(KeyEmailsService);

  beforeAll(async () => {
    mail = await startMailStack(STACK_ID, 'notify', KEY_MAIL_SECRET, keys.publicKey);
    ({ db, catcher, nc } = mail);
    answerAsService<{ key_id: string }>(nc, AccessKeysRpc.keyMailState, ({ key_id }) => ({ state: keyStates.get(key_id) ?? 'unknown' }));
    answerAsService<{ release_id: string }>(nc, AccessKeysRpc.trusteeNoticeState, ({ release_id }) => ({ state: deliveryStates.get(release_id) ?? 'unknown' }));
    answerAsService<{ linkId: string }>(nc, AccessKeysRpc.trusteeLinkState, ({ linkId }) => ({ state: trusteeLinkStates.get(linkId) ?? 'unknown' }));
    answerAsService<{ warning_id: string }>(nc, AccessKeysRpc.inactivityWarningState, ({ warning_id }) => ({ state: warningStates.get(warning_id) ?? 'unknown' }));
    await nc.flush();
    running = await startService(notificationsService, env(), { logger: createLogger('notify-spec', 'silent') });
    redis = new Redis(REDIS_URL);
    queue = new Queue<SendKeyEmailJob>(Queues.KeyEmails.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
    rpc = new RpcClient(NATS_URL, 10_000);
    await rpc.connect();
    // Everything notifications publishes, read back from its stream.
    const js = jetstream(running.core.nats);
    const consumer = await js.consumers.get(scopedStreamName('notifications', STACK_ID));
    void (async () => {
      for await (const m of await consumer.consume()) {
        published.push({ subject: m.subject, data: (m.json<{ data: { keyId: string } }>()).data });
        m.ack();
      }
    })().catch(() => undefined);
  });

  afterAll(async () => {
    await rpc?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await running?.close();
    redis?.disconnect();
    await mail?.close();
  });

  const add = (job: SendKeyEmailJob) => queue.add(Queues.KeyEmails.name, job, { jobId: `key-${job.keyId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });

  describe('trustee notices', () => {
    const notice = (kind: TrusteeNoticeJob['kind'], releaseId: string = randomUUID(), over: Partial<TrusteeNoticeJob> = {}): TrusteeNoticeJob => ({
      noticeId: `${releaseId}-${kind}`, releaseId, ownerId: randomUUID(), kind, trusteeEmail: `trustee-${releaseId.slice(0, 8)}@example.com`, trusteeName: 'Ruth Okafor',
      sharedBy: 'dad@example.com', dueAt: kind === 'started' ? '2026-12-25T10:00:00.000Z' : null, ...over,
    });
    const notices = () => running.app.get(TrusteeNoticesService);

    it('tells the trustee once that the delivery started (and when it is due), once it is committed; a second attempt sends nothing', async () => {
      const job = notice('started');
      const noticeQueue = new Queue<TrusteeNoticeJob>(Queues.TrusteeNotices.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      await noticeQueue.add(Queues.TrusteeNotices.name, job, { jobId: `trustee-${job.noticeId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });
      // Not committed yet (access-keys does not know the delivery): the worker's first attempt sends nothing.
      const firstAttempt = await firstAttemptAt(noticeQueue, `trustee-${job.noticeId}`);
      expect(mailsTo(job.trusteeEmail)).toHaveLength(0);
      expect(firstAttempt).toMatch(/is not committed yet$/);
      deliveryStates.set(job.releaseId, 'started');
      await waitFor(() => mailsTo(job.trusteeEmail).length === 1, 20_000, 'the trustee notice');
      const [mail] = mailsTo(job.trusteeEmail);
      expect(mail!.subject).toBe("dad@example.com's Legacy Vault: delivery has started");
      expect(mail!.text).toContain('Dear Ruth Okafor,');
      expect(mail!.text).toContain('It will happen on 25 December 2026.');
      expect(mail!.text).toContain('"I\'m Still Here"');
      expect(await notices().send(job, 9)).toBe('already-sent');
      const [first, second] = await Promise.all([notices().send(notice('released', job.releaseId), 1), notices().send(notice('released', job.releaseId), 1)].map((p) => p.catch((e: Error) => e.constructor.name)));
      // Not released yet: both attempts wait (the job would retry), nothing is sent.
      expect([first, second]).toEqual(['StepNotCommittedYet', 'StepNotCommittedYet']);
      deliveryStates.set(job.releaseId, 'released');
      const outcomes = await Promise.all([notices().send(notice('released', job.releaseId), 1), notices().send(notice('released', job.releaseId), 1)]);
      expect(outcomes.sort()).toEqual(['already-sent', 'sent']);
      const released = mailsTo(job.trusteeEmail).filter((m) => m.subject === "dad@example.com's Legacy Vault has been delivered");
      expect(released).toHaveLength(1);
      expect(released[0]!.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      await noticeQueue.obliterate({ force: true }).catch(() => undefined);
      await noticeQueue.close();
    });

    it('does not alarm the trustee about a delivery cancelled before its notice went, and says so once for legal verification', async () => {
      const cancelled = notice('started');
      deliveryStates.set(cancelled.releaseId, 'cancelled');
      expect(await notices().send(cancelled, 1)).toBe('refused');
      expect(mailsTo(cancelled.trusteeEmail)).toHaveLength(0);
      const verifying = notice('started', randomUUID(), { dueAt: null, trusteeName: null });
      deliveryStates.set(verifying.releaseId, 'started');
      expect(await notices().send(verifying, 1)).toBe('sent');
      const [mail] = mailsTo(verifying.trusteeEmail);
      expect(mail!.text).toContain('Hello,');
      expect(mail!.text).toContain('It will happen once our team has verified the legal documents.');
    });
  });

  describe('inactivity warnings', () => {
    const warning = (stage: number, over: Partial<InactivityWarningJob> = {}): { job: InactivityWarningJob; link: string } => {
      const warningId = randomUUID();
      const link = `/still-here?w=${warningId}&u=${randomUUID()}&exp=1900000000&sig=spec-signature`;
      return {
        link,
        job: {
          warningId, ownerId: randomUUID(), ownerEmail: `owner-${warningId.slice(0, 8)}@example.com`, stage, lapseAt: '2027-01-30T10:00:00.000Z',
          sealedLink: sealForJob(KEY_MAIL_SECRET, inactivityWarningSealContext(warningId), link), ...over,
        },
      };
    };
    const warnings = () => running.app.get(InactivityWarningsService);

    it('warns the owner once, with his check-in link, once the warning is committed; a job added twice or run again sends nothing more', async () => {
      const { job, link } = warning(1);
      const warningQueue = new Queue<InactivityWarningJob>(Queues.InactivityWarnings.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      const addWarning = () => warningQueue.add(Queues.InactivityWarnings.name, job, { jobId: `inactivity-warning-${job.warningId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });
      await addWarning();
      // Not committed yet (access-keys does not know the warning): the worker's first attempt sends nothing.
      const firstAttempt = await firstAttemptAt(warningQueue, `inactivity-warning-${job.warningId}`);
      expect(mailsTo(job.ownerEmail)).toHaveLength(0);
      expect(firstAttempt).toMatch(/is not committed yet$/);
      warningStates.set(job.warningId, 'current');
      await waitFor(() => mailsTo(job.ownerEmail).length === 1, 20_000, 'the warning');
      // The job done, it leaves Redis; only then is the same job id a new job, which the worker runs to the end.
      await waitFor(async () => (await warningQueue.getJob(`inactivity-warning-${job.warningId}`)) === undefined, 20_000, 'the sent job to leave Redis');
      const again = await warningQueue.add(Queues.InactivityWarnings.name, job, { jobId: `inactivity-warning-${job.warningId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 } });
      const [mail] = mailsTo(job.ownerEmail);
      expect(mail!.subject).toBe('Legacy Vault: are you still there? Your vault is delivered on 30 January 2027');
      expect(mail!.text).toContain(`http://127.0.0.1:3999${link}`);
      expect(mail!.text).toContain('"I\'m Still Here"');
      expect(await warnings().send(job, 9)).toBe('already-sent');
      // Sentinel: the job added again has been run to completion by the worker.
      await waitFor(async () => (await again.getState()) === 'completed', 20_000, 'the job added again to complete');
      expect(mailsTo(job.ownerEmail)).toHaveLength(1);
      expect((await warningQueue.getJob(`inactivity-warning-${job.warningId}`))?.returnvalue).toBe('already-sent');
      // The last warning, two attempts at once: one message.
      const last = warning(2);
      warningStates.set(last.job.warningId, 'current');
      expect((await Promise.all([warnings().send(last.job, 1), warnings().send(last.job, 1)])).sort()).toEqual(['already-sent', 'sent']);
      expect(mailsTo(last.job.ownerEmail).map((m) => m.subject)).toEqual(['Last reminder: your Legacy Vault is delivered on 30 January 2027']);
      await warningQueue.obliterate({ force: true }).catch(() => undefined);
      await warningQueue.close();
    });

    it('sends nothing once the owner has checked in (or paused or changed the watch) since it was queued', async () => {
      const { job } = warning(2);
      warningStates.set(job.warningId, 'stale');
      expect(await warnings().send(job, 1)).toBe('stale');
      expect(await warnings().send(job, 2)).toBe('stale');
      expect(mailsTo(job.ownerEmail)).toHaveLength(0);
      const [row] = await db.orm.em.fork().execute<{ state: string }[]>('select state from inactivity_warnings where warning_id = ?', [job.warningId]);
      expect(row!.state).toBe('failed');
    });
  });

  describe('trustee links', () => {
    const trusteeLink = (kind: 'invitation' | 'link'): { job: TrusteeLinkJob; link: string } => {
      const linkId = randomUUID();
      const trusteeId = randomUUID();
      const link = `/trustee?t=${trusteeId}&n=spec-secret-of-the-link&u=${randomUUID()}&exp=1900000000&sig=spec-signature`;
      return {
        link,
        job: {
          linkId, ownerId: randomUUID(), trusteeId, kind, trusteeEmail: `trustee-${linkId.slice(0, 8)}@example.com`, trusteeName: 'Ann Lee', ownerName: 'Sam Taylor',
          expiresAt: '2026-12-20T10:00:00.000Z', sealedLink: sealForJob(KEY_MAIL_SECRET, trusteeLinkSealContext(linkId), link),
        },
      };
    };
    const links = () => running.app.get(TrusteeLinksService);

    it('e-mails a trustee their invitation once it is committed, exactly once: a job added twice or two attempts at once give one message', async () => {
      const { job, link } = trusteeLink('invitation');
      const linkQueue = new Queue<TrusteeLinkJob>(Queues.TrusteeLinks.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      const add = () => linkQueue.add(Queues.TrusteeLinks.name, job, { jobId: `trustee-link-${job.linkId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 }, removeOnComplete: true });
      await add();
      const firstAttempt = await firstAttemptAt(linkQueue, `trustee-link-${job.linkId}`);
      expect(firstAttempt).toMatch(/is not committed yet$/);
      expect(mailsTo(job.trusteeEmail)).toHaveLength(0);
      trusteeLinkStates.set(job.linkId, 'current');
      await waitFor(() => mailsTo(job.trusteeEmail).length === 1, 20_000, 'the invitation');
      await waitFor(async () => (await linkQueue.getJob(`trustee-link-${job.linkId}`)) === undefined, 20_000, 'the sent job to leave Redis');
      // The same job id again, kept once completed so its end can be awaited (the sentinel: nothing sent after it).
      const again = await linkQueue.add(Queues.TrusteeLinks.name, job, { jobId: `trustee-link-${job.linkId}`, attempts: 5, backoff: { type: 'fixed', delay: 300 } });
      await waitFor(async () => (await again.getState()) === 'completed', 20_000, 'the job added again to complete');
      expect((await linkQueue.getJob(`trustee-link-${job.linkId}`))?.returnvalue).toBe('already-sent');
      const [mail] = mailsTo(job.trusteeEmail);
      expect(mail!.subject).toBe('Sam Taylor has named you a trustee of their Legacy Vault');
      expect(mail!.text).toContain(`http://127.0.0.1:3999${link}`);
      expect(mail!.text).toContain('Being a trustee gives you no access to the vault.');
      expect(mailsTo(job.trusteeEmail)).toHaveLength(1);
      const other = trusteeLink('link');
      trusteeLinkStates.set(other.job.linkId, 'current');
      expect((await Promise.all([links().send(other.job, 1), links().send(other.job, 1)])).sort()).toEqual(['already-sent', 'sent']);
      expect(mailsTo(other.job.trusteeEmail).map((m) => m.subject)).toEqual(["Your trustee link for Sam Taylor's Legacy Vault"]);
      await linkQueue.obliterate({ force: true }).catch(() => undefined);
      await linkQueue.close();
    });

    it('sends nothing for a link replaced, used or ended by removal before it went', async () => {
      const { job } = trusteeLink('invitation');
      trusteeLinkStates.set(job.linkId, 'stale');
      expect(await links().send(job, 1)).toBe('stale');
      expect(await links().send(job, 2)).toBe('stale');
      expect(mailsTo(job.trusteeEmail)).toHaveLength(0);
      const [row] = await db.orm.em.fork().execute<{ state: string }[]>('select state from trustee_links where link_id = ?', [job.linkId]);
      expect(row!.state).toBe('failed');
    });
  });

  it('sends a key once: the e-mail carries the key and its link, the job leaves Redis, KeyEmailSent is published', async () => {
    const { job, key } = newJob();
    keyStates.set(job.keyId, 'active');
    await add(job);
    await add(job); // the same job id again: stored once
    await waitFor(() => mailsTo(job.recipientEmail).length > 0, 20_000, 'the key e-mail');
    await waitFor(() => published.some((p) => p.data.keyId === job.keyId), 20_000, 'KeyEmailSent');
    const [mail, ...more] = mailsTo(job.recipientEmail);
    expect(more).toHaveLength(0);
    expect(mail!.text).toContain(key);
    expect(mail!.text).toContain(`http://127.0.0.1:3999/access#k=${key}&owner=${job.ownerId}`);
    expect(mail!.messageId).toBe(keyEmailMessageId(job.keyId));
    expect(published.find((p) => p.data.keyId === job.keyId)!.subject).toContain(NotificationsEvents.KeyEmailSent.subject);
    await waitFor(async () => (await queue.getJob(`key-${job.keyId}`)) === undefined, 10_000, 'the sent job removed from Redis');
  });

  it('never sends a key twice: a job run again, or two attempts at once, give one message', async () => {
    const { job } = newJob();
    keyStates.set(job.keyId, 'active');
    const outcomes = await Promise.all([service().send(job, 1), service().send(job, 1)]);
    expect(outcomes.sort()).toEqual(['already-sent', 'sent']);
    expect(await service().send(job, 2)).toBe('already-sent');
    expect(mailsTo(job.recipientEmail)).toHaveLength(1);
  });

  it('waits while the key is not committed, then sends once access-keys knows it', async () => {
    const { job } = newJob();
    await add(job);
    const firstAttempt = await firstAttemptAt(queue, `key-${job.keyId}`);
    expect(mailsTo(job.recipientEmail)).toHaveLength(0);
    expect(firstAttempt).toMatch(/is not committed yet$/);
    keyStates.set(job.keyId, 'active');
    await waitFor(() => mailsTo(job.recipientEmail).length === 1, 20_000, 'the e-mail after the key committed');
  });

  it('sends nothing for a revoked key and reports it failed', async () => {
    const { job } = newJob();
    keyStates.set(job.keyId, 'revoked');
    expect(await service().send(job, 1)).toBe('refused');
    await waitFor(() => published.some((p) => p.data.keyId === job.keyId && p.subject.includes(NotificationsEvents.KeyEmailFailed.subject)), 20_000, 'KeyEmailFailed');
    expect(mailsTo(job.recipientEmail)).toHaveLength(0);
  });

  it('lets operators resend only what failed, never what was sent', async () => {
    const operator = signOperatorToken(new AccessTokenSigner(keys.privateKey), 'notify-spec');
    const call = <D extends RpcDeclaration>(d: D, payload: unknown, token?: string) => rpc.callUnchecked(d, payload, { accessToken: token, meta: { requestId: 'notify-spec' } });
    const { job } = newJob();
    keyStates.set(job.keyId, 'active');
    await service().send(job, 1);
    expect(await call(NotificationsRpc.resendKeyEmail, { key_id: job.keyId }, operator)).toMatchObject({ status: 'already-sent' });
    expect(await call(NotificationsRpc.resendKeyEmail, { key_id: randomUUID() }, operator).catch((e: DomainError) => e.code)).toBe('NOT_FOUND');
    expect(await call(NotificationsRpc.resendKeyEmail, { key_id: job.keyId }).catch((e: DomainError) => e.code)).toBe('UNAUTHENTICATED');
    const rebuilt = (await call(NotificationsRpc.rebuildProjections, {}, operator)) as { projections: { projection: string }[] };
    expect(rebuilt.projections.map((p) => p.projection)).toEqual(['key_emails', 'trustee_notices', 'inactivity_warnings', 'access_request_notices', 'account_emails', 'trustee_links', 'trustee_report_notices']);
    expect((await db.orm.em.fork().execute<{ state: string }[]>('select state from key_emails where key_id = ?', [job.keyId]))[0]!.state).toBe('sent');
  });

  it('a worker killed (SIGKILL) in the middle of a send, before the server accepted the message: another takes the job up, and the key arrives exactly once', async () => {
    // A mail server that takes the connection and never answers: the first worker hangs in its send.
    const hung: Socket[] = [];
    const blackHole: Server = createServer((socket) => hung.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const blackHolePort = (blackHole.address() as { port: number }).port;
    const scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/notifications'], 'notify-kill');
    const script = join(scratch, 'apps', 'notifications', 'main.js');
    // The in-process worker stands aside, so the child takes the job.
    await running.close();
    let child: ChildService | undefined;
    try {
      child = startChild(script, [], { ...env(), STACK_ID, LOG_LEVEL: 'info', SMTP_PORT: String(blackHolePort) });
      await child.waitForLine(/notifications is listening on NATS/, 60_000);
      const { job } = newJob();
      keyStates.set(job.keyId, 'active');
      await add(job);
      await waitFor(() => hung.length > 0, 20_000, 'the first worker connected to the mail server');
      await child.kill('SIGKILL');
      for (const socket of hung) socket.destroy();
      expect(mailsTo(job.recipientEmail)).toHaveLength(0);

      running = await startService(notificationsService, env(), { logger: createLogger('notify-spec', 'silent') });
      await waitFor(() => mailsTo(job.recipientEmail).length > 0, 60_000, 'the e-mail sent by the next worker');
      // Sentinel: the job is done and gone from Redis, so no attempt is left that could send it again.
      await waitFor(async () => (await queue.getJob(`key-${job.keyId}`)) === undefined, 20_000, 'the job to complete and leave Redis');
      expect(mailsTo(job.recipientEmail)).toHaveLength(1);
    } finally {
      await child?.kill('SIGKILL').catch(() => undefined);
      blackHole.close();
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
