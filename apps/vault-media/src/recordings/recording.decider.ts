import {
  acceptedContentTypes, baseContentTypeOf, canUseFeature, extensionOf, isMediaCollection, isStoredMediaType, MEDIA_CONTENT_TYPES, MediaMessages, planRequiredMessage, recordingFeature, SHA256_HEX, validateRecordingTitle,
  type GatedFeature, type MediaCollection, type MediaIntegrity, type ReportTranscodePayload, type TranscodeStatus, type MediaType, type RecordingEvent, type StartUploadRequest, type StoredMediaType,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A recording's stream: `recording-{id}`. An upload starts (object key, declared size, the client's
 * hash), then either completes (RecordingSaved: the object is complete in storage) or is abandoned
 * (client gone, bad header, too large, process died and the sweeper found it). A saved recording is
 * re-hashed by the media-hashing job (verified or mismatch), given a playback copy by the
 * media-transcoding job if it is video or audio (transcoded, or failed: it plays as saved), and can be
 * deleted by its owner.
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
  /** The playback copy of a video or audio item (media-transcoding); images have none. */
  transcode: TranscodeStatus;
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
  | { type: 'RecordTranscodeResult'; recordingId: string; result: ReportTranscodePayload['result']; now: string }
  | { type: 'RetitleRecording'; recordingId: string; ownerId: string; title: string; now: string }
  | { type: 'DeleteRecording'; recordingId: string; ownerId: string; now: string };

export const recordingStreamId = (recordingId: string) => `recording-${recordingId}`;
export const recordingIdOfStream = (streamId: string) => streamId.slice('recording-'.length);
export const RECORDING_STREAM_TYPE = 'recording';

const notFound = () => new DomainError('NOT_FOUND', MediaMessages.notFound);
export const NO_LONGER_OPEN = 'This upload is no longer open. Please save the recording again.';

export const recordingDecider: Decider<RecordingState, RecordingCommand, RecordingEvent> = {
  initialState: () => ({
    status: 'new', ownerId: null, collection: 'vault', type: null, title: null, contentType: null, bucket: null, objectKey: null, clientSha256: null, declaredSize: null, sha256: null, integrity: 'pending', mismatchSha256: undefined, transcode: 'pending',
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
        if (state.status !== 'uploading') throw new DomainError('UPLOAD_INCOMPLETE', NO_LONGER_OPEN);
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

      case 'RecordTranscodeResult': {
        // A late result for a recording that is gone, or for an image (no playback copy), changes nothing;
        // a recording already converted keeps its copy (a re-run does nothing), and a failure is marked once.
        if (state.status !== 'saved' || (state.type !== 'video' && state.type !== 'audio') || state.transcode === 'ready') return [];
        const { result } = command;
        if (result.status === 'failed') {
          if (state.transcode === 'failed') return [];
          return [{ type: 'RecordingTranscodeFailed', data: { recordingId: command.recordingId, ownerId: state.ownerId!, reason: result.reason, failedAt: command.now } }];
        }
        const { status: _status, ...made } = result;
        return [{ type: 'RecordingTranscoded', data: { recordingId: command.recordingId, ownerId: state.ownerId!, ...made, transcodedAt: command.now } }];
      }

      case 'RetitleRecording':
        if (state.status !== 'saved' || state.ownerId !== command.ownerId) throw notFound();
        // The same title again (a double click, a retry) records nothing.
        if (command.title === state.title) return [];
        return [{ type: 'RecordingRetitled', data: { recordingId: command.recordingId, ownerId: command.ownerId, title: command.title, retitledAt: command.now } }];

      case 'DeleteRecording':
        // Someone else's recording, or one that never was (or never saved): the same answer.
        if ((state.status !== 'saved' && state.status !== 'deleted') || state.ownerId !== command.ownerId) throw notFound();
        // Its owner deleted it already (a delete sent again after its answer was lost, issue 30): answered as the delete was, nothing recorded.
        if (state.status === 'deleted') return [];
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
      case 'RecordingTranscoded':
        return { ...state, transcode: 'ready' };
      case 'RecordingTranscodeFailed':
        return { ...state, transcode: 'failed' };
      case 'RecordingRetitled':
        return { ...state, title: event.data.title };
      case 'RecordingDeleted':
        return { ...state, status: 'deleted' };
    }
  },
};

/** An upload the service may open: what was asked, checked and normalised. */
export interface AdmittedUpload {
  collection: MediaCollection;
  type: StoredMediaType;
  title: string;
  sha256: string;
  /** What the object is stored as. */
  contentType: string;
  /** The object key's extension. */
  extension: string;
}

/** Refuses what the caller's plan does not include, in the plans table's words for the feature. */
function requireFeature(caller: Caller, feature: GatedFeature): void {
  // A viewer reads under the owner's view session, which access-keys grants only for what the owner's plan includes.
  if (caller.kind === 'viewer') return;
  if (!canUseFeature({ subscription_tier: caller.tier, ai_admin: caller.isAdmin }, feature)) throw new DomainError('UPGRADE_REQUIRED', planRequiredMessage(feature));
}

/**
 * Whether an upload may open, before a byte is sent (the duplicate check, which reads the owner's
 * items, comes after): the fields (one message for all), the format its collection takes, the plan
 * (final messages, video and audio recordings: the plans table) and the size limit, in that order.
 */
export function admitUpload(caller: Caller, request: StartUploadRequest, maxUploadBytes: number): AdmittedUpload {
  const fields: Record<string, string> = {};
  const collection = request.collection ?? 'vault';
  if (!isMediaCollection(collection)) fields.collection = 'Choose where the recording belongs.';
  const recorded = collection === 'vault' || collection === 'final-messages';
  if (!isStoredMediaType(request.type) || (recorded && request.type === 'image')) fields.type = 'Choose video or audio.';
  const { title, error } = validateRecordingTitle(request.title);
  if (error) fields.title = error;
  const sha256 = typeof request.sha256 === 'string' ? request.sha256.toLowerCase() : '';
  if (!SHA256_HEX.test(sha256)) fields.sha256 = 'A SHA-256 of the recording (64 hex digits) is required.';
  if (!Number.isSafeInteger(request.size) || request.size <= 0) fields.size = 'The recording is empty.';
  if (Object.keys(fields).length) {
    throw validationError(fields, fields.title === MediaMessages.missingInfo ? MediaMessages.missingInfo : (fields.title ?? Object.values(fields)[0]));
  }
  const type = request.type as StoredMediaType;
  // A recording is WebM (the default) or MP4 of its type, as the browser recorded it; a Who I Am file is
  // one of the formats its kind takes. Either is checked again on its first bytes.
  const announced = request.contentType ? baseContentTypeOf(request.contentType) : '';
  const contentType = recorded && !announced ? MEDIA_CONTENT_TYPES[type as MediaType] : announced;
  if (!acceptedContentTypes(collection, type).includes(contentType)) {
    throw new DomainError('UNSUPPORTED_MEDIA', collection === 'who-i-am-photo' ? MediaMessages.photoMustBeImage : recorded ? MediaMessages.notARecording : MediaMessages.unsupportedFile);
  }
  if (collection === 'final-messages') requireFeature(caller, 'final-messages');
  // Spec 02, section 9: Pro adds video and audio saving (the plans table); Who I Am's files are Who I Am's.
  if (collection === 'vault') requireFeature(caller, recordingFeature(type as MediaType));
  if (request.size > maxUploadBytes) throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(maxUploadBytes));
  return { collection, type, title, sha256, contentType, extension: extensionOf(contentType) };
}

/**
 * What a single PUT of an upload's body meets: an open upload takes it ('take'); an upload its owner's
 * PUT already saved is the same PUT sent again after its answer was lost (issue 30), answered with the
 * saved recording as the first one was ('answer-saved'), its body not stored again. Anything else is
 * refused as requireOpenUpload says.
 */
export function putBodyOutcome(state: RecordingState, ownerId: string): 'take' | 'answer-saved' {
  if (state.status === 'saved' && state.ownerId === ownerId) return 'answer-saved';
  requireOpenUpload(state, ownerId);
  return 'take';
}

/**
 * Whether an upload's body may be taken now: someone else's upload, or none, is "not found" (ids
 * reveal nothing); a saved one is a duplicate; a closed one is no longer open.
 */
export function requireOpenUpload(state: RecordingState, ownerId: string): void {
  if (state.status === 'new' || state.ownerId !== ownerId) throw notFound();
  if (state.status === 'saved') throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);
  if (state.status !== 'uploading') throw new DomainError('UPLOAD_INCOMPLETE', NO_LONGER_OPEN);
}
