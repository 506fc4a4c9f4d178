import type { EntityManager } from '@mikro-orm/postgresql';
import type { MediaIntegrity, TimelineEntry, TimelineEntryType, TimelineSource } from '@lv/contracts';
import type { SourcedPagePosition } from '@lv/platform/paging';

interface TimelineRow {
  id: string;
  source: TimelineSource;
  type: TimelineEntryType;
  entry_type: 'media' | 'message';
  file_path: string | null;
  blob_hash: string | null;
  size: string | null;
  integrity: MediaIntegrity | null;
  word_count: number | null;
  metadata: Record<string, unknown> | null;
  timestamp: Date | string;
  created_at: Date | string;
}

/** An entry without its title (titles are the sources' words, fetched per page). */
export type UntitledEntry = Omit<TimelineEntry, 'title'>;

const COLUMNS = `id, source, type, entry_type, file_path, blob_hash, size::text as size, integrity, word_count, metadata, "timestamp", created_at`;

const toEntry = (row: TimelineRow): UntitledEntry => ({
  id: row.id,
  source: row.source,
  type: row.type,
  entry_type: row.entry_type,
  file_path: row.file_path,
  blob_hash: row.blob_hash,
  size: row.size === null ? null : Number(row.size),
  integrity: row.integrity,
  word_count: row.word_count,
  metadata: row.metadata ?? {},
  timestamp: new Date(row.timestamp).toISOString(),
  created_at: new Date(row.created_at).toISOString(),
});

/** `and source in (...)` for the given sources (their values appended to `params`); nothing without them. A source list of none matches no row. */
function sourcesClause(sources: readonly TimelineSource[] | undefined, params: unknown[]): string {
  if (!sources) return '';
  if (!sources.length) return 'and false';
  params.push(...sources);
  return `and source in (${sources.map(() => '?').join(', ')})`;
}

/** The SQL of the timeline's reads: the service stays free of it. */
export class TimelineRepository {
  /**
   * One page of a vault, newest first, below `after` when given. The order (timestamp, source, id),
   * all descending, is total, so pages never repeat or skip an entry; the partial index serves it.
   * With `sources`, only entries of those sources (a viewer's, by the sections his key opens).
   */
  async page(em: EntityManager, ownerId: string, limit: number, after: SourcedPagePosition<TimelineSource> | null, sources?: readonly TimelineSource[]): Promise<UntitledEntry[]> {
    const params: unknown[] = [ownerId];
    // A viewer's page holds only the sources his key opens, so it is as full as an owner's.
    const only = sourcesClause(sources, params);
    let below = '';
    if (after) {
      below = `and ("timestamp", source, id) < (?::timestamptz, ?, ?::uuid)`;
      params.push(after.timestamp, after.source, after.id);
    }
    params.push(limit);
    const rows = await em.execute<TimelineRow[]>(
      `select ${COLUMNS} from timeline_entries
        where owner_id = ? and deleted_at is null ${only} ${below}
        order by "timestamp" desc, source desc, id desc
        limit ?`,
      params,
    );
    return rows.map(toEntry);
  }

  /** The owner's live entry with this id (from any source, or from one of `sources` when given), or null. */
  async find(em: EntityManager, ownerId: string, id: string, sources?: readonly TimelineSource[]): Promise<UntitledEntry | null> {
    const params: unknown[] = [ownerId, id];
    const only = sourcesClause(sources, params);
    const [row] = await em.execute<TimelineRow[]>(
      `select ${COLUMNS} from timeline_entries where owner_id = ? and id = ? and deleted_at is null ${only} order by source limit 1`,
      params,
    );
    return row ? toEntry(row) : null;
  }

  /** The UTC days on which the vault has entries (what the timeline shows, counted once). */
  async activeDays(em: EntityManager, ownerId: string): Promise<string[]> {
    const rows = await em.execute<{ day: string }[]>(
      `select distinct to_char("timestamp" at time zone 'UTC', 'YYYY-MM-DD') as day from timeline_entries
        where owner_id = ? and deleted_at is null order by day`,
      [ownerId],
    );
    return rows.map((r) => r.day);
  }

  /** Clears the read model and the inboxes of the given consumers, so a replay applies every event again. */
  async reset(em: EntityManager, consumers: readonly string[]): Promise<void> {
    await em.execute('delete from timeline_entries');
    if (consumers.length) await em.execute(`delete from inbox where consumer in (${consumers.map(() => '?').join(', ')})`, [...consumers]);
  }

  async count(em: EntityManager): Promise<number> {
    const [row] = await em.execute<{ n: string }[]>('select count(*)::text as n from timeline_entries where deleted_at is null');
    return Number(row?.n ?? 0);
  }
}
