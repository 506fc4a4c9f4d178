import { isUuid } from '@lv/contracts';

/**
 * Keyset page cursors: where a newest-first list page ends (its last row's sort keys), handed to the
 * client as an opaque token and read back for the next page. The token is base64url of the keys
 * joined by '|', the shape the letters and timeline lists have always sent, so a cursor a client
 * holds keeps working. A token this service did not make decodes to null; the list refuses it.
 */
export interface PageCursor<Position> {
  encode(position: Position): string;
  decode(cursor: string): Position | null;
}

/** The last row of a page of a list ordered by (time, id). */
export interface PagePosition {
  /** An instant as Date#toISOString writes it. */
  timestamp: string;
  id: string;
}

/** The last row of a page of a list merged from several sources, ordered by (time, source, id). */
export interface SourcedPagePosition<Source extends string> extends PagePosition {
  source: Source;
}

// Exactly what toISOString writes: the only form the lists ever put in a cursor.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function pack(keys: readonly string[]): string {
  return Buffer.from(keys.join('|'), 'utf8').toString('base64url');
}

/** The keys a token holds, or null when it does not hold exactly `count` of them. */
function unpack(cursor: string, count: number): string[] | null {
  const keys = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  return keys.length === count ? keys : null;
}

function instant(value: string): string | null {
  const time = ISO_INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function position(timestamp: string, id: string): PagePosition | null {
  const at = instant(timestamp);
  return at !== null && isUuid(id) ? { timestamp: at, id: id.toLowerCase() } : null;
}

/** Cursors of a list ordered by (time, id): `<timestamp>|<id>`. */
export const pageCursor: PageCursor<PagePosition> = {
  encode: ({ timestamp, id }) => pack([timestamp, id]),
  decode(cursor) {
    const keys = unpack(cursor, 2);
    return keys ? position(keys[0] ?? '', keys[1] ?? '') : null;
  },
};

/** Cursors of a list merged from `sources`, ordered by (time, source, id): `<timestamp>|<source>|<id>`. */
export function sourcedPageCursor<Source extends string>(sources: readonly Source[]): PageCursor<SourcedPagePosition<Source>> {
  return {
    encode: ({ timestamp, source, id }) => pack([timestamp, source, id]),
    decode(cursor) {
      const keys = unpack(cursor, 3);
      const source = keys && sources.find((known) => known === keys[1]);
      const at = keys && position(keys[0] ?? '', keys[2] ?? '');
      return source && at ? { ...at, source } : null;
    },
  };
}
