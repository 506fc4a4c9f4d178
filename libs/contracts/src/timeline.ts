import type { MediaIntegrity } from './media.js';

// ---------------------------------------------------------------------------------------------
// The vault timeline (spec, section 3: timeline_entries_clean): a read model of every service's
// published events, kept by the timeline service. Words (letter and recording titles) never travel
// in events: they are fetched at read time from each source's batch `titles` call.

export type TimelineSource = 'vault-media' | 'letters' | 'court-journal';
export type TimelineEntryType = 'video' | 'audio' | 'text' | 'letter' | 'document' | 'journal';

export interface TimelineEntry {
  id: string;
  source: TimelineSource;
  type: TimelineEntryType;
  /** 'media' for recordings, 'message' for letters and documents. */
  entry_type: 'media' | 'message';
  title: string;
  /** Object key for media entries, null otherwise. */
  file_path: string | null;
  blob_hash: string | null;
  size: number | null;
  integrity: MediaIntegrity | null;
  word_count: number | null;
  metadata: Record<string, unknown>;
  timestamp: string;
  created_at: string;
}

export interface TimelineRequest {
  limit?: number;
  /** Cursor from a previous page: entries older than it. */
  before?: string;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  nextCursor: string | null;
}

export const TIMELINE_PAGE_DEFAULT = 200;
export const TIMELINE_PAGE_MAX = 500;

/** rpc.timeline.entry: one entry of the caller's vault (NOT_FOUND when it is not theirs or is gone). */
export interface TimelineEntryRequest {
  id: string;
}

/** rpc.timeline.await-entry-gone: waits (at most `timeoutMs`, capped at 10 s) until the entry left the caller's timeline. */
export interface AwaitEntryGoneRequest {
  id: string;
  timeoutMs?: number;
}

export interface AwaitEntryGoneReply {
  /** false when the deadline passed first (the entry leaves once the timeline has read the event). */
  gone: boolean;
}
export const AWAIT_ENTRY_GONE_MAX_MS = 10_000;

/**
 * rpc.<source>.titles: the words of the caller's own items, by id, for one timeline page. Ids of
 * other vaults and unknown ids are omitted (never an error that would tell them apart).
 */
export interface TitlesRequest {
  ids: string[];
}

export interface TitlesReply {
  titles: Record<string, string>;
}

export const TITLES_BATCH_MAX = 500;
