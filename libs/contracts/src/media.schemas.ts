import { z } from 'zod';
import { queryInteger, safeText } from './text.schemas.js';
import {
  MEDIA_COLLECTIONS, MEDIA_INTEGRITY, STORED_MEDIA_TYPES, MediaMessages, TRANSCODE_STATUSES, RECORDING_TITLE_MAX, RECORDINGS_LIST_LIMIT, SHA256_HEX,
} from './media.js';

// The shapes of recordings on the wire, as zod schemas (the types are inferred from
// them). Kept apart from media.ts so the SPA, which imports only types and constants from here,
// never bundles zod.
//
//   POST   /api/media/uploads              StartUploadRequest -> 201 UploadTicket | 409 DUPLICATE_MEDIA | 413 | 403 UPGRADE_REQUIRED
//   PUT    /api/media/uploads/:id          raw body in the ticket's format (video/webm | video/mp4 | audio/webm | audio/mp4 | a Who I Am file) -> 201 Recording | 413 | 415 | 400 UPLOAD_INCOMPLETE
//   GET    /api/media/recordings?limit=10&collection=vault|final-messages -> Recording[] (newest first)
//   POST   /api/media/recordings/:id/playback -> PlaybackLink (and the lv_media cookie that binds links to the owner)
//   GET    /api/media/play/:id?u&exp&sig   -> the bytes, with Range (206) support; 403 for an expired, altered or foreign link
//   GET    /api/timeline?limit&before      -> TimelinePage | 403 UPGRADE_REQUIRED
//   DELETE /api/timeline/:id               -> 204 (removes the object and the entry)

/** POST /api/media/uploads, validated by the gateway. The title's rules are the spec's (required, at most 100 characters). */
export const startUploadBodySchema = z.object({
  type: z.enum(STORED_MEDIA_TYPES, { error: 'Choose video or audio.' }),
  title: safeText({ error: MediaMessages.missingInfo })
    .trim()
    .min(1, MediaMessages.missingInfo)
    .refine((t) => Array.from(t).length <= RECORDING_TITLE_MAX, MediaMessages.titleTooLong)
    .meta({ example: 'For your 18th birthday', maxLength: RECORDING_TITLE_MAX }),
  /** SHA-256 of the whole recording, hex, computed by the browser before the body is sent. */
  sha256: safeText({ error: 'A SHA-256 of the recording is required.' })
    .regex(/^[0-9a-fA-F]{64}$/, 'A SHA-256 of the recording (64 hex digits) is required.')
    .transform((s) => s.toLowerCase())
    .meta({ description: 'SHA-256 of the whole recording, computed by the browser.' }),
  /** Size in bytes of the body the browser is about to send. */
  size: z.number({ error: 'The recording size is required.' }).int().positive('The recording is empty.').meta({ description: 'Bytes the PUT will send.' }),
  /** 'final-messages' for the If I'm Not There page's final messages (Pro and Legacy plans); 'vault' otherwise. */
  collection: z.enum(MEDIA_COLLECTIONS, { error: 'Choose where the recording belongs.' }).optional().meta({ description: "Default 'vault'." }),
  /** The file's format: a recording's (video/webm, video/mp4, audio/webm, audio/mp4; default WebM) or a Who I Am file's (image/png, audio/mpeg...). */
  contentType: safeText().max(100).optional().meta({ description: "The file's format (a recording: WebM, the default, or MP4; a Who I Am file: its type); checked against its first bytes." }),
});
export type StartUploadRequest = z.input<typeof startUploadBodySchema>;

/** GET /api/media/recordings?limit= */
export const listRecordingsQuerySchema = z.object({
  limit: queryInteger(1, 100).default(RECORDINGS_LIST_LIMIT),
  collection: z.enum(MEDIA_COLLECTIONS, { error: 'Choose where the recording belongs.' }).default('vault'),
});

/** PATCH /api/media/recordings/:id: a new title (Who I Am's personal media). */
export const retitleBodySchema = z.object({
  title: safeText({ error: MediaMessages.missingInfo })
    .trim()
    .min(1, MediaMessages.missingInfo)
    .refine((t) => Array.from(t).length <= RECORDING_TITLE_MAX, MediaMessages.titleTooLong),
});

export const uploadTicketSchema = z.object({
  uploadId: z.uuid(),
  /** Where to PUT the body (through the gateway). */
  uploadUrl: z.string().meta({ example: '/api/media/uploads/0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e' }),
  /** Or send it here with the tus protocol (HEAD, PATCH): the upload then survives a dropped connection. */
  resumableUrl: z.string().meta({ example: '/api/media/tus/0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e' }),
  objectKey: z.string(),
  contentType: z.string(),
  maxBytes: z.number().int(),
});
export type UploadTicket = z.infer<typeof uploadTicketSchema>;

/** One of "Your Recordings" (spec, section 3: vault_entries / timeline_entries_clean). */
export const recordingSchema = z.object({
  id: z.uuid(),
  type: z.enum(STORED_MEDIA_TYPES),
  file_type: z.enum(STORED_MEDIA_TYPES),
  title: z.string(),
  /** The object key in the vaultmedia bucket. */
  file_path: z.string().meta({ description: 'Object key in the vaultmedia bucket.' }),
  content_type: z.string(),
  size: z.number().int(),
  /** SHA-256 of the content (hex). */
  blob_hash: z.string().meta({ description: 'SHA-256 of the content.' }),
  integrity: z.enum(MEDIA_INTEGRITY).meta({ description: 'Set by the media-hashing job after the save.' }),
  collection: z.enum(MEDIA_COLLECTIONS),
  created_at: z.iso.datetime(),
  timestamp: z.iso.datetime(),
  /** Video and audio only: whether the playback copy (H.264/AAC MP4) is made; 'failed' = the original plays as saved (MediaMessages.transcodeFailed). */
  transcode_status: z.enum(TRANSCODE_STATUSES).optional().meta({ description: "Set by the media-transcoding job: 'failed' means the recording plays only as recorded, where the browser can." }),
  /** Seconds, once the playback copy is made. */
  duration_seconds: z.number().nonnegative().nullable().optional(),
  /** A poster picture is there (a video's playback copy is made): the playback link with `poster=1` serves it. */
  poster: z.boolean().optional(),
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



export const deleteEntryReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeleteEntryReply = z.infer<typeof deleteEntryReplySchema>;

// RPC payloads (rpc.vault-media.*, VaultMediaRpc in media.messaging.ts), checked by vault-media too (it does
// not trust its callers). Titles, hashes and sizes are the service's to judge, with the shared messages.
export const startUploadPayloadSchema = z.object({
  type: z.enum(STORED_MEDIA_TYPES), title: safeText().max(1000), sha256: safeText().max(128), size: z.number(), collection: z.enum(MEDIA_COLLECTIONS).optional(),
  contentType: safeText().max(100).optional(),
});
export const retitlePayloadSchema = z.object({ id: safeText().max(64), title: safeText().max(1000) });
export const listRecordingsPayloadSchema = z.object({ limit: z.number().int().min(1).max(100).optional(), collection: z.enum(MEDIA_COLLECTIONS).optional() });
export const entryByIdPayloadSchema = z.object({ id: safeText().max(64) });

/** rpc.vault-media.report-hash: the media-hashing worker's result. `sha256` null means the object is gone. */
export const reportHashPayloadSchema = z.object({
  recordingId: safeText().max(64),
  sha256: z.string().regex(SHA256_HEX).nullable(),
  size: z.number().int().min(0).nullable(),
  /** Capability minted by vault-media when it enqueued the job: only that job can report for that recording. */
  reportToken: safeText().max(128),
});
export type ReportHashPayload = z.infer<typeof reportHashPayloadSchema>;

export const reportHashReplySchema = z.object({ recordingId: z.string(), integrity: z.enum([...MEDIA_INTEGRITY, 'ignored']) });
export type ReportHashReply = z.infer<typeof reportHashReplySchema>;

/** rpc.vault-media.report-transcode: the media-transcoding worker's result, authorised like report-hash's. */
export const reportTranscodePayloadSchema = z.object({
  recordingId: safeText().max(64),
  reportToken: safeText().max(128),
  result: z.discriminatedUnion('status', [
    z.object({
      status: z.literal('ready'),
      renditionKey: safeText().max(1024),
      renditionSize: z.number().int().positive(),
      renditionContentType: z.enum(['video/mp4', 'audio/mp4']),
      posterKey: safeText().max(1024).nullable(),
      posterSize: z.number().int().positive().nullable(),
      durationSeconds: z.number().nonnegative(),
    }),
    /** The reason is for operators (logs, the queue board); the owner reads MediaMessages.transcodeFailed. */
    z.object({ status: z.literal('failed'), reason: safeText().max(500) }),
  ]),
});
export type ReportTranscodePayload = z.infer<typeof reportTranscodePayloadSchema>;

/** 'ignored': the recording is gone (or not video or audio): the worker removes what it stored for it. */
export const reportTranscodeReplySchema = z.object({ recordingId: z.string(), transcode: z.enum([...TRANSCODE_STATUSES, 'ignored']) });
export type ReportTranscodeReply = z.infer<typeof reportTranscodeReplySchema>;

/** rpc.vault-media.export-list: `after` is the nextCursor of the page before. */
export const EXPORT_LIST_PAGE = 200;
export const exportListPayloadSchema = z.object({ after: safeText().max(200).optional() });
export const exportListSchema = z.object({ items: z.array(recordingSchema), nextCursor: z.string().nullable() });
export type ExportList = z.infer<typeof exportListSchema>;

/** GET /api/admin/storage: bytes (and items) saved per UTC day over every vault, and the running total. */
export const storageByDaySchema = z.object({
  days: z.array(z.object({ day: z.string(), bytes: z.number(), items: z.number().int(), totalBytes: z.number() })),
});
export type StorageByDay = z.infer<typeof storageByDaySchema>;
