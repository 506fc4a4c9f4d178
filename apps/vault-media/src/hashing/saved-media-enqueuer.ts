import type { MikroORM } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { VaultMediaEvents, type EventData } from '@lv/contracts';
import { DurableConsumer } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { enqueue, type TypedQueue } from '@lv/platform/queues';

export interface SavedMediaEnqueuerOptions<J> {
  orm: MikroORM;
  nats: NatsConnection;
  logger: Logger;
  queue: TypedQueue<J>;
  reportToken: (recordingId: string) => string;
  stackId?: string;
}

/**
 * Puts a job on the queue for every saved item `jobFor` answers one for (null: none). It reads
 * RecordingSaved from this service's own JetStream stream, i.e. from the outbox, rather than enqueueing
 * right after the request's commit: an event that is committed is enqueued even if the process dies the
 * next instant (the outbox relays it when any replica comes back, and the durable consumer redelivers
 * until the job is added). The job id is the recording id, so a redelivered event or a republished one
 * adds nothing twice; the inbox makes the consumer itself idempotent too.
 */
export function createSavedMediaEnqueuer<J>(
  name: string,
  options: SavedMediaEnqueuerOptions<J>,
  jobFor: (saved: EventData<typeof VaultMediaEvents.RecordingSaved>, reportToken: string) => J | null,
): DurableConsumer<typeof VaultMediaEvents.RecordingSaved> {
  return new DurableConsumer({
    name,
    source: 'vault-media',
    events: [VaultMediaEvents.RecordingSaved],
    orm: options.orm,
    nats: options.nats,
    logger: options.logger.child({ component: name }),
    stackId: options.stackId,
    handle: async (_em, event) => {
      const saved = event.data;
      const job = jobFor(saved, options.reportToken(saved.recordingId));
      if (job) await enqueue(options.queue, job, saved.recordingId);
    },
  });
}
