import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AccessKeysRpc, Queues, type SendKeyEmailJob } from '@lv/contracts';
import { scopedStreamName } from '@lv/platform/messaging';
import { queuePrefix } from '@lv/platform/queues';
import { answerAsService, createTestDatabase, generateTestKeys, type TestDatabase } from '@lv/testing';
import { startSmtpCatcher, type RunningSmtpCatcher } from '../../../../tools/dev/smtp-catcher.mjs';
import { notificationsMigrations } from '../../src/migrations.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** What notifications needs around it in a spec: its database, the dev SMTP catcher, and a NATS connection for the spec's stand-ins. */
export interface MailStack {
  db: TestDatabase;
  catcher: RunningSmtpCatcher;
  /** Answer the services notifications asks with it (answerAsService), then flush. */
  nc: NatsConnection;
  /** The service's environment for this stack (extra settings over the defaults). */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Removes the stack's notifications stream, the catcher's mail, the database. */
  close(): Promise<void>;
}

/** Real PostgreSQL and NATS and the dev SMTP catcher for notifications, on `stackId`. */
export async function startMailStack(stackId: string, name: string, keyMailSecret: string, jwtPublicKey = generateTestKeys().publicKey): Promise<MailStack> {
  const mailDir = await mkdtemp(join(tmpdir(), `lv-${name}-mail-`));
  const catcher = await startSmtpCatcher({ smtpPort: 0, httpPort: 0, directory: mailDir });
  const db = await createTestDatabase(notificationsMigrations.slice(1), name.replaceAll('-', ''));
  const nc: NatsConnection = await connect({ servers: NATS_URL });
  return {
    db, catcher, nc,
    env: (extra = {}) => ({
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: jwtPublicKey, LOG_LEVEL: 'silent', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(catcher.smtpPort),
      SMTP_IGNORE_TLS: 'true', KEY_MAIL_SECRET: keyMailSecret, PUBLIC_URL: 'http://127.0.0.1:3999', ...extra,
    }),
    async close() {
      await (await jetstreamManager(nc)).streams.delete(scopedStreamName('notifications', stackId)).catch(() => undefined);
      await nc.close();
      await catcher.close();
      await db.drop();
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}

/** What notifications' key e-mail worker needs around it in a spec: the mail stack and its queue. */
export interface KeyEmailStack {
  db: TestDatabase;
  catcher: RunningSmtpCatcher;
  queue: Queue<SendKeyEmailJob>;
  /** The service's environment for this stack (extra settings over the defaults). */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** The mail stack, with access-keys' key-mail-state answered by a stand-in that calls every key active. */
export async function startKeyEmailStack(stackId: string, name: string, keyMailSecret: string): Promise<KeyEmailStack> {
  const mail = await startMailStack(stackId, name, keyMailSecret);
  answerAsService(mail.nc, AccessKeysRpc.keyMailState, () => ({ state: 'active' }), stackId);
  await mail.nc.flush();
  const redis = new Redis(REDIS_URL);
  const queue = new Queue<SendKeyEmailJob>(Queues.KeyEmails.name, { connection: redis, prefix: queuePrefix(stackId) });
  return {
    db: mail.db, catcher: mail.catcher, queue, env: mail.env,
    async close() {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      redis.disconnect();
      await mail.close();
    },
  };
}
