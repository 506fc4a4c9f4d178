import nodemailer from 'nodemailer';
import { AccessKeysRpc, IdentityEvents, IdentityRpc, Queues } from '@lv/contracts';
import { DurableConsumer } from '@lv/platform/event-store';
import { defineService, rememberUp, RpcClient } from '@lv/platform/nest';
import { createQueue, createRedisConnection, createWorker, type DeclaredQueue } from '@lv/platform/queues';
import { AccountEmailsService } from './account-emails/account-emails.service.js';
import { eraseOwnerNotices } from './account-erasure/account-erasure.js';
import { AccessRequestNoticesService } from './access-request-notices/access-request-notices.service.js';
import { notificationsConfigSchema } from './config.js';
import { InactivityWarningsService } from './inactivity-warnings/inactivity-warnings.service.js';
import { TrusteeLinksService } from './trustee-notices/trustee-links.service.js';
import { KeyEmailsService, type Mailer } from './key-emails/key-emails.service.js';
import { mailDeadLetter, type NeverCommittedRule } from './mail-dead-letter.js';
import { notificationsMigrations } from './migrations.js';
import { TrusteeNoticesService } from './trustee-notices/trustee-notices.service.js';
import { TrusteeReportNoticesService } from './trustee-report-notices/trustee-report-notices.service.js';
import { NotificationsController } from './notifications.controller.js';

/** How long a successful SMTP health check is trusted before the next one connects again. */
const SMTP_HEALTH_REMEMBERED_MS = 30_000;

/**
 * notifications: e-mail. Its BullMQ workers take key e-mail jobs, trustee notices and report notices, inactivity warnings and
 * the owners' access-request notices (all queued by access-keys) and send each once over SMTP; it reports sent and failed key e-mails as events, which
 * access-keys shows the owner.
 */
export const notificationsService = defineService({
  name: 'notifications',
  configSchema: notificationsConfigSchema,
  migrations: notificationsMigrations,
  async setup({ config, core, logger }) {
    const transport = nodemailer.createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      ignoreTLS: config.SMTP_IGNORE_TLS,
      ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } } : {}),
    });
    const mailer: Mailer = async (message) => {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
      return { messageId: info.messageId };
    };
    const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'notifications');
    await rpc.connect();
    const producer = createRedisConnection(config.REDIS_URL, { role: 'producer', name: 'notifications' });
    const queue = createQueue(Queues.KeyEmails, producer);
    const keyEmails = new KeyEmailsService({
      orm: core.orm,
      mailer,
      keyMailState: async (keyId) => (await rpc.call(AccessKeysRpc.keyMailState, { key_id: keyId }, { meta: { requestId: `key-email-${keyId}` } })).state,
      keyMailSecret: config.KEY_MAIL_SECRET,
      publicUrl: config.PUBLIC_URL,
      queue,
      limits: { perOwner: config.KEY_EMAILS_PER_OWNER_PER_DAY, perRecipient: config.KEY_EMAILS_PER_RECIPIENT_PER_DAY },
    });
    const workerConnection = createRedisConnection(config.REDIS_URL, { role: 'worker', name: 'notifications' });
    /**
     * A mail worker: sends each job once through its service (attempt numbers from 1), and handles a job
     * out of attempts as mailDeadLetter says (neverCommitted: whether a job whose entity never committed
     * is recorded failed). Locks last KEY_EMAIL_LOCK_SECONDS: a worker that dies mid-send frees its job.
     */
    const mailWorker = <J>(
      queue: DeclaredQueue<J>, what: string, send: (job: J, attempt: number) => Promise<unknown>, recordFailed: (job: J, attempts: number, reason: string) => Promise<void>,
      idOf: (job: J) => Record<string, string>, neverCommitted: NeverCommittedRule,
    ) => {
      const onDeadLetter = mailDeadLetter({ what, logger, neverCommitted, recordFailed, idOf });
      const w = createWorker(queue, (data, job) => send(data, job.attemptsMade + 1), workerConnection, {
        concurrency: config.KEY_EMAIL_CONCURRENCY,
        lockDuration: config.KEY_EMAIL_LOCK_SECONDS * 1000,
        stalledInterval: config.KEY_EMAIL_LOCK_SECONDS * 1000,
        autorun: false,
        onDeadLetter: (job, error, data) => void onDeadLetter(job, error, data),
      });
      w.on('error', (err) => logger.error({ err }, `${what} worker error`));
      return w;
    };
    const worker = mailWorker(Queues.KeyEmails, 'key e-mail', (job, attempt) => keyEmails.send(job, attempt), (job, attempts, reason) => keyEmails.recordFailed(job.keyId, attempts, reason), (job) => ({ keyId: job.keyId }),
      // A milestone key's id is its letter's release id: letters' retried job issues the same key again.
      'leave-open');

    const trusteeNotices = new TrusteeNoticesService({
      orm: core.orm,
      mailer,
      stepState: async (ownerId, releaseId) => (await rpc.call(AccessKeysRpc.trusteeNoticeState, { owner_id: ownerId, release_id: releaseId }, { meta: { requestId: `trustee-notice-${releaseId}` } })).state,
      publicUrl: config.PUBLIC_URL,
    });
    const noticeWorker = mailWorker(Queues.TrusteeNotices, 'trustee notice', (job, attempt) => trusteeNotices.send(job, attempt), (job, attempts, reason) => trusteeNotices.recordFailed(job, attempts, reason), (job) => ({ noticeId: job.noticeId }),
      // `<releaseId>-released`: the release of a committed delivery, retried after a crash, names the same notice.
      'leave-open');

    const inactivityWarnings = new InactivityWarningsService({
      orm: core.orm,
      mailer,
      warningState: async (ownerId, warningId) => (await rpc.call(AccessKeysRpc.inactivityWarningState, { owner_id: ownerId, warning_id: warningId }, { meta: { requestId: `inactivity-warning-${warningId}` } })).state,
      keyMailSecret: config.KEY_MAIL_SECRET,
      publicUrl: config.PUBLIC_URL,
    });
    const warningWorker = mailWorker(
      Queues.InactivityWarnings, 'inactivity warning', (job, attempt) => inactivityWarnings.send(job, attempt), (job, attempts, reason) => inactivityWarnings.recordFailed(job, attempts, reason),
      // A fresh warning id on each attempt of the check: one that never committed is never named again.
      (job) => ({ warningId: job.warningId }), 'record',
    );
    const trusteeLinks = new TrusteeLinksService({
      orm: core.orm,
      mailer,
      linkState: async (ownerId, trusteeId, linkId) =>
        (await rpc.call(AccessKeysRpc.trusteeLinkState, { ownerId, trusteeId, linkId }, { meta: { requestId: `trustee-link-${linkId}` } })).state,
      keyMailSecret: config.KEY_MAIL_SECRET,
      publicUrl: config.PUBLIC_URL,
    });
    const trusteeLinkWorker = mailWorker(
      Queues.TrusteeLinks, 'trustee link', (job, attempt) => trusteeLinks.send(job, attempt), (job, attempts, reason) => trusteeLinks.recordFailed(job, attempts, reason),
      // A fresh link id on each attempt of the command.
      (job) => ({ linkId: job.linkId }), 'record',
    );
    const requestNotices = new AccessRequestNoticesService({
      orm: core.orm,
      mailer,
      noticeState: (ownerId, requestId) => rpc.call(AccessKeysRpc.requestNoticeState, { owner_id: ownerId, request_id: requestId }, { meta: { requestId: `request-notice-${requestId}` } }),
      mailTo: (ownerId) => rpc.call(IdentityRpc.accessRequestMailTo, { user_id: ownerId }, { meta: { requestId: `request-notice-mail-to-${ownerId}` } }),
      publicUrl: config.PUBLIC_URL,
    });
    const requestNoticeWorker = mailWorker(
      Queues.AccessRequestNotices, 'access request notice', (job, attempt) => requestNotices.send(job, attempt), (job, attempts, reason) => requestNotices.recordFailed(job, attempts, reason),
      // A request's id is named by its owner and submission id: the family member's retry saves the same request.
      (job) => ({ requestId: job.requestId }), 'leave-open',
    );
    const reportNotices = new TrusteeReportNoticesService({
      orm: core.orm,
      mailer,
      reportState: (ownerId, reportId) => rpc.call(AccessKeysRpc.trusteeReportNoticeState, { ownerId, reportId }, { meta: { requestId: `trustee-report-${reportId}` } }),
      ownerMailTo: (ownerId) => rpc.call(IdentityRpc.ownerMailTo, { user_id: ownerId }, { meta: { requestId: `trustee-report-mail-to-${ownerId}` } }),
      publicUrl: config.PUBLIC_URL,
    });
    const reportNoticeWorker = mailWorker(
      Queues.TrusteeReportNotices, 'trustee report notice', (job, attempt) => reportNotices.send(job, attempt), (job, attempts, reason) => reportNotices.recordFailed(job, attempts, reason),
      // `<reportId>-withdrawn` and the reminders name a committed report: a retried close, a re-armed reminder, names the same notice.
      (job) => ({ noticeId: job.noticeId }), 'leave-open',
    );
    const accountEmails = new AccountEmailsService({ orm: core.orm, mailer, keyMailSecret: config.KEY_MAIL_SECRET, publicUrl: config.PUBLIC_URL });
    const accountEmailWorker = mailWorker(
      Queues.AccountEmails, 'account e-mail', (job, attempt) => accountEmails.send(job, attempt), (job, attempts, reason) => accountEmails.recordFailed(job, attempts, reason),
      // Its jobs wait on nothing uncommitted (no not-committed case).
      (job) => ({ emailId: job.emailId, kind: job.kind }), 'record',
    );
    // An erased account (identity, after its grace period): the SMTP servers' words about its e-mails replaced.
    const accountErasures = new DurableConsumer({
      name: 'notifications-account-erasures', source: 'identity', events: [IdentityEvents.AccountErased], orm: core.orm, nats: core.nats,
      logger: logger.child({ component: 'account-erasures' }), stackId: process.env.STACK_ID,
      handle: async (em, { data }) => {
        logger.info({ userId: data.userId, ...await eraseOwnerNotices(em, data.userId) }, 'erased the failure reasons of the account\'s e-mails');
      },
    });
    return {
      controllers: [NotificationsController],
      providers: [
        { provide: KeyEmailsService, useValue: keyEmails },
        { provide: TrusteeNoticesService, useValue: trusteeNotices },
        { provide: InactivityWarningsService, useValue: inactivityWarnings },
        { provide: AccessRequestNoticesService, useValue: requestNotices },
        { provide: AccountEmailsService, useValue: accountEmails },
        { provide: TrusteeLinksService, useValue: trusteeLinks },
        { provide: TrusteeReportNoticesService, useValue: reportNotices },
      ],
      health: {
        redis: async () => void (await producer.ping()),
        // verify() opens an SMTP connection each time: its "up" is remembered for 30 s.
        smtp: rememberUp(async () => void (await transport.verify()), SMTP_HEALTH_REMEMBERED_MS),
      },
      // Jobs are taken once the service is ready, and no new one after shutdown begins.
      consumers: [accountErasures, {
        start: () => {
          void worker.run().catch((err: unknown) => logger.error({ err }, 'key e-mail worker stopped'));
          void noticeWorker.run().catch((err: unknown) => logger.error({ err }, 'trustee notice worker stopped'));
          void warningWorker.run().catch((err: unknown) => logger.error({ err }, 'inactivity warning worker stopped'));
          void trusteeLinkWorker.run().catch((err: unknown) => logger.error({ err }, 'trustee link worker stopped'));
          void requestNoticeWorker.run().catch((err: unknown) => logger.error({ err }, 'access request notice worker stopped'));
          void accountEmailWorker.run().catch((err: unknown) => logger.error({ err }, 'account e-mail worker stopped'));
          void reportNoticeWorker.run().catch((err: unknown) => logger.error({ err }, 'trustee report notice worker stopped'));
          return Promise.resolve();
        },
        stop: async () => {
          await Promise.all([worker.close(), noticeWorker.close(), warningWorker.close(), requestNoticeWorker.close(), accountEmailWorker.close(), trusteeLinkWorker.close(), reportNoticeWorker.close()]);
        },
      }],
      close: async () => {
        await rpc.close();
        await queue.close();
        producer.disconnect();
        workerConnection.disconnect();
        transport.close();
      },
    };
  },
});
