// ---------------------------------------------------------------------------------------------
// The vault timeline (spec, section 3: timeline_entries_clean): a read model of every service's
// published events, kept by the timeline service. Words (letter and recording titles) never travel
// in events: they are fetched at read time from each source's batch `titles` call.
// Wire shapes (zod, types inferred): timeline.schemas.ts.

export const TIMELINE_SOURCES = ['vault-media', 'letters', 'court-journal'] as const;
export type TimelineSource = (typeof TIMELINE_SOURCES)[number];
export const TIMELINE_ENTRY_TYPES = ['video', 'audio', 'text', 'letter', 'document', 'journal'] as const;
export type TimelineEntryType = (typeof TIMELINE_ENTRY_TYPES)[number];

/** Page size of the timeline (default and maximum). */
export const TIMELINE_PAGE_DEFAULT = 200;
export const TIMELINE_PAGE_MAX = 500;

/** The longest rpc.timeline.await-entry-gone waits. */
export const AWAIT_ENTRY_GONE_MAX_MS = 10_000;

/** Ids per rpc.<source>.titles call (one timeline page at most). */
export const TITLES_BATCH_MAX = 500;
