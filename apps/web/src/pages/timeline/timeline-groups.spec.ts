import { describe, expect, it } from '@jest/globals';
import { localDay } from '../../lib/dates.js';
import { countByFilter, groupByDay, matchesFilter } from './timeline-groups.js';

const at = (y: number, m: number, d: number, h: number) => new Date(y, m - 1, d, h).toISOString();

describe('enhanced timeline grouping', () => {
  it('groups by local day, newest day and entry first', () => {
    const entries = [
      { id: 'a', type: 'video' as const, timestamp: at(2026, 12, 1, 9) },
      { id: 'b', type: 'letter' as const, timestamp: at(2026, 12, 2, 8) },
      { id: 'c', type: 'audio' as const, timestamp: at(2026, 12, 1, 18) },
    ];
    const groups = groupByDay(entries);
    expect(groups.map((g) => g.day)).toEqual(['2026-12-02', '2026-12-01']);
    expect(groups[1]!.entries.map((e) => e.id)).toEqual(['c', 'a']);
    expect(localDay(at(2026, 1, 5, 23))).toBe('2026-01-05');
  });

  it('filters and counts by type', () => {
    const entries = [{ type: 'video' as const }, { type: 'audio' as const }, { type: 'letter' as const }, { type: 'video' as const }, { type: 'journal' as const }];
    expect(countByFilter(entries)).toEqual({ all: 5, video: 2, audio: 1, letter: 1, document: 1 });
    expect(matchesFilter({ type: 'audio' }, 'video')).toBe(false);
    expect(matchesFilter({ type: 'audio' }, 'all')).toBe(true);
  });
});
