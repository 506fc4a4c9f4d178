import nodemailer from 'nodemailer';
import { AccessKeysRpc, QueueNames, type SendKeyEmailJob } from '@lv/contracts';
import { defineService, RpcClient } from '@lv/platform/nest';
import { createQueue, createRedisConnection, createWorker } from '@lv/platform/queues';
import { notificationsConfigSchema } from './config.js';
import { KeyEmailsService, type Mailer } from './key-emails/key-emails.service.js';
import { notificationsMigrations } from './migrations.js';
import { NotificationsController } from './notifications.controller.js';

/**
 * notifications: e-mail. Its BullMQ worker takes key e-mail jobs (queued by access-keys) and sends each
 * key once over SMTP; it reports sent and failed e-mails as events, which access-keys shows the owner.
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
    return {
      controllers: [NotificationsController],
      providers: [{ provide: KeyEmailsService, useValue: keyEmails }],
      health: {
        redis: async () => void (await producer.ping()),
        smtp: async () => void (await transport.verify()),
      },
      // Jobs are taken once the service is ready, and no new one after shutdown begins.
      consumers: [{
        start: () => {
          void worker.run().catch((err: unknown) => logger.error({ err }, 'key e-mail worker stopped'));
          return Promise.resolve();
        },
        stop: () => worker.close(),
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
