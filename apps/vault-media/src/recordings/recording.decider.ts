import { MediaMessages, type MediaCollection, type MediaIntegrity, type RecordingEvent, type StoredMediaType } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A recording's stream: `recording-{id}`. An upload starts (object key, declared size, the client's
 * hash), then either completes (RecordingSaved: the object is complete in storage) or is abandoned
 * (client gone, bad header, too large, process died and the sweeper found it). A saved recording is
 * re-hashed by the media-hashing job (verified or mismatch) and can be deleted by its owner.
 */
export interface RecordingState {
  status: 'new' | 'uploading' | 'saved' | 'abandoned' | 'deleted';
  ownerId: string | null;
  collection: MediaCollection;
  type: StoredMediaType | null;
  title: string | null;
  contentType: string | null;
  bucket: string | null;
  objectKey: string | null;
  clientSha256: string | null;
  declaredSize: number | null;
  sha256: string | null;
  integrity: MediaIntegrity;
  /** The hash the last mismatch found (null: the object was missing). */
  mismatchSha256: string | null | undefined;
}

export type RecordingCommand =
  | {
      type: 'StartUpload';
      recordingId: string;
      ownerId: string;
      mediaType: StoredMediaType;
      collection: MediaCollection;
      title: string;
      bucket: string;
      objectKey: string;
      contentType: string;
      clientSha256: string;
      declaredSize: number;
      now: string;
    }
  | { type: 'CompleteUpload'; recordingId: string; ownerId: string; size: number; sha256: string; now: string }
  | { type: 'AbandonUpload'; recordingId: string; reason: string; now: string }
  | { type: 'RecordHashResult'; recordingId: string; sha256: string | null; now: string }
  | { type: 'RetitleRecording'; recordingId: string; ownerId: string; title: string; now: string }
  | { type: 'DeleteRecording'; recordingId: string; ownerId: string; now: string };

export const recordingStreamId = (recordingId: string) => `recording-${recordingId}`;
export const recordingIdOfStream = (streamId: string) => streamId.slice('recording-'.length);
export const RECORDING_STREAM_TYPE = 'recording';

const notFound = () => new DomainError('NOT_FOUND', MediaMessages.notFound);

export const recordingDecider: Decider<RecordingState, RecordingCommand, RecordingEvent> = {
  initialState: () => ({
    status: 'new', ownerId: null, collection: 'vault', type: null, title: null, contentType: null, bucket: null, objectKey: null, clientSha256: null, declaredSize: null, sha256: null, integrity: 'pending', mismatchSha256: undefined,
  }),

  decide(command, state) {
    switch (command.type) {
      case 'StartUpload':
        if (state.status !== 'new') throw new DomainError('CONFLICT', 'This upload was already started.');
        return [{
          type: 'RecordingUploadStarted',
          data: {
            recordingId: command.recordingId, ownerId: command.ownerId, type: command.mediaType, title: command.title, bucket: command.bucket,
            objectKey: command.objectKey, contentType: command.contentType, clientSha256: command.clientSha256, declaredSize: command.declaredSize, startedAt: command.now,
            collection: command.collection,
          },
        }];

      case 'CompleteUpload': {
        if (state.ownerId !== command.ownerId) throw notFound();
        if (state.status === 'saved') throw new DomainError('CONFLICT', 'This recording was already saved.');
        if (state.status !== 'uploading') throw new DomainError('UPLOAD_INCOMPLETE', 'This upload is no longer open. Please save the recording again.');
        // The bytes that arrived must be the bytes the browser hashed: anything else was damaged on the way.
        if (command.sha256 !== state.clientSha256 || command.size !== state.declaredSize) throw new DomainError('UPLOAD_INCOMPLETE');
        return [{
          type: 'RecordingSaved',
          data: {
            recordingId: command.recordingId, ownerId: command.ownerId, type: state.type!, title: state.title!, bucket: state.bucket!, objectKey: state.objectKey!,
            contentType: state.contentType!, size: command.size, sha256: command.sha256, savedAt: command.now, collection: state.collection,
          },
        }];
      }

      case 'AbandonUpload':
        // Idempotent: the sweeper and a failing request may both try; only an open upload closes.
        if (state.status !== 'uploading') return [];
        return [{ type: 'RecordingUploadAbandoned', data: { recordingId: command.recordingId, ownerId: state.ownerId!, reason: command.reason, abandonedAt: command.now } }];

      case 'RecordHashResult': {
        // A late job result for a recording that is gone (or never completed) changes nothing.
        if (state.status !== 'saved') return [];
        if (command.sha256 !== null && command.sha256 === state.sha256) {
          if (state.integrity === 'verified') return [];
          return [{ type: 'RecordingHashVerified', data: { recordingId: command.recordingId, ownerId: state.ownerId!, sha256: command.sha256, verifiedAt: command.now } }];
        }
        if (state.integrity === 'mismatch' && state.mismatchSha256 === command.sha256) return [];
        return [{
          type: 'RecordingHashMismatch',
          data: { recordingId: command.recordingId, ownerId: state.ownerId!, expectedSha256: state.sha256!, actualSha256: command.sha256, detectedAt: command.now },
        }];
      }

      case 'RetitleRecording':
        if (state.status !== 'saved' || state.ownerId !== command.ownerId) throw notFound();
        // The same title again (a double click, a retry) records nothing.
        if (command.title === state.title) return [];
        return [{ type: 'RecordingRetitled', data: { recordingId: command.recordingId, ownerId: command.ownerId, title: command.title, retitledAt: command.now } }];

      case 'DeleteRecording':
        // Someone else's recording, or one that does not exist (any more): the same answer.
        if (state.status !== 'saved' || state.ownerId !== command.ownerId) throw notFound();
        return [{ type: 'RecordingDeleted', data: { recordingId: command.recordingId, ownerId: command.ownerId, bucket: state.bucket!, objectKey: state.objectKey!, deletedAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'RecordingUploadStarted':
        return {
          ...state, status: 'uploading', ownerId: event.data.ownerId, collection: event.data.collection ?? 'vault', type: event.data.type, title: event.data.title, contentType: event.data.contentType, bucket: event.data.bucket, objectKey: event.data.objectKey,
          clientSha256: event.data.clientSha256, declaredSize: event.data.declaredSize,
        };
      case 'RecordingSaved':
        return { ...state, status: 'saved', sha256: event.data.sha256, integrity: 'pending' };
      case 'RecordingUploadAbandoned':
        return { ...state, status: 'abandoned' };
      case 'RecordingHashVerified':
        return { ...state, integrity: 'verified', mismatchSha256: undefined };
      case 'RecordingHashMismatch':
        return { ...state, integrity: 'mismatch', mismatchSha256: event.data.actualSha256 };
      case 'RecordingRetitled':
        return { ...state, title: event.data.title };
      case 'RecordingDeleted':
        return { ...state, status: 'deleted' };
    }
  },
};
