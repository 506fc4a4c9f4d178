// ---------------------------------------------------------------------------------------------
// The vault timeline (spec, section 3: timeline_entries_clean): a read model of every service's
// published events, kept by the timeline service. Words (letter and recording titles) never travel
// in events: they are fetched at read time from each source's batch `titles` call.
// Wire shapes (zod, types inferred): timeline.schemas.ts.

import type { ViewSection } from './access-keys.js';

export const TIMELINE_SOURCES = ['vault-media', 'letters', 'court-journal'] as const;
export type TimelineSource = (typeof TIMELINE_SOURCES)[number];

/**
 * The section a key must open for a viewer to see a timeline entry of each source: the recordings are
 * the timeline's own; a letter or a court document shows only to a key that also opens Letters or the
 * Court Journal, so a key limited to the timeline never learns what they hold, not even a title or a day.
 */
export const TIMELINE_SOURCE_SECTIONS = {
  'vault-media': 'timeline',
  letters: 'letters',
  'court-journal': 'court-journal',
} as const satisfies Record<TimelineSource, ViewSection>;

/** The timeline sources a viewer holding these sections sees entries of (none without the timeline itself). */
export function timelineSourcesFor(sections: readonly ViewSection[]): TimelineSource[] {
  if (!sections.includes('timeline')) return [];
  return TIMELINE_SOURCES.filter((source) => sections.includes(TIMELINE_SOURCE_SECTIONS[source]));
}
export const TIMELINE_ENTRY_TYPES = ['video', 'audio', 'text', 'letter', 'document', 'journal'] as const;
export type TimelineEntryType = (typeof TIMELINE_ENTRY_TYPES)[number];

/** Page size of the timeline (default and maximum). */
export const TIMELINE_PAGE_DEFAULT = 200;
export const TIMELINE_PAGE_MAX = 500;

/** The longest rpc.timeline.await-entry-gone waits. */
export const AWAIT_ENTRY_GONE_MAX_MS = 10_000;

/** Ids per rpc.<source>.titles call (one timeline page at most). */
export const TITLES_BATCH_MAX = 500;
