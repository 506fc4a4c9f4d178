import type { MikroORM } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { VaultMediaEvents, type HashMediaJob } from '@lv/contracts';
import { DurableConsumer } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { enqueue, type TypedQueue } from '@lv/platform/queues';

/**
 * Puts a media-hashing job on the queue for every saved recording. It reads RecordingSaved from this
 * service's own JetStream stream, i.e. from the outbox, rather than enqueueing right after the
 * request's commit: an event that is committed is enqueued even if the process dies the next
 * instant (the outbox relays it when any replica comes back, and the durable consumer redelivers
 * until the job is added). The job id is the recording id, so a redelivered event or a republished
 * one adds nothing twice; the inbox makes the consumer itself idempotent too.
 */
export function createHashEnqueuer(options: {
  orm: MikroORM;
  nats: NatsConnection;
  logger: Logger;
  queue: TypedQueue<HashMediaJob>;
  reportToken: (recordingId: string) => string;
  stackId?: string;
}): DurableConsumer<typeof VaultMediaEvents.RecordingSaved> {
  return new DurableConsumer({
    name: 'media-hashing-enqueuer',
    source: 'vault-media',
    events: [VaultMediaEvents.RecordingSaved],
    orm: options.orm,
    nats: options.nats,
    logger: options.logger.child({ component: 'media-hashing-enqueuer' }),
    stackId: options.stackId,
    handle: async (_em, event) => {
      const saved = event.data;
      await enqueue(options.queue, { mediaId: saved.recordingId, bucket: saved.bucket, key: saved.objectKey, reportToken: options.reportToken(saved.recordingId) }, saved.recordingId);
    },
  });
}
