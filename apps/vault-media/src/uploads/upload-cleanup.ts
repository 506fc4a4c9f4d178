import { posterKeyOf, renditionKeyOf } from '@lv/contracts';
import type { MediaPorts } from '../media.ports.js';
import type { MediaObjectRow } from './media-objects.repository.js';

/** A removal another request is doing right now is left to it for this long before the sweeper retries it. */
const REMOVAL_GRACE_MS = 30_000;

type CleanupPorts = Pick<MediaPorts, 'streams' | 'objects' | 'storage' | 'logger' | 'uploadStaleSeconds' | 'resumableStaleSeconds' | 'now'>;

/** Removes an object marked for removal (its multipart upload first, if one was left open), then marks it removed. */
function ignoreMissing(err: unknown): void {
  const code = (err as { code?: string })?.code;
  if (code !== 'NoSuchKey' && code !== 'NotFound') throw err;
}

export async function removeObject(ports: Pick<MediaPorts, 'objects' | 'storage'>, row: Pick<MediaObjectRow, 'recording_id' | 'bucket' | 'object_key' | 'multipart_upload_id'>): Promise<void> {
  if (row.multipart_upload_id) {
    await ports.storage.abortMultipartUpload(row.bucket, row.object_key, row.multipart_upload_id);
  }
  // The playback copy and poster (media-transcoding) go with the original; most items have none yet, or never will.
  for (const derived of [renditionKeyOf(row.object_key), posterKeyOf(row.object_key)]) await ports.storage.removeObject(row.bucket, derived).catch(ignoreMissing);
  await ports.storage.removeObject(row.bucket, row.object_key);
  await ports.objects.markRemoved(row.recording_id);
}

/**
 * Closes an open upload (RecordingUploadAbandoned) and removes whatever reached storage. Only an
 * upload that was still open is touched: a recording saved in the meantime keeps its object.
 * True when this call removed the upload's object.
 */
export function discardUpload(ports: Pick<MediaPorts, 'streams' | 'objects' | 'storage' | 'now'>) {
  return async (recordingId: string, reason: string, options: { objectMayExist?: boolean } = {}): Promise<boolean> => {
    await ports.streams.execute(recordingId, { type: 'AbandonUpload', recordingId, reason, now: new Date(ports.now()).toISOString() }, { actor: { kind: 'system', id: 'vault-media' } },
      (objects) => objects.markRemoving(recordingId, { onlyOpenUpload: true }));
    const row = await ports.objects.find(recordingId);
    if (row?.state === 'removing') {
      await removeObject(ports, row);
      return true;
    }
    // The request that wrote the object failed after a sweeper had already closed its upload (the
    // client had stalled past MEDIA_UPLOAD_STALE_SECONDS, then finished): its late object goes too.
    if (options.objectMayExist && row && row.state === 'removed') await ports.storage.removeObject(row.bucket, row.object_key);
    return false;
  };
}

/**
 * Cleans up after processes that died: uploads with no progress for MEDIA_UPLOAD_STALE_SECONDS are
 * abandoned (their multipart upload aborted, any object removed), and removals that did not finish
 * are retried. Replicas may sweep at once: the repository claims each row for one sweeper.
 */
export function sweepUploads(ports: CleanupPorts) {
  const discard = discardUpload(ports);
  // `at`: the moment the sweep judges from (its clock by default); a spec asks "as of a stale time from now".
  return async (at: number = ports.now()): Promise<{ abandoned: number; removed: number }> => {
    const staleBefore = new Date(at - ports.uploadStaleSeconds * 1000).toISOString();
    const stale = await ports.objects.claimStaleUploads(staleBefore, new Date(at - ports.resumableStaleSeconds * 1000).toISOString());
    let abandoned = 0;
    for (const row of stale) {
      try {
        if (await discard(row.recording_id, `upload stalled: no data for ${ports.uploadStaleSeconds} s, or ${ports.resumableStaleSeconds} s for a resumable one (the uploading process died or the client went away)`)) abandoned++;
      } catch (err) {
        ports.logger.warn({ err, recordingId: row.recording_id }, 'sweeper: could not abandon a stale upload; will retry');
      }
    }
    const removals = await ports.objects.claimUnfinishedRemovals(new Date(at - REMOVAL_GRACE_MS).toISOString());
    let removed = 0;
    for (const row of removals) {
      try {
        await removeObject(ports, row);
        removed++;
      } catch (err) {
        ports.logger.warn({ err, recordingId: row.recording_id, key: row.object_key }, 'sweeper: could not remove an object; will retry');
      }
    }
    if (abandoned || removed) ports.logger.info({ abandoned, removed }, 'sweeper cleaned up after dead uploads');
    return { abandoned, removed };
  };
}
