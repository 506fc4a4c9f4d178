import { Redis } from 'ioredis';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceName } from '@lv/contracts';
import { createOrm, type MikroORM, type ServiceMigration } from '../database/index.js';
import { OutboxRelay } from '../event-store/outbox-relay.js';
import type { Logger } from '../logging/index.js';
import type { NatsSettings } from '../messaging/connection.js';
import { connectNats, ensureServiceStream } from '../messaging/jetstream.js';

/** What every event-sourced service holds open: its database, Redis, NATS and its outbox relay. */
export interface ServiceCore {
  orm: MikroORM;
  redis: Redis;
  nats: NatsConnection;
  relay: OutboxRelay;
}

export interface ServiceCoreConfig extends NatsSettings {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  REDIS_URL: string;
  JETSTREAM_REPLICAS: number;
}

/**
 * Opens a service's core connections. Refuses to start on a database with pending migrations
 * (`node apps/<service>/dist/main.js migrate` applies them), and makes sure the service's JetStream
 * stream exists before its relay publishes into it.
 */
export async function openServiceCore(service: ServiceName, config: ServiceCoreConfig, migrations: ServiceMigration[], logger: Logger): Promise<ServiceCore> {
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations, poolMax: config.DATABASE_POOL_MAX, logger });
  const pending = await orm.migrator.getPending();
  if (pending.length) {
    await orm.close();
    throw new Error(`${service}: ${pending.length} pending migration(s); run \`node apps/${service}/dist/main.js migrate\` first`);
  }
  const redis = new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const nats = await connectNats(config, `${service}-events`);
  await ensureServiceStream(nats, service, undefined, { replicas: config.JETSTREAM_REPLICAS });
  const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, nats, logger: logger.child({ component: 'outbox-relay' }), stackId: process.env.STACK_ID });
  return { orm, redis, nats, relay };
}

/** Closes what openServiceCore opened, relay first so nothing publishes into a closing connection. */
export async function closeServiceCore(core: ServiceCore): Promise<void> {
  await core.relay.stop();
  await core.nats.drain().catch(() => undefined);
  core.redis.disconnect();
  await core.orm.close();
}
