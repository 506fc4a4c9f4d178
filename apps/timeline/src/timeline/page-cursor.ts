import type { TimelineSource } from '@lv/contracts';

/** Where a page ends: the last entry's (timestamp, source, id), the keyset the next page starts below. */
export interface PagePosition {
  timestamp: string;
  source: TimelineSource;
  id: string;
}

const SOURCES: readonly string[] = ['vault-media', 'letters', 'court-journal'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opaque to clients: base64url of `<timestamp ISO>|<source>|<id>`. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.timestamp}|${position.source}|${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one this service made (the caller gets a validation error). */
export function decodeCursor(cursor: string): PagePosition | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 3) return null;
  const [timestamp, source, id] = parts as [string, string, string];
  if (Number.isNaN(Date.parse(timestamp)) || !SOURCES.includes(source) || !UUID.test(id)) return null;
  return { timestamp: new Date(timestamp).toISOString(), source: source as TimelineSource, id: id.toLowerCase() };
}
