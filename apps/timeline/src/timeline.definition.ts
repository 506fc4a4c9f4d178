import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { MikroORM } from '@mikro-orm/postgresql';
import { DurableConsumer } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { scopedConsumerName, scopedStreamName } from '@lv/platform/messaging';
import { defineService, RpcClient } from '@lv/platform/nest';
import { timelineConfigSchema } from './config.js';
import { timelineMigrations } from './migrations.js';
import { TimelineController } from './timeline.controller.js';
import { TimelineService } from './timeline.service.js';
import { sourceTitles } from './timeline/source-titles.js';
import { TIMELINE_FEEDS } from './timeline/timeline.projection.js';

/** The durable consumers, one per feed, which a rebuild pauses. */
class TimelineConsumers {
  readonly consumers: DurableConsumer[];

  constructor(deps: { orm: MikroORM; nats: NatsConnection; logger: Logger }) {
    const stackId = process.env.STACK_ID;
    this.consumers = TIMELINE_FEEDS.map((feed) => new DurableConsumer({
      name: feed.consumer,
      source: feed.source,
      events: feed.events,
      orm: deps.orm,
      nats: deps.nats,
      logger: deps.logger.child({ component: feed.consumer }),
      stackId,
      handle: (em, event) => feed.apply(em, event),
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

/**
 * timeline: the vault's timeline, a read model of every service's published events. It appends no
 * events of its own; titles are asked of each source at read time, with the reader's own token.
 */
export const timelineService = defineService({
  name: 'timeline',
  configSchema: timelineConfigSchema,
  migrations: timelineMigrations,
  async setup({ config, core, logger }) {
    // The source streams are their owners': a feed whose source has not started yet waits for its stream
    // (DurableConsumer), then reads every event from the first.
    // vault-media's durable consumer of the timeline it no longer keeps: nothing reads it any more. Looked
    // up first (the timeline may read letters' consumers): only one that is there is removed, so a
    // deployment that never had it asks nothing its NATS user may not (deleting is the stream owner's).
    const jsm = await jetstreamManager(core.nats);
    const oldConsumer = [scopedStreamName('letters'), scopedConsumerName('timeline-from-letters')] as const;
    if (await jsm.consumers.info(...oldConsumer).then(() => true, () => false)) {
      await jsm.consumers.delete(...oldConsumer).catch((err: Error) => {
        logger.warn({ err }, 'could not remove the old timeline-from-letters consumer; remove it by hand');
      });
    }
    const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'timeline');
    await rpc.connect();
    const consumers = new TimelineConsumers({ orm: core.orm, nats: core.nats, logger });
    const service = new TimelineService({
      orm: core.orm,
      nats: core.nats,
      feeds: TIMELINE_FEEDS,
      titles: sourceTitles(rpc, logger, config.TIMELINE_TITLES_TIMEOUT_MS),
      logger,
      stackId: process.env.STACK_ID,
      pauseConsumers: (work) => consumers.paused(work),
    });
    return {
      controllers: [TimelineController],
      providers: [{ provide: TimelineService, useValue: service }],
      consumers: [consumers],
      close: () => rpc.close(),
    };
  },
});
