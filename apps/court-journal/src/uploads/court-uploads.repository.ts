import type { EntityManager } from '@mikro-orm/postgresql';
import type { CourtVariant } from '@lv/contracts';

export interface CourtUploadRow {
  id: string;
  owner_id: string;
  title: string;
  description: string | null;
  /** As stored: a ticket opened before the one category model may hold an old category (courtCategoryOf reads it). */
  category: string;
  variant: CourtVariant;
  file_name: string;
  declared_size: string | number;
  object_key: string | null;
  multipart_upload_id: string | null;
}

const COLUMNS = 'id::text as id, owner_id::text as owner_id, title, description, category, variant, file_name, declared_size::text as declared_size, object_key, multipart_upload_id';

/**
 * SQL on court_uploads (tickets) and court_removals (objects to remove), kept out of the service.
 * Every method takes the EntityManager to run in: the command's transaction when the row must change
 * with the events, a fresh fork otherwise.
 */
export class CourtUploads {
  async open(em: EntityManager, row: { id: string; ownerId: string; title: string; description: string | null; category: string; variant: CourtVariant; fileName: string; declaredSize: number; ttlSeconds: number }): Promise<void> {
    await em.execute(
      `insert into court_uploads (id, owner_id, title, description, category, variant, file_name, declared_size, state, expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', now() + make_interval(secs => ?))`,
      [row.id, row.ownerId, row.title, row.description, row.category, row.variant, row.fileName, row.declaredSize, row.ttlSeconds],
    );
  }

  /**
   * Takes the owner's pending, unexpired ticket for one request, naming the object it will write:
   * null for anyone else's ticket, an unknown or expired one, or one already in use.
   */
  async claim(em: EntityManager, id: string, ownerId: string, objectKeyOf: (row: CourtUploadRow) => string): Promise<CourtUploadRow | null> {
    const [row] = await em.execute<CourtUploadRow[]>(
      `select ${COLUMNS} from court_uploads where id = ? and owner_id = ? and state = 'pending' and expires_at > now() for update skip locked`,
      [id, ownerId],
    );
    if (!row) return null;
    const objectKey = objectKeyOf(row);
    await em.execute(`update court_uploads set state = 'uploading', object_key = ?, last_activity_at = now() where id = ?`, [objectKey, id]);
    return { ...row, object_key: objectKey };
  }

  async recordMultipartUpload(em: EntityManager, id: string, multipartUploadId: string): Promise<void> {
    await em.execute('update court_uploads set multipart_upload_id = ?, last_activity_at = now() where id = ?', [multipartUploadId, id]);
  }

  /**
   * The ticket is used up (the document is stored, or the upload failed and its object is queued for
   * removal). False when it was already gone: the sweeper took it for dead and queued its object's removal.
   */
  async close(em: EntityManager, id: string): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>('delete from court_uploads where id = ? returning id::text as id', [id]);
    return rows.length > 0;
  }

  /**
   * Tickets past their expiry: pending ones simply go; an upload still "uploading" that long after
   * its ticket expired belongs to a process that died, and its object (or parts) is queued for removal.
   */
  async expire(em: EntityManager, bucket: string, staleSeconds: number): Promise<number> {
    const rows = await em.execute<{ id: string }[]>(
      `with gone as (
         delete from court_uploads
          where (state = 'pending' and expires_at < now())
             or (state = 'uploading' and last_activity_at < now() - make_interval(secs => ?) and expires_at < now())
         returning id, object_key, multipart_upload_id),
       queued as (
         insert into court_removals (object_key, bucket, multipart_upload_id, reason)
         select object_key, ?, multipart_upload_id, 'upload abandoned' from gone where object_key is not null
         on conflict (object_key) do nothing)
       select id::text as id from gone`,
      [staleSeconds, bucket],
    );
    return rows.length;
  }

  async queueRemoval(em: EntityManager, removal: { bucket: string; objectKey: string; multipartUploadId?: string | null; reason: string }): Promise<void> {
    await em.execute(
      `insert into court_removals (object_key, bucket, multipart_upload_id, reason) values (?, ?, ?, ?)
       on conflict (object_key) do update set multipart_upload_id = coalesce(excluded.multipart_upload_id, court_removals.multipart_upload_id)`,
      [removal.objectKey, removal.bucket, removal.multipartUploadId ?? null, removal.reason],
    );
  }

  async removalDone(em: EntityManager, objectKey: string): Promise<void> {
    await em.execute('delete from court_removals where object_key = ?', [objectKey]);
  }

  /** Removals queued before `olderThanSeconds` (the request that queued them had its chance), 50 at a time. */
  pendingRemovals(em: EntityManager, olderThanSeconds: number): Promise<{ object_key: string; bucket: string; multipart_upload_id: string | null }[]> {
    return em.execute(
      `select object_key, bucket, multipart_upload_id from court_removals where created_at < now() - make_interval(secs => ?) order by created_at limit 50`,
      [olderThanSeconds],
    );
  }
}
