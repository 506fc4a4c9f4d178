import type { MikroORM } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { VaultMediaEvents, type TranscodeMediaJob } from '@lv/contracts';
import { DurableConsumer } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { enqueue, type TypedQueue } from '@lv/platform/queues';

/**
 * Puts a media-transcoding job on the queue for every saved video or audio item (recordings, Who I
 * Am's uploaded files, final messages), as the hash enqueuer does: from this service's own JetStream
 * stream (the outbox), so a committed save always gets its job, under the recording's id as job id,
 * so a redelivered or republished event adds nothing twice. Images get no playback copy.
 */
export function createTranscodeEnqueuer(options: {
  orm: MikroORM;
  nats: NatsConnection;
  logger: Logger;
  queue: TypedQueue<TranscodeMediaJob>;
  reportToken: (recordingId: string) => string;
  stackId?: string;
}): DurableConsumer<typeof VaultMediaEvents.RecordingSaved> {
  return new DurableConsumer({
    name: 'media-transcoding-enqueuer',
    source: 'vault-media',
    events: [VaultMediaEvents.RecordingSaved],
    orm: options.orm,
    nats: options.nats,
    logger: options.logger.child({ component: 'media-transcoding-enqueuer' }),
    stackId: options.stackId,
    handle: async (_em, event) => {
      const saved = event.data;
      if (saved.type !== 'video' && saved.type !== 'audio') return;
      await enqueue(options.queue, { mediaId: saved.recordingId, bucket: saved.bucket, key: saved.objectKey, type: saved.type, reportToken: options.reportToken(saved.recordingId) }, saved.recordingId);
    },
  });
}
