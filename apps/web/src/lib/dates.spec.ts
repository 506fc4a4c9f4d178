import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { formatCalendarDay, formatDate, formatDateTime, formatDayHeading, formatTime, readerLocale } from './dates.js';

const language = (value: string | undefined) => jest.spyOn(navigator, 'language', 'get').mockReturnValue(value as string);

afterEach(() => {
  jest.restoreAllMocks();
});

// 5 December 2026, 14:30 where the spec runs (a local time, so the day and hour do not depend on its zone).
const AT = new Date(2026, 11, 5, 14, 30);

describe('the one date format (issue 35)', () => {
  it('writes a day and a moment in one style each, in the browser’s language', () => {
    language('en-GB');
    expect(formatDate(AT)).toBe('5 December 2026');
    expect(formatDateTime(AT)).toBe('5 December 2026 at 14:30');
    expect(formatTime(AT)).toBe('14:30');
    expect(formatDayHeading('2026-12-05')).toMatch(/^Saturday,? 5 December 2026$/);
    language('en-US');
    expect(formatDate(AT)).toBe('December 5, 2026');
    expect(formatDateTime(AT).replace(/\s/g, ' ')).toBe('December 5, 2026 at 2:30 PM');
    expect(formatDayHeading('2026-12-05')).toBe('Saturday, December 5, 2026');
    language('de-DE');
    expect(formatDate(AT)).toBe('5. Dezember 2026');
  });

  it('never writes a numeric date such as 12/5/2026', () => {
    for (const locale of ['en-US', 'en-GB', 'fr-FR']) {
      language(locale);
      for (const text of [formatDate(AT), formatDateTime(AT), formatDayHeading('2026-12-05')]) expect(text).not.toMatch(/\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}/);
    }
  });

  it('falls back to en-GB when the browser names no language or one Intl does not know', () => {
    for (const value of [undefined, '', 'not a locale!']) {
      language(value);
      expect(readerLocale()).toBe('en-GB');
      expect(formatDate(AT)).toBe('5 December 2026');
    }
  });

  it('takes ISO strings and milliseconds, and gives nothing for an invalid date', () => {
    expect(formatDate('2026-12-05T14:30:00.000Z', { timeZone: 'UTC' })).toBe('5 December 2026');
    expect(formatDateTime(Date.UTC(2026, 11, 5, 14, 30), { timeZone: 'UTC' })).toBe('5 December 2026 at 14:30');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(Number.NaN)).toBe('');
  });

  it('writes a calendar day as that very day in every zone', () => {
    expect(formatCalendarDay('2034-05-14')).toBe('14 May 2034');
    expect(formatCalendarDay('2034-01-01')).toBe('1 January 2034');
    expect(formatCalendarDay('14/05/2034')).toBe('');
  });
});

/** Ways of writing a date that belong in lib/dates.ts only. */
const OWN_FORMATTING: readonly [string, RegExp][] = [
  ['toLocaleDateString', /\.toLocaleDateString\(/],
  ['toLocaleTimeString', /\.toLocaleTimeString\(/],
  ['a Date’s toLocaleString', /Date\([^)]*\)\.toLocaleString\(/],
  ['Intl.DateTimeFormat (other than reading the time zone)', /Intl\.DateTimeFormat\((?!\)\.resolvedOptions\(\)\.timeZone)/],
  ['dateStyle/timeStyle options', /\b(dateStyle|timeStyle)\b/],
  ['a date library', /from '(date-fns|dayjs|moment|luxon)[^']*'/],
  ['an ISO day cut out of a timestamp', /_at\.slice\(0, 10\)|At\.slice\(0, 10\)/],
];

const SRC = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('pages format no dates themselves', () => {
  it('every date and time the SPA shows goes through lib/dates.ts', () => {
    const files = sourceFiles(SRC).filter((file) => relative(SRC, file) !== join('lib', 'dates.ts'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, i) =>
        OWN_FORMATTING.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${relative(SRC, file)}:${i + 1} ${what}`)));
    expect(found).toEqual([]);
  });
});
