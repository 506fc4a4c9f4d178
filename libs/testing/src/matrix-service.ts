import { jetstreamManager } from '@nats-io/jetstream';
import { SERVICES } from '@lv/contracts';
import { createLogger } from '@lv/platform/logging';
import { connectNats, scopedStreamName } from '@lv/platform/messaging';
import { migrateService, startService, type RunningService, type ServiceConfig, type ServiceDefinition } from '@lv/platform/nest';
import { createTestDatabase, type TestDatabase } from './database.js';
import { generateTestKeys, uniqueStackId, type TestKeys } from './keys.js';
import { MatrixCallers, type MatrixTarget } from './reader-matrix.js';

export interface MatrixServiceOptions<C extends ServiceConfig> {
  /** Names the spec's database and STACK_ID. */
  label: string;
  /** Loads the service: called once STACK_ID is set, since a controller's subjects are fixed when it loads. */
  definition: () => Promise<ServiceDefinition<C>>;
  /** What the service needs beside its database, NATS, Redis and token keys. */
  env?: Record<string, string>;
  /** The access token keys, when the service needs their private half too (identity signs access tokens). */
  accessTokenKeys?: TestKeys;
  /** The viewer token keys, when the service needs their private half too (access-keys signs viewer tokens). */
  viewerKeys?: TestKeys;
}

export interface MatrixService<C extends ServiceConfig = ServiceConfig> extends MatrixTarget {
  running: RunningService<C>;
  db: TestDatabase;
  /** Stops the service and removes its database and its stack's streams. */
  close(): Promise<void>;
}

/**
 * One service for a reader matrix spec, on the machine's PostgreSQL, NATS and Redis: a stack of its
 * own, a fresh database migrated as in production, and the matrix's callers.
 */
export async function startMatrixService<C extends ServiceConfig>(options: MatrixServiceOptions<C>): Promise<MatrixService<C>> {
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  process.env.STACK_ID = uniqueStackId(options.label);
  const definition = await options.definition();
  const keys = options.accessTokenKeys ?? generateTestKeys();
  const viewerKeys = options.viewerKeys ?? generateTestKeys();
  const db = await createTestDatabase([], options.label);
  await db.orm.close();
  const env = {
    DATABASE_URL: db.url, NATS_URL: natsUrl, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'silent',
    ...options.env,
  };
  const logger = createLogger(`${options.label}-matrix`, 'silent');
  await migrateService(definition, env, logger);
  const running = await startService(definition, env, { logger });
  const callers = await MatrixCallers.open({ accessTokenKey: keys.privateKey, viewerKeys, redis: running.core.redis, natsUrl });
  return {
    app: running.app, running, db, callers,
    async close() {
      await callers.close();
      await running.close();
      const nc = await connectNats(natsUrl, 'matrix-cleanup');
      const streams = await jetstreamManager(nc);
      for (const service of SERVICES) await streams.streams.delete(scopedStreamName(service)).catch(() => undefined);
      await nc.close();
      await db.drop();
    },
  };
}
