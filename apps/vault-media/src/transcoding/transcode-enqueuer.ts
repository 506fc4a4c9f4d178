import type { TranscodeMediaJob, VaultMediaEvents } from '@lv/contracts';
import type { DurableConsumer } from '@lv/platform/event-store';
import { createSavedMediaEnqueuer, type SavedMediaEnqueuerOptions } from '../hashing/saved-media-enqueuer.js';

/**
 * Puts a media-transcoding job on the queue for every saved video or audio item (recordings, Who I Am's
 * uploaded files, final messages), as the hash enqueuer does (createSavedMediaEnqueuer). Images get no
 * playback copy.
 */
export function createTranscodeEnqueuer(options: SavedMediaEnqueuerOptions<TranscodeMediaJob>): DurableConsumer<typeof VaultMediaEvents.RecordingSaved> {
  return createSavedMediaEnqueuer('media-transcoding-enqueuer', options, (saved, reportToken) =>
    saved.type === 'video' || saved.type === 'audio' ? { mediaId: saved.recordingId, bucket: saved.bucket, key: saved.objectKey, type: saved.type, reportToken } : null);
}
