// vault-media's subjects: its RPC (recordings, Who I Am media, final messages, the music library) and its events.
import { z } from 'zod';
import {
  libraryTrackSchema, musicTracksSchema, musicUploadTicketSchema, removedMusicTrackSchema, removeMusicTrackPayloadSchema, startMusicUploadPayloadSchema,
} from './community.schemas.js';
import { finalEntriesSchema } from './if-im-not-there.schemas.js';
import {
  deleteEntryReplySchema, entryByIdPayloadSchema, exportListPayloadSchema, exportListSchema, listRecordingsPayloadSchema, playbackGrantSchema, recordingSchema,
  reportHashPayloadSchema, reportHashReplySchema, reportTranscodePayloadSchema, reportTranscodeReplySchema, retitlePayloadSchema, startUploadPayloadSchema, storageByDaySchema, uploadTicketSchema,
} from './media.schemas.js';
import { emptyPayload, healthRpc, rebuildRpc, replayErasuresRpc, rpc, statsRpc } from './rpc.js';
import { titlesPayloadSchema, titlesReplySchema } from './timeline.schemas.js';
import { viewerMediaGrantSchema, viewerMediaPayloadSchema } from './viewer-links.schemas.js';
import { event } from './events.js';
import { MEDIA_COLLECTIONS, STORED_MEDIA_TYPES } from './media.js';

export const VaultMediaRpc = {
  health: healthRpc('vault-media'),
  /** videosSaved (video and audio) and the days recordings were saved. */
  stats: statsRpc('vault-media'),
  startUpload: rpc('rpc.vault-media.start-upload', { payload: startUploadPayloadSchema, reply: uploadTicketSchema }),
  listRecordings: rpc('rpc.vault-media.list-recordings', { payload: listRecordingsPayloadSchema, reply: z.array(recordingSchema) }),
  /** Titles of the owner's final messages (the owner, or a key holder of "If I'm Not There"). */
  finalMessageTitles: rpc('rpc.vault-media.final-message-titles', { payload: emptyPayload, reply: finalEntriesSchema }),
  /** Titles of the owner's Who I Am photo and personal media (the owner, or a key holder of "Who I Am"). */
  portraitMediaTitles: rpc('rpc.vault-media.portrait-media-titles', { payload: emptyPayload, reply: finalEntriesSchema }),
  /** A new title for one of the owner's items (Who I Am's personal media). */
  retitle: rpc('rpc.vault-media.retitle', { payload: retitlePayloadSchema, reply: recordingSchema }),
  deleteEntry: rpc('rpc.vault-media.delete-entry', { payload: entryByIdPayloadSchema, reply: deleteEntryReplySchema }),
  playbackLink: rpc('rpc.vault-media.playback-link', { payload: entryByIdPayloadSchema, reply: playbackGrantSchema }),
  /** A family viewer's link to one item (recording, Who I Am media, final message), signed for its view session. */
  viewerLink: rpc('rpc.vault-media.viewer-link', { payload: viewerMediaPayloadSchema, reply: viewerMediaGrantSchema }),
  /** From the worker's media-hashing job, authorised by the job's report token. */
  reportHash: rpc('rpc.vault-media.report-hash', { payload: reportHashPayloadSchema, reply: reportHashReplySchema }),
  /** From the worker's media-transcoding job (rendition, poster, duration; or the failure), authorised by the job's report token. */
  reportTranscode: rpc('rpc.vault-media.report-transcode', { payload: reportTranscodePayloadSchema, reply: reportTranscodeReplySchema }),
  /** The timeline's batch title lookup: the titles of the reader's own recordings among the ids. */
  titles: rpc('rpc.vault-media.titles', { payload: titlesPayloadSchema, reply: titlesReplySchema }),
  // Operator command (ops CLI).
  rebuildProjections: rebuildRpc('vault-media'),
  replayErasures: replayErasuresRpc('vault-media'),
  /** "Export Vault Data": every item of the caller's, all collections, a page at a time (oldest first). */
  exportList: rpc('rpc.vault-media.export-list', { payload: exportListPayloadSchema, reply: exportListSchema }),
  /** The admin dashboard's storage chart: bytes kept per UTC day over every vault (admins only). */
  adminStorageByDay: rpc('rpc.vault-media.admin.storage-by-day', { payload: emptyPayload, reply: storageByDaySchema }),
  /** The Parent Circle's music library (Pro, Legacy and admins): the playlist, and a link to play one track. */
  musicTracks: rpc('rpc.vault-media.music.list', { payload: emptyPayload, reply: musicTracksSchema }),
  musicPlaybackLink: rpc('rpc.vault-media.music.playback-link', { payload: entryByIdPayloadSchema, reply: playbackGrantSchema }),
  // Operator commands (music:add, music:list, music:remove): the bytes go to vault-media's byte listener, never over NATS.
  musicStartUpload: rpc('rpc.vault-media.op.music-start-upload', { payload: startMusicUploadPayloadSchema, reply: musicUploadTicketSchema }),
  musicLibrary: rpc('rpc.vault-media.op.music-library', { payload: emptyPayload, reply: z.array(libraryTrackSchema) }),
  musicRemove: rpc('rpc.vault-media.op.music-remove', { payload: removeMusicTrackPayloadSchema, reply: removedMusicTrackSchema }),
} as const;


/** Published payloads carry ids, sizes, hashes and times only, never a title (the parent's words stay in vault-media). */
export const VaultMediaEvents = {
  RecordingSaved: event('vault-media.recording.saved.v1', z.object({
    recordingId: z.string(), ownerId: z.string(), type: z.enum(STORED_MEDIA_TYPES), bucket: z.string(), objectKey: z.string(), size: z.number().int().min(0), sha256: z.string(), savedAt: z.string(),
    /** Absent: 'vault' (events published before final messages existed). The timeline lists only the vault's. */
    collection: z.enum(MEDIA_COLLECTIONS).optional(),
  })),
  RecordingHashVerified: event('vault-media.recording.hash-verified.v1', z.object({ recordingId: z.string(), ownerId: z.string(), verifiedAt: z.string() })),
  RecordingHashMismatch: event('vault-media.recording.hash-mismatch.v1', z.object({ recordingId: z.string(), ownerId: z.string(), detectedAt: z.string() })),
  RecordingDeleted: event('vault-media.recording.deleted.v1', z.object({ recordingId: z.string(), ownerId: z.string(), deletedAt: z.string() })),
} as const;

