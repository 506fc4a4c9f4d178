import type { HashMediaJob, VaultMediaEvents } from '@lv/contracts';
import type { DurableConsumer } from '@lv/platform/event-store';
import { createSavedMediaEnqueuer, type SavedMediaEnqueuerOptions } from './saved-media-enqueuer.js';

/** Puts a media-hashing job on the queue for every saved recording (see createSavedMediaEnqueuer). */
export function createHashEnqueuer(options: SavedMediaEnqueuerOptions<HashMediaJob>): DurableConsumer<typeof VaultMediaEvents.RecordingSaved> {
  return createSavedMediaEnqueuer('media-hashing-enqueuer', options, (saved, reportToken) => ({ mediaId: saved.recordingId, bucket: saved.bucket, key: saved.objectKey, reportToken }));
}
