/**
 * Vault media (owner-core spec, sections 2, 3, 4, 5, 7, 8, 9; issue 4): video and audio messages the
 * parent records, uploads, verifies and plays back, and the timeline built from every service's
 * events. A recording is an event stream `recording-{id}` in the vault-media service.
 *
 * Bytes never travel on NATS: the body of an upload streams browser -> gateway -> vault-media ->
 * object storage over HTTP, and playback reads come back the same way with HTTP Range.
 */

import { planRequiredMessage } from './plans.js';

export const MEDIA_TYPES = ['video', 'audio'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/**
 * Where a recording belongs. 'vault' recordings are the Record page's: listed under "Your Recordings"
 * and on the timeline. 'final-messages' are the If I'm Not There page's final messages: kept apart,
 * never on the timeline, and for the Pro and Legacy plans (spec 02, section 6).
 */
export const MEDIA_COLLECTIONS = ['vault', 'final-messages', 'who-i-am', 'who-i-am-photo'] as const;
export type MediaCollection = (typeof MEDIA_COLLECTIONS)[number];

export function isMediaCollection(value: unknown): value is MediaCollection {
  return (MEDIA_COLLECTIONS as readonly unknown[]).includes(value);
}

/**
 * What a stored item is. The recorder makes video and audio (MediaType); Who I Am also keeps images:
 * the profile photo ('who-i-am-photo', one at a time) and personal media ('who-i-am': image, video or
 * audio, uploaded as files).
 */
export const STORED_MEDIA_TYPES = ['video', 'audio', 'image'] as const;
export type StoredMediaType = (typeof STORED_MEDIA_TYPES)[number];

export function isStoredMediaType(value: unknown): value is StoredMediaType {
  return (STORED_MEDIA_TYPES as readonly unknown[]).includes(value);
}

/** The file formats Who I Am takes, by kind; each is checked against the file's first bytes, never its name. */
export const UPLOADED_CONTENT_TYPES: Record<StoredMediaType, readonly string[]> = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  video: ['video/webm', 'video/mp4', 'video/quicktime'],
  audio: ['audio/webm', 'audio/mpeg', 'audio/mp4', 'audio/wav', 'audio/ogg'],
};

/**
 * What the recorder makes, by type: WebM where the browser records it, MP4 where it does not (Safari
 * on iPhones, iPads and Macs: H.264/AAC video, AAC audio as audio/mp4). The first is the default.
 */
export const RECORDED_CONTENT_TYPES: Record<MediaType, readonly string[]> = {
  video: ['video/webm', 'video/mp4'],
  audio: ['audio/webm', 'audio/mp4'],
};

/** The content types a collection takes for a type: recordings are WebM or MP4; Who I Am takes uploaded files. */
export function acceptedContentTypes(collection: MediaCollection, type: StoredMediaType): readonly string[] {
  if (collection === 'who-i-am') return UPLOADED_CONTENT_TYPES[type];
  if (collection === 'who-i-am-photo') return type === 'image' ? UPLOADED_CONTENT_TYPES.image : [];
  return type === 'image' ? [] : RECORDED_CONTENT_TYPES[type];
}

/** A content type without its parameters, lower case: `video/mp4;codecs="avc1,mp4a"` is video/mp4. */
export const baseContentTypeOf = (contentType: string): string => contentType.split(';', 1)[0]!.trim().toLowerCase();

/** The kind of an uploaded file from the type the browser gives it (audio/x-m4a is audio/mp4, audio/x-wav is audio/wav). */
export function uploadedKindOf(browserType: string): { type: StoredMediaType; contentType: string } | null {
  const aliases: Record<string, string> = { 'audio/x-m4a': 'audio/mp4', 'audio/m4a': 'audio/mp4', 'audio/x-wav': 'audio/wav', 'audio/wave': 'audio/wav', 'audio/mp3': 'audio/mpeg', 'image/jpg': 'image/jpeg' };
  const contentType = aliases[browserType.toLowerCase()] ?? browserType.toLowerCase();
  for (const type of STORED_MEDIA_TYPES) if (UPLOADED_CONTENT_TYPES[type].includes(contentType)) return { type, contentType };
  return null;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/webm': 'webm', 'video/mp4': 'mp4', 'video/quicktime': 'mov',
  'audio/webm': 'webm', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'audio/wav': 'wav', 'audio/ogg': 'ogg',
};
export const extensionOf = (contentType: string): string => EXTENSIONS[contentType] ?? 'bin';

/** The If I'm Not There page lists up to this many final messages (and the viewer's tab their titles). */
export const FINAL_MESSAGES_MAX = 100;

/** Recording title: required, at most 100 characters (spec, sections 5 and 9). */
export const RECORDING_TITLE_MAX = 100;
/** "Your Recordings" shows the latest 10 (spec, section 9). */
export const RECORDINGS_LIST_LIMIT = 10;
/** Signed media URL lifetime (spec, section 9). */
export const SIGNED_MEDIA_URL_SECONDS = 3600;
/** The recorder timer ticks once a second (spec, section 9). */
export const RECORDER_TICK_MS = 1000;
/** The success notice stays 5 s; /record-media moves to /timeline 1.5 s after a save. */
export const SAVE_NOTICE_MS = 5000;
export const AFTER_SAVE_REDIRECT_MS = 1500;
/** Default upload limit (vault-media's MEDIA_MAX_UPLOAD_BYTES): 500 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 500 * 1024 * 1024;
/** The bucket and the recordings' default content types (spec, section 7: storage; MP4 where the browser records no WebM). */
export const MEDIA_BUCKET = 'vaultmedia';
export const MEDIA_CONTENT_TYPES: Record<MediaType, string> = { video: 'video/webm', audio: 'audio/webm' };

/** `{userId}/{type}_{timestamp}.webm` in the vaultmedia bucket (spec, section 3); MP4 recordings and Who I Am's files keep their format's extension. */
export function mediaObjectKey(userId: string, type: StoredMediaType, timestamp: number, extension = 'webm'): string {
  return `${userId}/${type}_${timestamp}.${extension}`;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
}

/** The words a person sees about recordings, whichever layer catches the problem (SPA, gateway, service). */
export const MediaMessages = {
  duplicate: 'Duplicate: Recording already exists.',
  missingInfoTitle: 'Missing Info',
  missingInfo: 'Add a title.',
  titleTooLong: `The title can be at most ${RECORDING_TITLE_MAX} characters.`,
  notARecording: 'Only WebM or MP4 video and audio recordings can be saved.',
  tooLarge: (limitBytes: number) => `This recording is too large: the limit is ${megabytes(limitBytes)} MB.`,
  uploadIncomplete: 'The recording did not arrive complete. Please try again.',
  uploadInProgress: 'This recording is already being uploaded.',
  /** A refused gate's words come from the plans table (plans.ts), so they name the plans that include it. */
  timelinePlanRequired: planRequiredMessage('timeline'),
  videoPlanRequired: planRequiredMessage('video-saving'),
  audioPlanRequired: planRequiredMessage('audio-saving'),
  /** After a save: the timeline is named only when the plan includes it (spec 5's words when it does). */
  savedToVaultAndTimeline: 'Your message has been saved to your Vault & Timeline.',
  savedToVault: 'Your message has been saved to your Vault, under Your Recordings.',
  notFound: 'Recording not found',
  fileNotFound: 'File Not Found: The media file could not be located.',
  linkInvalid: 'This media link is not valid for you, or it has expired.',
  invalidEntryId: 'Invalid entry ID',
  cannotDeleteEntry: 'Could not delete this entry',
  finalMessagesPlanRequired: planRequiredMessage('final-messages'),
  unsupportedFile: 'This file type cannot be kept here: choose an image (JPEG, PNG, GIF, WebP), a video (WebM, MP4, MOV) or audio (MP3, M4A, WAV, OGG, WebM).',
  photoMustBeImage: 'The profile photo must be an image (JPEG, PNG, GIF or WebP).',
  notTheAnnouncedFormat: 'This file is not what its type says it is.',
  pictureUnreadable: 'This picture cannot be shown: its file could not be read.',
  uploadFailed: 'Upload failed.',
  deleteFailed: 'Failed to delete file.',
  retitleFailed: 'Could not update image title',
  integrityMismatch: 'This recording failed its integrity check: the stored file no longer matches what you saved.',
  /** The media-transcoding job could not make a playback copy (the file could not be read, or converting it failed for good). */
  transcodeFailed: 'This recording could not be converted to play on every device. It is kept exactly as you saved it, and plays as recorded where your browser can.',
} as const;

/** Trims and checks a recording title: required, at most 100 characters. */
export function validateRecordingTitle(input: unknown): { title: string; error: string | null } {
  const title = typeof input === 'string' ? input.trim() : '';
  if (!title) return { title, error: MediaMessages.missingInfo };
  if (Array.from(title).length > RECORDING_TITLE_MAX) return { title, error: MediaMessages.titleTooLong };
  return { title, error: null };
}

/** Whether the stored bytes were re-hashed by the media-hashing job, and what it found. */
export type MediaIntegrity = (typeof MEDIA_INTEGRITY)[number];

// HTTP bodies (gateway), RPC payloads (rpc.vault-media.*) and replies: media.schemas.ts. The owner
// is never part of a payload: vault-media takes it from the verified access token.

/** The integrity values, in the order a recording goes through them. */
export const MEDIA_INTEGRITY = ['pending', 'verified', 'mismatch'] as const;

/**
 * The playback copy the media-transcoding job makes of each video and audio item: pending until the
 * job reports, ready (a rendition, and a poster for a video), or failed (the original plays as saved).
 */
export const TRANSCODE_STATUSES = ['pending', 'ready', 'failed'] as const;
export type TranscodeStatus = (typeof TRANSCODE_STATUSES)[number];

/** Where a recording's rendition and poster are stored: beside the original, whose key they extend (the original is never touched). */
export const renditionKeyOf = (objectKey: string) => `${objectKey}.rendition.mp4`;
export const posterKeyOf = (objectKey: string) => `${objectKey}.poster.jpg`;

/** The cookie that binds playback links to the signed-in owner (httpOnly, SameSite=Strict, Path=/api/media/play). */
export const MEDIA_BINDING_COOKIE = 'lv_media';
export const MEDIA_PLAY_PATH = '/api/media/play';

// The timeline's types and limits: timeline.ts (the timeline service owns them).

// Events of the stream `recording-{id}`, as vault-media stores them.
export interface RecordingUploadStartedData {
  recordingId: string;
  ownerId: string;
  type: StoredMediaType;
  title: string;
  bucket: string;
  objectKey: string;
  contentType: string;
  clientSha256: string;
  declaredSize: number;
  startedAt: string;
  /** Absent in events written before final messages existed: 'vault'. */
  collection?: MediaCollection;
}
export interface RecordingSavedData {
  recordingId: string;
  ownerId: string;
  type: StoredMediaType;
  title: string;
  bucket: string;
  objectKey: string;
  contentType: string;
  size: number;
  /** Computed by vault-media while the bytes streamed through it (equal to the client's hash). */
  sha256: string;
  savedAt: string;
  /** Absent in events written before final messages existed: 'vault'. */
  collection?: MediaCollection;
}
export interface RecordingUploadAbandonedData { recordingId: string; ownerId: string; reason: string; abandonedAt: string }
export interface RecordingHashVerifiedData { recordingId: string; ownerId: string; sha256: string; verifiedAt: string }
export interface RecordingHashMismatchData { recordingId: string; ownerId: string; expectedSha256: string; actualSha256: string | null; detectedAt: string }
export interface RecordingTranscodedData {
  recordingId: string;
  ownerId: string;
  renditionKey: string;
  renditionSize: number;
  /** video/mp4 or audio/mp4. */
  renditionContentType: string;
  /** Null for audio. */
  posterKey: string | null;
  posterSize: number | null;
  durationSeconds: number;
  transcodedAt: string;
}
export interface RecordingTranscodeFailedData { recordingId: string; ownerId: string; reason: string; failedAt: string }
export interface RecordingRetitledData { recordingId: string; ownerId: string; title: string; retitledAt: string }
export interface RecordingDeletedData { recordingId: string; ownerId: string; bucket: string; objectKey: string; deletedAt: string }

export type RecordingEvent =
  | { type: 'RecordingUploadStarted'; data: RecordingUploadStartedData }
  | { type: 'RecordingSaved'; data: RecordingSavedData }
  | { type: 'RecordingUploadAbandoned'; data: RecordingUploadAbandonedData }
  | { type: 'RecordingHashVerified'; data: RecordingHashVerifiedData }
  | { type: 'RecordingHashMismatch'; data: RecordingHashMismatchData }
  | { type: 'RecordingTranscoded'; data: RecordingTranscodedData }
  | { type: 'RecordingTranscodeFailed'; data: RecordingTranscodeFailedData }
  | { type: 'RecordingRetitled'; data: RecordingRetitledData }
  | { type: 'RecordingDeleted'; data: RecordingDeletedData };

// What leaves the service on JetStream (ids, sizes, hashes and times, never a title): VaultMediaEvents,
// media.messaging.ts. Upload sessions stay private.
