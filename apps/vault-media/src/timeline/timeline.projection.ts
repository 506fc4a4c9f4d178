import type { EntityManager } from '@mikro-orm/postgresql';
import {
  LettersEvents, TIMELINE_PAGE_DEFAULT, TIMELINE_PAGE_MAX, type LetterDeletedV1, type LetterRevisedV1, type LetterWrittenV1, type MediaIntegrity,
  type PublishedEvent, type RecordingEvent, type TimelineEntry, type TimelineEntryType, type TimelineSource,
} from '@lv/contracts';
import type { Projection, StoredEvent } from '@lv/platform/event-store';

type Event = StoredEvent<RecordingEvent>;

/**
 * The timeline's media rows, from this service's own recording events, inside each append. Rows of
 * other sources (letters, court documents) come from durable consumers and are left alone by a
 * rebuild of this projection.
 */
export const timelineMediaProjection: Projection = {
  name: 'timeline_entries:vault-media',
  handles: ['RecordingSaved', 'RecordingHashVerified', 'RecordingHashMismatch', 'RecordingDeleted'],

  async apply(em, events) {
    for (const event of events as Event[]) {
      switch (event.type) {
        case 'RecordingSaved': {
          const d = event.data;
          await em.execute(
            `insert into timeline_entries (id, user_id, source, type, entry_type, title, file_path, blob_hash, size, integrity, metadata, "timestamp", created_at)
             values (?, ?, 'vault-media', ?, 'media', ?, ?, ?, ?, 'pending', ?::jsonb, ?, ?) on conflict (id) do nothing`,
            [d.recordingId, d.ownerId, d.type, d.title, d.objectKey, d.sha256, d.size, JSON.stringify({ content_type: d.contentType }), d.savedAt, d.savedAt],
          );
          break;
        }
        case 'RecordingHashVerified':
          await em.execute(`update timeline_entries set integrity = 'verified' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingHashMismatch':
          await em.execute(`update timeline_entries set integrity = 'mismatch' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingDeleted':
          await em.execute(`delete from timeline_entries where id = ? and source = 'vault-media'`, [event.data.recordingId]);
          break;
        default:
          break;
      }
    }
  },

  async reset(em) {
    await em.execute(`delete from timeline_entries where source = 'vault-media'`);
  },
};

/** The subjects the timeline takes from the letters stream. */
export const TIMELINE_LETTER_SUBJECTS = [LettersEvents.LetterWritten, LettersEvents.LetterRevised, LettersEvents.LetterDeleted];

/**
 * Handles one letters event inside the durable consumer's inbox transaction. Payloads carry no words
 * (letters.ts: LetterWrittenV1...): the title is fetched from letters when the timeline is read.
 * A deletion leaves a tombstone, so a "written" redelivered after it cannot bring the entry back.
 */
export async function applyLetterEvent(em: EntityManager, event: PublishedEvent, subject: string): Promise<void> {
  switch (subject) {
    case LettersEvents.LetterWritten: {
      const d = event.data as LetterWrittenV1;
      await em.execute(
        `insert into timeline_entries (id, user_id, source, type, entry_type, title, word_count, "timestamp", created_at)
         values (?, ?, 'letters', 'letter', 'message', null, ?, ?, ?) on conflict (id) do nothing`,
        [d.letterId, d.ownerId, d.wordCount, d.writtenAt, d.writtenAt],
      );
      break;
    }
    case LettersEvents.LetterRevised: {
      const d = event.data as LetterRevisedV1;
      await em.execute(`update timeline_entries set word_count = ?, metadata = metadata || jsonb_build_object('revised_at', ?::text) where id = ? and source = 'letters'`, [d.wordCount, d.revisedAt, d.letterId]);
      break;
    }
    case LettersEvents.LetterDeleted: {
      const d = event.data as LetterDeletedV1;
      await em.execute(
        `insert into timeline_entries (id, user_id, source, type, entry_type, "timestamp", created_at, deleted_at)
         values (?, ?, 'letters', 'letter', 'message', ?, ?, ?)
         on conflict (id) do update set deleted_at = excluded.deleted_at`,
        [d.letterId, d.ownerId, d.deletedAt, d.deletedAt, d.deletedAt],
      );
      break;
    }
    default:
      break;
  }
}

interface TimelineRow {
  id: string;
  source: TimelineSource;
  type: TimelineEntryType;
  entry_type: 'media' | 'message';
  title: string | null;
  file_path: string | null;
  blob_hash: string | null;
  size: string | null;
  integrity: MediaIntegrity | null;
  word_count: number | null;
  metadata: Record<string, unknown> | null;
  timestamp: Date | string;
  created_at: Date | string;
}

/** Default titles for entries whose words live elsewhere (fetched at read time, see MediaService.timeline). */
export const FALLBACK_TITLES: Partial<Record<TimelineEntryType, string>> = { letter: 'Letter', document: 'Document' };

const toEntry = (row: TimelineRow): TimelineEntry => ({
  id: row.id,
  source: row.source,
  type: row.type,
  entry_type: row.entry_type,
  title: row.title ?? FALLBACK_TITLES[row.type] ?? 'Entry',
  file_path: row.file_path,
  blob_hash: row.blob_hash,
  size: row.size === null ? null : Number(row.size),
  integrity: row.integrity,
  word_count: row.word_count,
  metadata: row.metadata ?? {},
  timestamp: new Date(row.timestamp).toISOString(),
  created_at: new Date(row.created_at).toISOString(),
});

/** Cursor: `<timestamp ISO>|<id>` of the last entry of the previous page. */
export function encodeCursor(entry: Pick<TimelineEntry, 'timestamp' | 'id'>): string {
  return Buffer.from(`${entry.timestamp}|${entry.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { timestamp: string; id: string } | null {
  if (!cursor) return null;
  const [timestamp, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!timestamp || !id || Number.isNaN(Date.parse(timestamp)) || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { timestamp, id };
}

/** The owner's timeline, newest first, one page. */
export async function readTimeline(em: EntityManager, userId: string, options: { limit?: number; before?: string }): Promise<{ entries: TimelineEntry[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? TIMELINE_PAGE_DEFAULT, 1), TIMELINE_PAGE_MAX);
  const cursor = decodeCursor(options.before);
  const params: unknown[] = [userId];
  let after = '';
  if (cursor) {
    after = `and ("timestamp", id) < (?::timestamptz, ?::uuid)`;
    params.push(cursor.timestamp, cursor.id);
  }
  params.push(limit + 1);
  const rows = await em.execute<TimelineRow[]>(
    `select id, source, type, entry_type, title, file_path, blob_hash, size::text as size, integrity, word_count, metadata, "timestamp", created_at
       from timeline_entries
      where user_id = ? and deleted_at is null ${after}
      order by "timestamp" desc, id desc
      limit ?`,
    params,
  );
  const entries = rows.slice(0, limit).map(toEntry);
  return { entries, nextCursor: rows.length > limit && entries.length ? encodeCursor(entries.at(-1)!) : null };
}

export async function findTimelineEntry(em: EntityManager, userId: string, id: string): Promise<TimelineEntry | null> {
  const [row] = await em.execute<TimelineRow[]>(
    `select id, source, type, entry_type, title, file_path, blob_hash, size::text as size, integrity, word_count, metadata, "timestamp", created_at
       from timeline_entries where id = ? and user_id = ? and deleted_at is null`,
    [id, userId],
  );
  return row ? toEntry(row) : null;
}
