import { z } from 'zod';
import { queryInteger, safeText } from './text.schemas.js';
import { MEDIA_INTEGRITY } from './media.js';
import { AWAIT_ENTRY_GONE_MAX_MS, TIMELINE_ENTRY_TYPES, TIMELINE_PAGE_MAX, TIMELINE_SOURCES, TITLES_BATCH_MAX } from './timeline.js';

// The timeline's shapes on the wire, as zod schemas (the types are inferred from them). Kept apart
// from timeline.ts so the SPA, which imports only types and constants, never bundles zod.
//
//   GET    /api/timeline?limit&before      -> TimelinePage | 403 UPGRADE_REQUIRED
//   DELETE /api/timeline/:id               -> 204 (deleted by its owner, vault-media or court-journal; it leaves the timeline)

export const TimelineApiMessages = { before: 'This page cursor is not valid; reload the timeline.' } as const;

/** GET /api/timeline?limit=&before= */
export const timelineQuerySchema = z.object({
  limit: queryInteger(1, TIMELINE_PAGE_MAX).optional(),
  // Empty is refused like letters' cursor: a client that has no cursor leaves it out.
  before: safeText().min(1, TimelineApiMessages.before).max(200, TimelineApiMessages.before).optional().meta({ description: 'nextCursor of the previous page: entries older than it.' }),
});

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
  /** A recording's playback copy is made and it has a poster (a video): the owner's playback link with `poster=1` serves it. */
  poster: z.boolean().optional(),
  /** A recording's length in seconds, once its playback copy is made. */
  duration_seconds: z.number().nonnegative().nullable().optional(),
  timestamp: z.iso.datetime(),
  created_at: z.iso.datetime(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelinePageSchema = z.object({
  entries: z.array(timelineEntrySchema),
  nextCursor: z.string().nullable().meta({ description: 'Pass as ?before= for older entries.' }),
});
export type TimelinePage = z.infer<typeof timelinePageSchema>;

// RPC payloads (rpc.timeline.*, TimelineRpc in timeline.messaging.ts), checked by the timeline too.
export const timelinePayloadSchema = z.object({ limit: z.number().int().min(1).max(TIMELINE_PAGE_MAX).optional(), before: safeText().max(200).optional() });

/** rpc.timeline.entry: one entry of the caller's vault (NOT_FOUND when it is not theirs or is gone). */
export const timelineEntryPayloadSchema = z.object({ id: safeText().max(64) });

/** rpc.timeline.await-entry-gone: waits (at most `timeoutMs`, capped) until the entry left the caller's timeline. */
export const awaitEntryGonePayloadSchema = z.object({ id: safeText().max(64), timeoutMs: z.number().int().min(0).max(AWAIT_ENTRY_GONE_MAX_MS).optional() });
export const awaitEntryGoneReplySchema = z.object({
  /** false when the deadline passed first (the entry leaves once the timeline has read the event). */
  gone: z.boolean(),
});
export type AwaitEntryGoneReply = z.infer<typeof awaitEntryGoneReplySchema>;

/**
 * rpc.<source>.titles: the words of the caller's own items, by id, for one timeline page. Ids of
 * other vaults and unknown ids are omitted (never an error that would tell them apart). Which ids
 * name the caller's items is the source's to decide; the ids are only bounded here.
 */
export const titlesPayloadSchema = z.object({ ids: z.array(safeText().max(64)).max(TITLES_BATCH_MAX) });
export const titlesReplySchema = z.object({
  titles: z.record(z.string(), z.string()),
  /** vault-media only: the recordings among the ids whose playback copy is made, with their poster and length. */
  playback: z.record(z.string(), z.object({ poster: z.boolean(), duration_seconds: z.number().nonnegative().nullable() })).optional(),
});
export type TitlesReply = z.infer<typeof titlesReplySchema>;
