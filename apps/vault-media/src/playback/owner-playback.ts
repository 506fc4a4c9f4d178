import { isUuid, MediaMessages, type PlaybackGrant } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { MediaPorts } from '../media.ports.js';
import type { RecordingRow } from '../recordings/recordings.repository.js';
import { serveObject, type PlayableObject, type PlaybackResponse } from './serve-object.js';

/** A signed link (3600 s) for the owner's recording, and the binding that ties it to them. */
export function playbackLink({ recordings, signer }: Pick<MediaPorts, 'recordings' | 'signer'>) {
  return async (caller: Caller, recordingId: string): Promise<PlaybackGrant> => {
    if (!isUuid(recordingId)) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const row = await recordings.find(recordingId);
    if (!row || row.user_id !== ownerOf(caller).userId) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const owner = ownerOf(caller);
    return { ...signer.signLink(owner.userId, recordingId), binding: signer.signBinding(owner.userId, owner.sessionId) };
  };
}

/**
 * What a playback read serves of a recording: its playback copy (the H.264/AAC MP4 the
 * media-transcoding job made) by default once there is one, the original as saved when asked
 * (`original=1`: the export, a download) or while there is no copy (pending, failed), or the video's
 * poster (`poster=1`; "File Not Found" while there is none). The choice is not part of the signature:
 * a link opens all three of the one recording it was signed for.
 */
export function playableOf(row: RecordingRow, query: Record<string, unknown>): PlayableObject {
  if (query.poster === '1') {
    if (!row.poster_key || row.poster_size === null) throw new DomainError('NOT_FOUND', MediaMessages.fileNotFound);
    return { bucket: row.bucket, objectKey: row.poster_key, contentType: 'image/jpeg', size: Number(row.poster_size) };
  }
  if (query.original !== '1' && row.rendition_key && row.rendition_size !== null && row.rendition_content_type) {
    return { bucket: row.bucket, objectKey: row.rendition_key, contentType: row.rendition_content_type, size: Number(row.rendition_size) };
  }
  return { bucket: row.bucket, objectKey: row.object_key, contentType: row.content_type, size: Number(row.size) };
}

/**
 * Serves a signed link: 403 for an expired, altered or foreign link (or a signed-out session), 404
 * when the recording is gone, 206 for a Range, 416 for a range past the end.
 */
export function openPlayback({ recordings, signer, revokedSessions, storage }: Pick<MediaPorts, 'recordings' | 'signer' | 'revokedSessions' | 'storage'>) {
  return async (recordingId: string, query: Record<string, unknown>, binding: string | undefined, rangeHeader: string | undefined, head = false): Promise<PlaybackResponse> => {
    const grant = signer.authorise(recordingId, query, binding);
    if (typeof grant === 'string') throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    if (revokedSessions && (await revokedSessions.isRevoked(grant.sessionId))) throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    const row = await recordings.find(recordingId);
    if (!row || row.user_id !== grant.userId) throw new DomainError('NOT_FOUND', MediaMessages.fileNotFound);
    return serveObject(storage, playableOf(row, query), rangeHeader, head);
  };
}
