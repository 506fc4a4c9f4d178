import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Redis } from 'ioredis';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { createOrm } from '@lv/platform/database';
import { DurableConsumer } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { connectNats, ensureServiceStream, scopedConsumerName, scopedStreamName } from '@lv/platform/messaging';
import { rpcAuthProviders, RpcClient, RpcErrorFilter } from '@lv/platform/nest';
import type { TimelineConfig } from './config.js';
import { timelineMigrations } from './migrations.js';
import { TimelineController } from './timeline.controller.js';
import { TimelineService } from './timeline.service.js';
import { sourceTitles } from './timeline/source-titles.js';
import { TIMELINE_FEEDS } from './timeline/timeline.projection.js';

export const TIMELINE_RESOURCES = Symbol('TIMELINE_RESOURCES');

/**
 * Connections the service owns; opened before Nest starts and closed when it stops. No outbox relay:
 * the timeline appends no events, it reads the other services' streams.
 */
export interface TimelineResources {
  orm: MikroORM;
  redis: Redis;
  nats: NatsConnection;
  rpc: RpcClient;
  logger: Logger;
}

export async function openTimelineResources(config: TimelineConfig, logger: Logger): Promise<TimelineResources> {
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: timelineMigrations, poolMax: config.DATABASE_POOL_MAX, logger });
  const pending = await orm.migrator.getPending();
  if (pending.length) {
    await orm.close();
    throw new Error(`timeline: ${pending.length} pending migration(s); run \`node apps/timeline/dist/main.js migrate\` first`);
  }
  const redis = new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const nats = await connectNats(config.NATS_URL, 'timeline-events');
  // The source streams are created (with their owners' settings) if their services have not started
  // yet, so the durable consumers attach now and read every event once they come.
  for (const feed of TIMELINE_FEEDS) await ensureServiceStream(nats, feed.source, undefined, { replicas: config.JETSTREAM_REPLICAS });
  // vault-media's durable consumer of the timeline it no longer keeps: nothing reads it any more.
  const jsm = await jetstreamManager(nats);
  await jsm.consumers.delete(scopedStreamName('letters'), scopedConsumerName('timeline-from-letters')).catch((err: Error) => {
    if (!String(err.message).includes('not found')) logger.warn({ err }, 'could not remove the old timeline-from-letters consumer; remove it by hand');
  });
  const rpc = new RpcClient(config.NATS_URL, config.RPC_TIMEOUT_MS, 'timeline');
  await rpc.connect();
  return { orm, redis, nats, rpc, logger };
}

/** The durable consumers, one per feed, which a rebuild pauses. */
class TimelineConsumers {
  readonly consumers: DurableConsumer[];

  constructor(resources: TimelineResources) {
    const stackId = process.env.STACK_ID;
    this.consumers = TIMELINE_FEEDS.map((feed) => new DurableConsumer({
      name: feed.consumer,
      source: feed.source,
      subjects: feed.subjects,
      orm: resources.orm,
      nats: resources.nats,
      logger: resources.logger.child({ component: feed.consumer }),
      stackId,
      handle: (em, event, subject) => feed.apply(em, event, subject),
    }));
  }

  async start(): Promise<void> {
    for (const consumer of this.consumers) await consumer.start();
  }

  async stop(): Promise<void> {
    for (const consumer of this.consumers) await consumer.stop().catch(() => undefined);
  }

  async paused<T>(work: () => Promise<T>): Promise<T> {
    await this.stop();
    try {
      return await work();
    } finally {
      await this.start();
    }
  }
}

@Module({})
export class TimelineModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(TIMELINE_RESOURCES) private readonly resources: TimelineResources,
    @Inject(TimelineConsumers) private readonly consumers: TimelineConsumers,
  ) {}

  static forRoot(config: TimelineConfig, resources: TimelineResources, publicKey: string): DynamicModule {
    const verifier = new AccessTokenVerifier(publicKey, new RevokedSessions(resources.redis));
    const consumers = new TimelineConsumers(resources);
    const service = new TimelineService({
      orm: resources.orm,
      nats: resources.nats,
      feeds: TIMELINE_FEEDS,
      titles: sourceTitles(resources.rpc, resources.logger, config.TIMELINE_TITLES_TIMEOUT_MS),
      logger: resources.logger,
      stackId: process.env.STACK_ID,
      pauseConsumers: (work) => consumers.paused(work),
    });
    return {
      module: TimelineModule,
      controllers: [TimelineController],
      providers: [
        { provide: TIMELINE_RESOURCES, useValue: resources },
        { provide: TimelineConsumers, useValue: consumers },
        { provide: TimelineService, useValue: service },
        ...rpcAuthProviders({ accessTokens: verifier, viewerPublicKey: config.VIEWER_JWT_PUBLIC_KEY, redis: resources.redis }),
        { provide: APP_FILTER, useClass: RpcErrorFilter },
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.consumers.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumers.stop();
    await this.resources.rpc.close().catch(() => undefined);
    await this.resources.nats.drain().catch(() => undefined);
    this.resources.redis.disconnect();
    await this.resources.orm.close();
  }
}

export async function loadPublicKey(config: TimelineConfig): Promise<string> {
  return readPem(config.JWT_PUBLIC_KEY);
}
