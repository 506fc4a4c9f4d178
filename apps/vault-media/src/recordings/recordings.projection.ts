import type { EntityManager } from '@mikro-orm/postgresql';
import { MEDIA_CONTENT_TYPES, type MediaCollection, type MediaIntegrity, type Recording, type StoredMediaType } from '@lv/contracts';
import type { Projection, StoredEvent } from '@lv/platform/event-store';
import type { OpenedRecordingEvent } from './recording-sealing.js';

type Event = StoredEvent<OpenedRecordingEvent>;

/**
 * recordings: one row per saved recording, kept in step with the recording streams inside each
 * append. Only RecordingSaved creates a row, and it is appended only once the object is complete in
 * storage: no row ever points at a missing object. Titles arrive opened (see recording-sealing.ts).
 */
export const recordingsProjection: Projection = {
  name: 'recordings',
  handles: ['RecordingSaved', 'RecordingHashVerified', 'RecordingHashMismatch', 'RecordingRetitled', 'RecordingDeleted'],

  async apply(em, events) {
    for (const event of events as Event[]) {
      switch (event.type) {
        case 'RecordingSaved': {
          const d = event.data;
          // Title shredded: the recording was deleted later in the log (a rebuild), so it gets no row.
          if (d.title === null) break;
          await em.execute(
            `insert into recordings (id, user_id, type, title, bucket, object_key, content_type, size, sha256, created_at, collection)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
            [d.recordingId, d.ownerId, d.type, d.title, d.bucket, d.objectKey, d.contentType, d.size, d.sha256, d.savedAt, d.collection ?? 'vault'],
          );
          break;
        }
        case 'RecordingHashVerified':
          await em.execute(`update recordings set integrity = 'verified' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingHashMismatch':
          await em.execute(`update recordings set integrity = 'mismatch' where id = ?`, [event.data.recordingId]);
          break;
        case 'RecordingRetitled':
          // Shredded (a rebuild after the delete): the row is not there to retitle anyway.
          if (event.data.title !== null) await em.execute('update recordings set title = ? where id = ?', [event.data.title, event.data.recordingId]);
          break;
        case 'RecordingDeleted':
          await em.execute('delete from recordings where id = ?', [event.data.recordingId]);
          break;
        default:
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from recordings');
  },
};

export interface RecordingRow {
  id: string;
  user_id: string;
  type: StoredMediaType;
  title: string;
  bucket: string;
  object_key: string;
  content_type: string;
  size: string | number;
  sha256: string;
  integrity: MediaIntegrity;
  collection: MediaCollection;
  created_at: Date | string;
}

export function toRecording(row: RecordingRow): Recording {
  const createdAt = new Date(row.created_at).toISOString();
  return {
    id: row.id,
    type: row.type,
    file_type: row.type,
    title: row.title,
    file_path: row.object_key,
    content_type: row.content_type || (row.type === 'image' ? 'application/octet-stream' : MEDIA_CONTENT_TYPES[row.type]),
    size: Number(row.size),
    blob_hash: row.sha256,
    integrity: row.integrity,
    collection: row.collection,
    created_at: createdAt,
    timestamp: createdAt,
  };
}

const COLUMNS = 'id, user_id, type, title, bucket, object_key, content_type, size::text as size, sha256, integrity, collection, created_at';

export async function findRecording(em: EntityManager, recordingId: string): Promise<RecordingRow | null> {
  const [row] = await em.execute<RecordingRow[]>(`select ${COLUMNS} from recordings where id = ?`, [recordingId]);
  return row ?? null;
}

/** The owner's item of this content in a collection (the duplicate rule is per collection: a photo may also be a personal image). */
export async function findRecordingByHash(em: EntityManager, userId: string, collection: MediaCollection, sha256: string): Promise<RecordingRow | null> {
  const [row] = await em.execute<RecordingRow[]>(`select ${COLUMNS} from recordings where user_id = ? and collection = ? and sha256 = ?`, [userId, collection, sha256]);
  return row ?? null;
}

/** The owner's items of some collections, newest first (the viewer's titles, the photo to replace). */
export async function listCollections(em: EntityManager, userId: string, collections: readonly MediaCollection[], limit: number): Promise<RecordingRow[]> {
  return em.execute<RecordingRow[]>(
    `select ${COLUMNS} from recordings where user_id = ? and collection in (${collections.map(() => '?').join(', ')}) order by created_at desc, id desc limit ?`,
    [userId, ...collections, limit],
  );
}

/** The owner's recordings of one collection, newest first (spec, section 7: vault_entries, type in (video, audio), limit 10). */
export async function listRecordings(em: EntityManager, userId: string, limit: number, collection: MediaCollection = 'vault'): Promise<RecordingRow[]> {
  return em.execute<RecordingRow[]>(`select ${COLUMNS} from recordings where user_id = ? and collection = ? order by created_at desc, id desc limit ?`, [userId, collection, limit]);
}

/** Videos Saved counts the vault's video and audio; Days Active, the distinct UTC days one was saved (final messages are apart). */
export async function recordingStats(em: EntityManager, userId: string): Promise<{ count: number; days: string[] }> {
  const [row] = await em.execute<{ count: number; days: string[] | null }[]>(
    `select count(*)::int as count,
            array(select distinct to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') from recordings where user_id = ? and collection = 'vault' order by 1) as days
       from recordings where user_id = ? and collection = 'vault'`,
    [userId, userId],
  );
  return { count: row?.count ?? 0, days: row?.days ?? [] };
}

/** Titles of the owner's recordings among `ids` (the timeline's batch lookup); others' and unknown ids are simply absent. */
export async function findRecordingTitles(em: EntityManager, userId: string, ids: readonly string[]): Promise<Record<string, string>> {
  if (!ids.length) return {};
  const rows = await em.execute<{ id: string; title: string }[]>(
    `select id::text as id, title from recordings where user_id = ? and collection = 'vault' and id in (${ids.map(() => '?::uuid').join(', ')})`,
    [userId, ...ids],
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.title]));
}

/** One page of every item of the owner's (all collections), oldest first, after the keyset cursor `created_at|id`. */
export async function listForExport(em: EntityManager, userId: string, after: { createdAt: string; id: string } | null, limit: number): Promise<RecordingRow[]> {
  const keyset = after ? 'and (created_at, id) > (?::timestamptz, ?::uuid)' : '';
  return em.execute<RecordingRow[]>(
    `select ${COLUMNS} from recordings where user_id = ? ${keyset} order by created_at, id limit ?`,
    [userId, ...(after ? [after.createdAt, after.id] : []), limit],
  );
}

/** Bytes kept per UTC day they were saved, over every vault (what is deleted is no longer kept). */
export async function storageByDay(em: EntityManager): Promise<{ day: string; bytes: number; items: number }[]> {
  const rows = await em.execute<{ day: string; bytes: string; items: number }[]>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(size)::text as bytes, count(*)::int as items from recordings group by 1 order by 1`);
  return rows.map((row) => ({ day: row.day, bytes: Number(row.bytes), items: row.items }));
}
