import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The life of a recording's object in storage, beside its event stream: pending (upload opened),
 * uploading (bytes arriving), stored, removing (its object is being deleted), removed. It tells the
 * sweeper what a dead process left behind; the events stay the record of what the owner did.
 */
export type MediaObjectState = 'pending' | 'uploading' | 'stored' | 'removing' | 'removed';

export interface MediaObjectRow {
  recording_id: string;
  user_id: string;
  bucket: string;
  object_key: string;
  state: MediaObjectState;
  multipart_upload_id: string | null;
}

const COLUMNS = 'recording_id, user_id, bucket, object_key, state, multipart_upload_id';

/** Where a resumable upload stands: the bytes in storage (whole parts) and their parts. */
export interface ResumableProgress {
  state: MediaObjectState;
  resumable: boolean;
  multipartUploadId: string | null;
  bytesReceived: number;
  parts: { part: number; etag: string }[];
}

/** `media_objects` as the use cases see it: PgMediaObjects is the SQL behind it. */
export interface MediaObjects {
  /** The row of a new upload. Its unique object key refuses a second upload to the same key (AlreadyTaken, from the command). */
  insertPending(row: { recordingId: string; userId: string; bucket: string; objectKey: string }): Promise<void>;
  /** Takes a pending upload for one request: false when another request already took it. */
  claimForUpload(recordingId: string): Promise<boolean>;
  /** An upload still moving: the sweeper leaves it alone. */
  heartbeat(recordingId: string, bytesReceived: number): Promise<void>;
  /** Remembers the multipart upload's id, so it can be aborted if this process dies mid-upload. */
  recordMultipartUpload(recordingId: string, multipartUploadId: string): Promise<void>;
  markStored(recordingId: string, bytesReceived: number): Promise<void>;
  /**
   * Takes an upload for resumable requests: a pending one, or one a resumable request already took
   * (its next request goes on). False when a single PUT has it, or it is no longer open.
   */
  claimForResumable(recordingId: string): Promise<boolean>;
  resumableProgress(recordingId: string): Promise<ResumableProgress | null>;
  /**
   * Records a part stored: only when the progress is still `fromBytes` (a second request that raced
   * this one past the lock of another replica finds it moved, and stops).
   */
  recordPart(recordingId: string, fromBytes: number, progress: Pick<ResumableProgress, 'bytesReceived' | 'parts'>): Promise<boolean>;
  /** Marks the object for removal; with `onlyOpenUpload`, only an upload still pending or uploading. */
  markRemoving(recordingId: string, options?: { onlyOpenUpload?: boolean }): Promise<void>;
  /** Only a row being removed becomes removed. */
  markRemoved(recordingId: string): Promise<void>;
  find(recordingId: string): Promise<MediaObjectRow | null>;
  /**
   * Open uploads with no progress since `before` (their process died or their client left), claimed
   * for this sweeper; a resumable upload only after `resumableBefore` (its owner may come back to it).
   */
  claimStaleUploads(before: string, resumableBefore: string): Promise<MediaObjectRow[]>;
  /** Removals nobody finished since `before`, claimed for this sweeper. */
  claimUnfinishedRemovals(before: string): Promise<MediaObjectRow[]>;
}

/**
 * SQL on `media_objects`, kept out of the use cases. `em` gives the EntityManager to run in: the
 * command's transaction when the row must change with the events, a fresh fork otherwise.
 */
export class PgMediaObjects implements MediaObjects {
  constructor(private readonly em: () => EntityManager) {}

  async insertPending(row: { recordingId: string; userId: string; bucket: string; objectKey: string }): Promise<void> {
    await this.em().execute(
      `insert into media_objects (recording_id, user_id, bucket, object_key, state) values (?, ?, ?, ?, 'pending')`,
      [row.recordingId, row.userId, row.bucket, row.objectKey],
    );
  }

  async claimForUpload(recordingId: string): Promise<boolean> {
    const claimed = await this.em().execute<{ recording_id: string }[]>(
      `update media_objects set state = 'uploading', last_activity_at = now() where recording_id = ? and state = 'pending' returning recording_id`,
      [recordingId],
    );
    return claimed.length > 0;
  }

  async heartbeat(recordingId: string, bytesReceived: number): Promise<void> {
    await this.em().execute('update media_objects set last_activity_at = now(), bytes_received = ? where recording_id = ?', [bytesReceived, recordingId]);
  }

  async recordMultipartUpload(recordingId: string, multipartUploadId: string): Promise<void> {
    await this.em().execute('update media_objects set multipart_upload_id = ?, last_activity_at = now() where recording_id = ?', [multipartUploadId, recordingId]);
  }

  async markStored(recordingId: string, bytesReceived: number): Promise<void> {
    await this.em().execute(`update media_objects set state = 'stored', bytes_received = ?, last_activity_at = now() where recording_id = ?`, [bytesReceived, recordingId]);
  }

  async claimForResumable(recordingId: string): Promise<boolean> {
    const claimed = await this.em().execute<{ recording_id: string }[]>(
      `update media_objects set state = 'uploading', resumable = true, last_activity_at = now()
        where recording_id = ? and (state = 'pending' or (state = 'uploading' and resumable)) returning recording_id`,
      [recordingId],
    );
    return claimed.length > 0;
  }

  async resumableProgress(recordingId: string): Promise<ResumableProgress | null> {
    const [row] = await this.em().execute<{ state: MediaObjectState; resumable: boolean; multipart_upload_id: string | null; bytes_received: string | number; upload_parts: { part: number; etag: string }[] }[]>(
      'select state, resumable, multipart_upload_id, bytes_received, upload_parts from media_objects where recording_id = ?', [recordingId]);
    if (!row) return null;
    return { state: row.state, resumable: row.resumable, multipartUploadId: row.multipart_upload_id, bytesReceived: Number(row.bytes_received), parts: row.upload_parts };
  }

  async recordPart(recordingId: string, fromBytes: number, progress: Pick<ResumableProgress, 'bytesReceived' | 'parts'>): Promise<boolean> {
    const updated = await this.em().execute<{ recording_id: string }[]>(
      `update media_objects set bytes_received = ?, upload_parts = ?::jsonb, last_activity_at = now()
        where recording_id = ? and state = 'uploading' and bytes_received = ? returning recording_id`,
      [progress.bytesReceived, JSON.stringify(progress.parts), recordingId, fromBytes],
    );
    return updated.length > 0;
  }

  async markRemoving(recordingId: string, options: { onlyOpenUpload?: boolean } = {}): Promise<void> {
    const condition = options.onlyOpenUpload ? ` and state in ('pending', 'uploading')` : '';
    await this.em().execute(`update media_objects set state = 'removing', last_activity_at = now() where recording_id = ?${condition}`, [recordingId]);
  }

  async markRemoved(recordingId: string): Promise<void> {
    await this.em().execute(`update media_objects set state = 'removed', last_activity_at = now() where recording_id = ? and state = 'removing'`, [recordingId]);
  }

  async find(recordingId: string): Promise<MediaObjectRow | null> {
    const [row] = await this.em().execute<MediaObjectRow[]>(`select ${COLUMNS} from media_objects where recording_id = ?`, [recordingId]);
    return row ?? null;
  }

  claimStaleUploads(before: string, resumableBefore: string): Promise<MediaObjectRow[]> {
    return this.claim(`state in ('pending', 'uploading') and last_activity_at < (case when resumable then ?::timestamptz else ?::timestamptz end)`, resumableBefore, before);
  }

  claimUnfinishedRemovals(before: string): Promise<MediaObjectRow[]> {
    return this.claim(`state = 'removing' and last_activity_at < ?::timestamptz`, before);
  }

  /** Replicas may sweep at once: rows are claimed with SKIP LOCKED, 50 at a time, oldest first. */
  private claim(condition: string, ...params: string[]): Promise<MediaObjectRow[]> {
    return this.em().execute<MediaObjectRow[]>(
      `update media_objects set last_activity_at = now()
        where recording_id in (select recording_id from media_objects where ${condition} order by last_activity_at limit 50 for update skip locked)
        returning ${COLUMNS}`,
      params,
    );
  }
}
