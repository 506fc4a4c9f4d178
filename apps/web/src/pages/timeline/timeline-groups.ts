import type { TimelineEntry } from '@lv/contracts';
import { localDay } from '../../lib/dates.js';

/** The enhanced timeline's filters (second document: /enhanced-timeline). */
export const TIMELINE_FILTERS = [
  { id: 'all', label: 'All' },
  { id: 'video', label: 'Video' },
  { id: 'audio', label: 'Audio' },
  { id: 'letter', label: 'Letters' },
  { id: 'document', label: 'Documents' },
] as const;
export type TimelineFilter = (typeof TIMELINE_FILTERS)[number]['id'];

export function matchesFilter(entry: Pick<TimelineEntry, 'type'>, filter: TimelineFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'document') return entry.type === 'document' || entry.type === 'journal';
  return entry.type === filter;
}

export function countByFilter(entries: readonly Pick<TimelineEntry, 'type'>[]): Record<TimelineFilter, number> {
  const counts = Object.fromEntries(TIMELINE_FILTERS.map((f) => [f.id, 0])) as Record<TimelineFilter, number>;
  for (const entry of entries) for (const { id } of TIMELINE_FILTERS) if (matchesFilter(entry, id)) counts[id]++;
  return counts;
}

export interface DayGroup<T> {
  day: string;
  entries: T[];
}

/** Entries grouped by the day they were saved, newest day first, newest entry first within a day. */
export function groupByDay<T extends Pick<TimelineEntry, 'timestamp'>>(entries: readonly T[]): DayGroup<T>[] {
  const sorted = [...entries].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  const groups: DayGroup<T>[] = [];
  for (const entry of sorted) {
    const day = localDay(entry.timestamp);
    const last = groups.at(-1);
    if (last?.day === day) last.entries.push(entry);
    else groups.push({ day, entries: [entry] });
  }
  return groups;
}
