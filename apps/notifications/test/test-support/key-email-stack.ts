import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AccessKeysRpc, Queues, type SendKeyEmailJob } from '@lv/contracts';
import { scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import { queuePrefix } from '@lv/platform/queues';
import { createTestDatabase, generateTestKeys, type TestDatabase } from '@lv/testing';
import { startSmtpCatcher, type RunningSmtpCatcher } from '../../../../tools/dev/smtp-catcher.mjs';
import { notificationsMigrations } from '../../src/migrations.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** What notifications' key e-mail worker needs around it in a spec: its database, an SMTP catcher, its queue. */
export interface KeyEmailStack {
  db: TestDatabase;
  catcher: RunningSmtpCatcher;
  queue: Queue<SendKeyEmailJob>;
  /** The service's environment for this stack (extra settings over the defaults). */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/**
 * Real PostgreSQL, Redis and NATS, the dev SMTP catcher, and access-keys' key-mail-state answered by a
 * stand-in on NATS that calls every key active.
 */
export async function startKeyEmailStack(stackId: string, name: string, keyMailSecret: string): Promise<KeyEmailStack> {
  const keys = generateTestKeys();
  const mailDir = await mkdtemp(join(tmpdir(), `lv-${name}-mail-`));
  const catcher = await startSmtpCatcher({ smtpPort: 0, httpPort: 0, directory: mailDir });
  const db = await createTestDatabase(notificationsMigrations.slice(1), name.replaceAll('-', ''));
  const nc: NatsConnection = await connect({ servers: NATS_URL });
  nc.subscribe(scopedSubject(AccessKeysRpc.keyMailState, stackId), {
    callback: (_err, msg) => {
      msg.respond(JSON.stringify({ response: { state: 'active' }, isDisposed: true, id: msg.json<{ id: string }>().id }));
    },
  });
  await nc.flush();
  const redis = new Redis(REDIS_URL);
  const queue = new Queue<SendKeyEmailJob>(Queues.KeyEmails.name, { connection: redis, prefix: queuePrefix(stackId) });
  return {
    db, catcher, queue,
    env: (extra = {}) => ({
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(catcher.smtpPort),
      SMTP_IGNORE_TLS: 'true', KEY_MAIL_SECRET: keyMailSecret, PUBLIC_URL: 'http://127.0.0.1:3999', ...extra,
    }),
    async close() {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await (await jetstreamManager(nc)).streams.delete(scopedStreamName('notifications', stackId)).catch(() => undefined);
      await nc.close();
      redis.disconnect();
      await catcher.close();
      await db.drop();
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}
