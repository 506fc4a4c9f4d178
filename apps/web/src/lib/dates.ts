/**
 * Every date and time the SPA shows goes through here (issue 35, "one date format"): the reader's own
 * locale (the browser's language, en-GB when it has none or an unknown one), one date style and one
 * date-time style. A spec fails when a page formats a date itself.
 */

export type DateInput = Date | string | number;

export const FALLBACK_LOCALE = 'en-GB';

/** "5 December 2026" (en-GB), "December 5, 2026" (en-US). */
const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'long' };
/** "5 December 2026 at 14:30" (en-GB), "December 5, 2026 at 2:30 PM" (en-US). */
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short' };
/** The date style with its weekday, for lists grouped by day: "Saturday, 5 December 2026". */
const DAY_HEADING: Intl.DateTimeFormatOptions = { dateStyle: 'full' };
/** The time of an entry listed under its day's heading: "14:30". */
const TIME: Intl.DateTimeFormatOptions = { timeStyle: 'short' };

/** The browser's language when Intl knows it, else en-GB. */
export function readerLocale(): string {
  const language = typeof navigator === 'undefined' ? undefined : navigator.language;
  if (!language) return FALLBACK_LOCALE;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([language])[0] ?? FALLBACK_LOCALE;
  } catch {
    // A malformed tag (RangeError): the fallback.
    return FALLBACK_LOCALE;
  }
}

// Building a formatter costs far more than using one: one per locale, style and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(style: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormat {
  const locale = readerLocale();
  const key = `${locale}|${JSON.stringify(style)}|${timeZone ?? ''}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, timeZone ? { ...style, timeZone } : style);
    formatters.set(key, found);
  }
  return found;
}

function format(value: DateInput, style: Intl.DateTimeFormatOptions, timeZone?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return formatter(style, timeZone).format(date);
}

export interface DateOptions {
  /** A zone to read the instant in (default: the browser's); 'UTC' for values that are a day, not an instant. */
  timeZone?: string;
}

/** A day: "5 December 2026". '' for an invalid date. */
export const formatDate = (value: DateInput, options: DateOptions = {}): string => format(value, DATE, options.timeZone);

/** A moment: "5 December 2026 at 14:30". '' for an invalid date. */
export const formatDateTime = (value: DateInput, options: DateOptions = {}): string => format(value, DATE_TIME, options.timeZone);

/** A calendar day written YYYY-MM-DD, the same day in every zone: "14 May 2034". '' when it is not one. */
export const formatCalendarDay = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? format(`${day}T00:00:00Z`, DATE, 'UTC') : '');

/** The heading of a local day (YYYY-MM-DD, the browser's zone) in a list grouped by day: "Saturday, 5 December 2026". */
export const formatDayHeading = (day: string): string => format(`${day}T12:00:00`, DAY_HEADING);

/** The time of an entry under its day's heading: "14:30". */
export const formatTime = (value: DateInput): string => format(value, TIME);

/** Local calendar day (YYYY-MM-DD) of an ISO timestamp: the key entries are grouped and counted by. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
