import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { MEDIA_CONTENT_TYPES, type MediaCollection, type MediaIntegrity, type Recording, type StoredMediaType, type TranscodeStatus } from '@lv/contracts';

/** A row of the recordings read model (kept by recordings.projection.ts): one per saved item. */
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
  /** The playback copy (media-transcoding): null for images. */
  transcode_status: TranscodeStatus | null;
  rendition_key: string | null;
  rendition_size: string | number | null;
  rendition_content_type: string | null;
  poster_key: string | null;
  poster_size: string | number | null;
  duration_seconds: number | null;
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
    ...(row.transcode_status ? { transcode_status: row.transcode_status, duration_seconds: row.duration_seconds ?? null, poster: Boolean(row.poster_key) } : {}),
  };
}

/** The keyset position of the export list: after this item (oldest first). */
export interface ExportCursor {
  createdAt: string;
  id: string;
}

export interface StoredDay {
  day: string;
  bytes: number;
  items: number;
}

/** What the timeline's batch lookup reads of a recording: its title, and its poster and length once its playback copy is made. */
export interface TitledRecording {
  id: string;
  title: string;
  transcode_status: TranscodeStatus | null;
  poster: boolean;
  duration_seconds: number | null;
}

/** Reads of the recordings read model. The use cases see this; PgRecordings is the SQL behind it. */
export interface Recordings {
  find(recordingId: string): Promise<RecordingRow | null>;
  /** The owner's item of this content in a collection (the duplicate rule is per collection: a photo may also be a personal image). */
  findByHash(userId: string, collection: MediaCollection, sha256: string): Promise<RecordingRow | null>;
  /** The owner's items of some collections, newest first (the viewer's titles, the photo to replace). */
  listCollections(userId: string, collections: readonly MediaCollection[], limit: number): Promise<RecordingRow[]>;
  /** The owner's recordings of one collection, newest first (spec, section 7: vault_entries, type in (video, audio), limit 10). */
  list(userId: string, limit: number, collection: MediaCollection): Promise<RecordingRow[]>;
  /** Videos Saved counts the vault's video and audio; Days Active, the distinct UTC days one was saved (final messages are apart). */
  stats(userId: string): Promise<{ count: number; days: string[] }>;
  /** Titles of the owner's vault recordings among `ids` (the timeline's batch lookup), with their playback copy's state; others' and unknown ids are simply absent. */
  titles(userId: string, ids: readonly string[]): Promise<TitledRecording[]>;
  /** One page of every item of the owner's (all collections), oldest first, after the keyset cursor. */
  listForExport(userId: string, after: ExportCursor | null, limit: number): Promise<RecordingRow[]>;
  /** Bytes kept per UTC day they were saved, over every vault (what is deleted is no longer kept), oldest day first. */
  storageByDay(): Promise<StoredDay[]>;
}

const COLUMNS = 'id, user_id, type, title, bucket, object_key, content_type, size::text as size, sha256, integrity, collection, created_at, '
  + 'transcode_status, rendition_key, rendition_size::text as rendition_size, rendition_content_type, poster_key, poster_size::text as poster_size, duration_seconds';

/** The recordings read model in Postgres: each read on a fresh fork of the ORM's EntityManager. */
export class PgRecordings implements Recordings {
  constructor(private readonly orm: MikroORM) {}

  private get em(): EntityManager {
    return this.orm.em.fork();
  }

  async find(recordingId: string): Promise<RecordingRow | null> {
    const [row] = await this.em.execute<RecordingRow[]>(`select ${COLUMNS} from recordings where id = ?`, [recordingId]);
    return row ?? null;
  }

  async findByHash(userId: string, collection: MediaCollection, sha256: string): Promise<RecordingRow | null> {
    const [row] = await this.em.execute<RecordingRow[]>(`select ${COLUMNS} from recordings where user_id = ? and collection = ? and sha256 = ?`, [userId, collection, sha256]);
    return row ?? null;
  }

  listCollections(userId: string, collections: readonly MediaCollection[], limit: number): Promise<RecordingRow[]> {
    return this.em.execute<RecordingRow[]>(
      `select ${COLUMNS} from recordings where user_id = ? and collection in (${collections.map(() => '?').join(', ')}) order by created_at desc, id desc limit ?`,
      [userId, ...collections, limit],
    );
  }

  list(userId: string, limit: number, collection: MediaCollection): Promise<RecordingRow[]> {
    return this.em.execute<RecordingRow[]>(`select ${COLUMNS} from recordings where user_id = ? and collection = ? order by created_at desc, id desc limit ?`, [userId, collection, limit]);
  }

  async stats(userId: string): Promise<{ count: number; days: string[] }> {
    const [row] = await this.em.execute<{ count: number; days: string[] | null }[]>(
      `select count(*)::int as count,
              array(select distinct to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') from recordings where user_id = ? and collection = 'vault' order by 1) as days
         from recordings where user_id = ? and collection = 'vault'`,
      [userId, userId],
    );
    return { count: row?.count ?? 0, days: row?.days ?? [] };
  }

  async titles(userId: string, ids: readonly string[]): Promise<TitledRecording[]> {
    if (!ids.length) return [];
    return this.em.execute<TitledRecording[]>(
      `select id::text as id, title, transcode_status, poster_key is not null as poster, duration_seconds
         from recordings where user_id = ? and collection = 'vault' and id in (${ids.map(() => '?::uuid').join(', ')})`,
      [userId, ...ids],
    );
  }

  listForExport(userId: string, after: ExportCursor | null, limit: number): Promise<RecordingRow[]> {
    const keyset = after ? 'and (created_at, id) > (?::timestamptz, ?::uuid)' : '';
    return this.em.execute<RecordingRow[]>(
      `select ${COLUMNS} from recordings where user_id = ? ${keyset} order by created_at, id limit ?`,
      [userId, ...(after ? [after.createdAt, after.id] : []), limit],
    );
  }

  async storageByDay(): Promise<StoredDay[]> {
    const rows = await this.em.execute<{ day: string; bytes: string; items: number }[]>(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(size)::text as bytes, count(*)::int as items from recordings group by 1 order by 1`);
    return rows.map((row) => ({ day: row.day, bytes: Number(row.bytes), items: row.items }));
  }
}
