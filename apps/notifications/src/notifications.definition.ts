import nodemailer from 'nodemailer';
import { AccessKeysRpc, QueueNames, type InactivityWarningJob, type SendKeyEmailJob, type TrusteeNoticeJob } from '@lv/contracts';
import { defineService, RpcClient } from '@lv/platform/nest';
import { createQueue, createRedisConnection, createWorker } from '@lv/platform/queues';
import { notificationsConfigSchema } from './config.js';
import { InactivityWarningsService } from './inactivity-warnings/inactivity-warnings.service.js';
import { KeyEmailsService, type Mailer } from './key-emails/key-emails.service.js';
import { notificationsMigrations } from './migrations.js';
import { TrusteeNoticesService } from './trustee-notices/trustee-notices.service.js';
import { NotificationsController } from './notifications.controller.js';

/**
 * notifications: e-mail. Its BullMQ workers take key e-mail jobs, trustee notices and inactivity warnings
 * (all queued by access-keys) and send each once over SMTP; it reports sent and failed key e-mails as events, which
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
    const queue = createQueue<SendKeyEmailJob>(QueueNames.KeyEmails, producer);
    const keyEmails = new KeyEmailsService({
      orm: core.orm,
      mailer,
      keyMailState: async (keyId) => (await rpc.call(AccessKeysRpc.keyMailState, { key_id: keyId }, { meta: { requestId: `key-email-${keyId}` } })).state,
      keyMailSecret: config.KEY_MAIL_SECRET,
      publicUrl: config.PUBLIC_URL,
      queue,
    });
    const workerConnection = createRedisConnection(config.REDIS_URL, { role: 'worker', name: 'notifications' });
    const worker = createWorker<SendKeyEmailJob>(QueueNames.KeyEmails, (job) => keyEmails.send(job.data, job.attemptsMade + 1), workerConnection, {
      concurrency: config.KEY_EMAIL_CONCURRENCY,
      lockDuration: config.KEY_EMAIL_LOCK_SECONDS * 1000,
      stalledInterval: config.KEY_EMAIL_LOCK_SECONDS * 1000,
      autorun: false,
      onDeadLetter: (job, error) => {
        logger.error({ keyId: (job.data as SendKeyEmailJob).keyId, attempts: job.attemptsMade, err: error }, 'key e-mail failed after every attempt');
        void keyEmails.recordFailed((job.data as SendKeyEmailJob).keyId, job.attemptsMade, error.message).catch((err: unknown) => logger.error({ err }, 'could not record a failed key e-mail'));
      },
    });
    worker.on('error', (err) => logger.error({ err }, 'key e-mail worker error'));

    const trusteeNotices = new TrusteeNoticesService({
      orm: core.orm,
      mailer,
      stepState: async (ownerId, releaseId) => (await rpc.call(AccessKeysRpc.trusteeNoticeState, { owner_id: ownerId, release_id: releaseId }, { meta: { requestId: `trustee-notice-${releaseId}` } })).state,
      publicUrl: config.PUBLIC_URL,
    });
    const noticeWorker = createWorker<TrusteeNoticeJob>(QueueNames.TrusteeNotices, (job) => trusteeNotices.send(job.data, job.attemptsMade + 1), workerConnection, {
      concurrency: config.KEY_EMAIL_CONCURRENCY,
      lockDuration: config.KEY_EMAIL_LOCK_SECONDS * 1000,
      stalledInterval: config.KEY_EMAIL_LOCK_SECONDS * 1000,
      autorun: false,
      onDeadLetter: (job, error) => {
        const notice = job.data as TrusteeNoticeJob;
        logger.error({ noticeId: notice.noticeId, attempts: job.attemptsMade, err: error }, 'trustee notice failed after every attempt');
        void trusteeNotices.recordFailed(notice, job.attemptsMade, error.message).catch((err: unknown) => logger.error({ err }, 'could not record a failed trustee notice'));
      },
    });
    noticeWorker.on('error', (err) => logger.error({ err }, 'trustee notice worker error'));

    const inactivityWarnings = new InactivityWarningsService({
      orm: core.orm,
      mailer,
      warningState: async (ownerId, warningId) => (await rpc.call(AccessKeysRpc.inactivityWarningState, { owner_id: ownerId, warning_id: warningId }, { meta: { requestId: `inactivity-warning-${warningId}` } })).state,
      keyMailSecret: config.KEY_MAIL_SECRET,
      publicUrl: config.PUBLIC_URL,
    });
    const warningWorker = createWorker<InactivityWarningJob>(QueueNames.InactivityWarnings, (job) => inactivityWarnings.send(job.data, job.attemptsMade + 1), workerConnection, {
      concurrency: config.KEY_EMAIL_CONCURRENCY,
      lockDuration: config.KEY_EMAIL_LOCK_SECONDS * 1000,
      stalledInterval: config.KEY_EMAIL_LOCK_SECONDS * 1000,
      autorun: false,
      onDeadLetter: (job, error) => {
        const warning = job.data as InactivityWarningJob;
        logger.error({ warningId: warning.warningId, attempts: job.attemptsMade, err: error }, 'inactivity warning failed after every attempt');
        void inactivityWarnings.recordFailed(warning, job.attemptsMade, error.message).catch((err: unknown) => logger.error({ err }, 'could not record a failed inactivity warning'));
      },
    });
    warningWorker.on('error', (err) => logger.error({ err }, 'inactivity warning worker error'));
    return {
      controllers: [NotificationsController],
      providers: [
        { provide: KeyEmailsService, useValue: keyEmails },
        { provide: TrusteeNoticesService, useValue: trusteeNotices },
        { provide: InactivityWarningsService, useValue: inactivityWarnings },
      ],
      health: {
        redis: async () => void (await producer.ping()),
        smtp: async () => void (await transport.verify()),
      },
      // Jobs are taken once the service is ready, and no new one after shutdown begins.
      consumers: [{
        start: () => {
          void worker.run().catch((err: unknown) => logger.error({ err }, 'key e-mail worker stopped'));
          void noticeWorker.run().catch((err: unknown) => logger.error({ err }, 'trustee notice worker stopped'));
          void warningWorker.run().catch((err: unknown) => logger.error({ err }, 'inactivity warning worker stopped'));
          return Promise.resolve();
        },
        stop: async () => {
          await Promise.all([worker.close(), noticeWorker.close(), warningWorker.close()]);
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
