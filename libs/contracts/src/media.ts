import { z } from 'zod';

/**
 * Vault media (owner-core spec, sections 2, 3, 4, 5, 7, 8, 9; issue 4): video and audio messages the
 * parent records, uploads, verifies and plays back, and the timeline built from every service's
 * events. A recording is an event stream `recording-{id}` in the vault-media service.
 *
 * Bytes never travel on NATS: the body of an upload streams browser -> gateway -> vault-media ->
 * object storage over HTTP, and playback reads come back the same way with HTTP Range.
 */

export const MEDIA_TYPES = ['video', 'audio'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export function isMediaType(value: unknown): value is MediaType {
  return value === 'video' || value === 'audio';
}

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
/** The bucket and content types of the original application (spec, section 7: storage). */
export const MEDIA_BUCKET = 'vaultmedia';
export const MEDIA_CONTENT_TYPES: Record<MediaType, string> = { video: 'video/webm', audio: 'audio/webm' };

/** Every WebM (Matroska/EBML) file starts with these four bytes. */
export const WEBM_MAGIC = [0x1a, 0x45, 0xdf, 0xa3] as const;

export function hasWebmHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && WEBM_MAGIC.every((b, i) => bytes[i] === b);
}

/** `{userId}/{type}_{timestamp}.webm` in the vaultmedia bucket (spec, section 3). */
export function mediaObjectKey(userId: string, type: MediaType, timestamp: number): string {
  return `${userId}/${type}_${timestamp}.webm`;
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
  notWebm: 'Only WebM video and audio recordings can be saved.',
  tooLarge: (limitBytes: number) => `This recording is too large: the limit is ${megabytes(limitBytes)} MB.`,
  uploadIncomplete: 'The recording did not arrive complete. Please try again.',
  uploadInProgress: 'This recording is already being uploaded.',
  upgradeRequired: 'The timeline and audio messages are part of the Essentials, Pro and Legacy plans.',
  notFound: 'Recording not found',
  fileNotFound: 'File Not Found: The media file could not be located.',
  linkInvalid: 'This media link is not valid for you, or it has expired.',
  invalidEntryId: 'Invalid entry ID',
  cannotDeleteEntry: 'Could not delete this entry',
  integrityMismatch: 'This recording failed its integrity check: the stored file no longer matches what you saved.',
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

// HTTP bodies (gateway) and RPC payloads (rpc.vault-media.*). The owner is never part of a payload:
// vault-media takes it from the verified access token that travels with the request.
//
//   POST   /api/media/uploads              StartUploadRequest -> 201 UploadTicket | 409 DUPLICATE_MEDIA | 413 | 403 UPGRADE_REQUIRED
//   PUT    /api/media/uploads/:id          raw webm body (video/webm | audio/webm) -> 201 Recording | 413 | 415 | 400 UPLOAD_INCOMPLETE
//   GET    /api/media/recordings?limit=10  -> Recording[] (newest first)
//   POST   /api/media/recordings/:id/playback -> PlaybackLink (and the lv_media cookie that binds links to the owner)
//   GET    /api/media/play/:id?u&exp&sig   -> the bytes, with Range (206) support; 403 for an expired, altered or foreign link
//   GET    /api/timeline?limit&before      -> TimelinePage | 403 UPGRADE_REQUIRED
//   DELETE /api/timeline/:id               -> 204 (removes the object and the entry)

/** Page size of the timeline (default and maximum). */
export const TIMELINE_PAGE_DEFAULT = 200;
export const TIMELINE_PAGE_MAX = 500;

/** The integrity values, in the order a recording goes through them. */
export const MEDIA_INTEGRITY = ['pending', 'verified', 'mismatch'] as const;

/** POST /api/media/uploads, validated by the gateway. The title's rules are the spec's (required, at most 100 characters). */
export const startUploadBodySchema = z.object({
  type: z.enum(MEDIA_TYPES, { error: 'Choose video or audio.' }),
  title: z
    .string({ error: MediaMessages.missingInfo })
    .trim()
    .min(1, MediaMessages.missingInfo)
    .refine((t) => Array.from(t).length <= RECORDING_TITLE_MAX, MediaMessages.titleTooLong)
    .meta({ example: 'For your 18th birthday', maxLength: RECORDING_TITLE_MAX }),
  /** SHA-256 of the whole recording, hex, computed by the browser before the body is sent. */
  sha256: z
    .string({ error: 'A SHA-256 of the recording is required.' })
    .regex(/^[0-9a-fA-F]{64}$/, 'A SHA-256 of the recording (64 hex digits) is required.')
    .transform((s) => s.toLowerCase())
    .meta({ description: 'SHA-256 of the whole recording, computed by the browser.' }),
  /** Size in bytes of the body the browser is about to send. */
  size: z.number({ error: 'The recording size is required.' }).int().positive('The recording is empty.').meta({ description: 'Bytes the PUT will send.' }),
});
export type StartUploadRequest = z.input<typeof startUploadBodySchema>;

/** GET /api/media/recordings?limit= */
export const listRecordingsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(RECORDINGS_LIST_LIMIT) });

/** GET /api/timeline?limit=&before= */
export const timelineQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(TIMELINE_PAGE_MAX).optional(),
  before: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page: entries older than it.' }),
});

export const uploadTicketSchema = z.object({
  uploadId: z.uuid(),
  /** Where to PUT the body (through the gateway). */
  uploadUrl: z.string().meta({ example: '/api/media/uploads/0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e' }),
  objectKey: z.string(),
  contentType: z.string(),
  maxBytes: z.number().int(),
});
export type UploadTicket = z.infer<typeof uploadTicketSchema>;

/** One of "Your Recordings" (spec, section 3: vault_entries / timeline_entries_clean). */
export const recordingSchema = z.object({
  id: z.uuid(),
  type: z.enum(MEDIA_TYPES),
  file_type: z.enum(MEDIA_TYPES),
  title: z.string(),
  /** The object key in the vaultmedia bucket. */
  file_path: z.string().meta({ description: 'Object key in the vaultmedia bucket.' }),
  content_type: z.string(),
  size: z.number().int(),
  /** SHA-256 of the content (hex). */
  blob_hash: z.string().meta({ description: 'SHA-256 of the content.' }),
  integrity: z.enum(MEDIA_INTEGRITY).meta({ description: 'Set by the media-hashing job after the save.' }),
  created_at: z.iso.datetime(),
  timestamp: z.iso.datetime(),
});
export type Recording = z.infer<typeof recordingSchema>;

export const playbackLinkSchema = z.object({
  /** Same-origin path of the gateway, signed for this user and recording. */
  url: z.string().meta({ description: 'Same-origin, signed for 3600 s and for you only.' }),
  /** Epoch milliseconds. */
  expiresAt: z.number().meta({ description: 'Epoch milliseconds.' }),
});
export type PlaybackLink = z.infer<typeof playbackLinkSchema>;

/** What the vault-media RPC answers to the gateway: the link, and the owner binding the gateway puts in a cookie. */
export const playbackGrantSchema = playbackLinkSchema.extend({
  binding: z.object({ value: z.string(), maxAgeSeconds: z.number().int() }),
});
export type PlaybackGrant = z.infer<typeof playbackGrantSchema>;

/** The cookie that binds playback links to the signed-in owner (httpOnly, SameSite=Strict, Path=/api/media/play). */
export const MEDIA_BINDING_COOKIE = 'lv_media';
export const MEDIA_PLAY_PATH = '/api/media/play';

// Timeline (spec, section 3: timeline_entries_clean): a projection of every service's events.
export const TIMELINE_SOURCES = ['vault-media', 'letters', 'court-journal'] as const;
export type TimelineSource = (typeof TIMELINE_SOURCES)[number];
export const TIMELINE_ENTRY_TYPES = ['video', 'audio', 'text', 'letter', 'document', 'journal'] as const;
export type TimelineEntryType = (typeof TIMELINE_ENTRY_TYPES)[number];

export const timelineEntrySchema = z.object({
  id: z.uuid(),
  source: z.enum(TIMELINE_SOURCES),
  type: z.enum(TIMELINE_ENTRY_TYPES),
  /** 'media' for recordings, 'message' for letters and documents. */
  entry_type: z.enum(['media', 'message']),
  title: z.string(),
  /** Object key for media entries, null otherwise. */
  file_path: z.string().nullable(),
  blob_hash: z.string().nullable(),
  size: z.number().int().nullable(),
  integrity: z.enum(MEDIA_INTEGRITY).nullable(),
  word_count: z.number().int().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  timestamp: z.iso.datetime(),
  created_at: z.iso.datetime(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelinePageSchema = z.object({
  entries: z.array(timelineEntrySchema),
  nextCursor: z.string().nullable().meta({ description: 'Pass as ?before= for older entries.' }),
});
export type TimelinePage = z.infer<typeof timelinePageSchema>;

export const deleteEntryReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeleteEntryReply = z.infer<typeof deleteEntryReplySchema>;

// RPC payloads (rpc.vault-media.*, VaultMediaRpc in messaging.ts), checked by vault-media too (it does
// not trust its callers). Titles, hashes and sizes are the service's to judge, with the shared messages.
export const startUploadPayloadSchema = z.object({ type: z.enum(MEDIA_TYPES), title: z.string().max(1000), sha256: z.string().max(128), size: z.number() });
export const listRecordingsPayloadSchema = z.object({ limit: z.number().int().min(1).max(100).optional() });
export const timelinePayloadSchema = z.object({ limit: z.number().int().min(1).max(TIMELINE_PAGE_MAX).optional(), before: z.string().max(200).optional() });
export const entryByIdPayloadSchema = z.object({ id: z.string().max(64) });
export type TimelineRequest = z.input<typeof timelinePayloadSchema>;

/** rpc.vault-media.report-hash: the media-hashing worker's result. `sha256` null means the object is gone. */
export const reportHashPayloadSchema = z.object({
  recordingId: z.string().max(64),
  sha256: z.string().regex(SHA256_HEX).nullable(),
  size: z.number().int().min(0).nullable(),
  /** Capability minted by vault-media when it enqueued the job: only that job can report for that recording. */
  reportToken: z.string().max(128),
});
export type ReportHashPayload = z.infer<typeof reportHashPayloadSchema>;

export const reportHashReplySchema = z.object({ recordingId: z.string(), integrity: z.enum([...MEDIA_INTEGRITY, 'ignored']) });
export type ReportHashReply = z.infer<typeof reportHashReplySchema>;

// Events of the stream `recording-{id}`, as vault-media stores them.
export interface RecordingUploadStartedData {
  recordingId: string;
  ownerId: string;
  type: MediaType;
  title: string;
  bucket: string;
  objectKey: string;
  contentType: string;
  clientSha256: string;
  declaredSize: number;
  startedAt: string;
}
export interface RecordingSavedData {
  recordingId: string;
  ownerId: string;
  type: MediaType;
  title: string;
  bucket: string;
  objectKey: string;
  contentType: string;
  size: number;
  /** Computed by vault-media while the bytes streamed through it (equal to the client's hash). */
  sha256: string;
  savedAt: string;
}
export interface RecordingUploadAbandonedData { recordingId: string; ownerId: string; reason: string; abandonedAt: string }
export interface RecordingHashVerifiedData { recordingId: string; ownerId: string; sha256: string; verifiedAt: string }
export interface RecordingHashMismatchData { recordingId: string; ownerId: string; expectedSha256: string; actualSha256: string | null; detectedAt: string }
export interface RecordingDeletedData { recordingId: string; ownerId: string; bucket: string; objectKey: string; deletedAt: string }

export type RecordingEvent =
  | { type: 'RecordingUploadStarted'; data: RecordingUploadStartedData }
  | { type: 'RecordingSaved'; data: RecordingSavedData }
  | { type: 'RecordingUploadAbandoned'; data: RecordingUploadAbandonedData }
  | { type: 'RecordingHashVerified'; data: RecordingHashVerifiedData }
  | { type: 'RecordingHashMismatch'; data: RecordingHashMismatchData }
  | { type: 'RecordingDeleted'; data: RecordingDeletedData };

/** Events that leave the service (VaultMediaEvents). Upload sessions stay private. */
export type PublishedRecordingEventType = 'RecordingSaved' | 'RecordingHashVerified' | 'RecordingHashMismatch' | 'RecordingDeleted';

// What leaves the service on JetStream: ids, sizes, hashes and times, never a title (the parent's
// words stay in vault-media, like a letter's stay in letters).
export interface RecordingSavedV1 { recordingId: string; ownerId: string; type: MediaType; bucket: string; objectKey: string; size: number; sha256: string; savedAt: string }
export interface RecordingHashVerifiedV1 { recordingId: string; ownerId: string; verifiedAt: string }
export interface RecordingHashMismatchV1 { recordingId: string; ownerId: string; detectedAt: string }
export interface RecordingDeletedV1 { recordingId: string; ownerId: string; deletedAt: string }
