import { projectionFor } from '@lv/platform/event-store';
import type { OpenedRecordingEvent } from './recording-sealing.js';


/**
 * recordings: one row per saved recording, kept in step with the recording streams inside each
 * append. Only RecordingSaved creates a row, and it is appended only once the object is complete in
 * storage: no row ever points at a missing object. Titles arrive opened (see recording-sealing.ts).
 */
export const recordingsProjection = projectionFor<OpenedRecordingEvent>({
  name: 'recordings',
  handles: ['RecordingSaved', 'RecordingHashVerified', 'RecordingHashMismatch', 'RecordingTranscoded', 'RecordingTranscodeFailed', 'RecordingRetitled', 'RecordingDeleted'],

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'RecordingSaved': {
          const d = event.data;
          // Title shredded: the recording was deleted later in the log (a rebuild), so it gets no row.
          if (d.title === null) break;
          await em.execute(
            `insert into recordings (id, user_id, type, title, bucket, object_key, content_type, size, sha256, created_at, collection, transcode_status)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
            [d.recordingId, d.ownerId, d.type, d.title, d.bucket, d.objectKey, d.contentType, d.size, d.sha256, d.savedAt, d.collection ?? 'vault', d.type === 'image' ? null : 'pending'],
          );
          break;
        }
        case 'RecordingHashVerified':
          await em.execute(`update recordings set integrity = 'verified' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingHashMismatch':
          await em.execute(`update recordings set integrity = 'mismatch' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingTranscoded': {
          const d = event.data;
          await em.execute(
            `update recordings set transcode_status = 'ready', rendition_key = ?, rendition_size = ?, rendition_content_type = ?, poster_key = ?, poster_size = ?, duration_seconds = ? where id = ?`,
            [d.renditionKey, d.renditionSize, d.renditionContentType, d.posterKey, d.posterSize, d.durationSeconds, d.recordingId],
          );
          break;
        }
        case 'RecordingTranscodeFailed':
          await em.execute(`update recordings set transcode_status = 'failed' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingRetitled':
          // Shredded (a rebuild after the delete): the row is not there to retitle anyway.
          if (event.data.title !== null) await em.execute('update recordings set title = ? where id = ?', [event.data.title, event.data.recordingId]);
          break;
        case 'RecordingDeleted':
          await em.execute('delete from recordings where id = ?', [event.data.recordingId]);
          break;
        default:
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from recordings');
  },
});
