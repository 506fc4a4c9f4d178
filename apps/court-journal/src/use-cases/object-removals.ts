import type { MikroORM } from '@mikro-orm/postgresql';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import type { CourtUploads } from '../uploads/court-uploads.repository.js';

/** A removal the request itself is doing is left to it for this long before the sweeper retries it. */
const REMOVAL_GRACE_SECONDS = 30;

export interface ObjectRemovalsDeps {
  orm: MikroORM;
  storage: ObjectStorage;
  uploads: CourtUploads;
  bucket: string;
  ticketSeconds: number;
  logger: Logger;
}

/**
 * Objects that must go (a failed upload's, a deleted document's): each is queued in a transaction
 * first, so one whose removal fails is retried by the sweeper, which also ends expired tickets.
 */
export class ObjectRemovals {
  constructor(private readonly deps: ObjectRemovalsDeps) {}

  /** A failed upload: its ticket is used up and its object (or parts) queued for removal, then removed. */
  async discard(id: string, objectKey: string, multipartUploadId: string | null, reason: unknown): Promise<void> {
    const why = reason instanceof DomainError ? `${reason.code}: ${reason.message}` : `upload failed: ${(reason as Error)?.message ?? String(reason)}`;
    await this.deps.orm.em.fork().transactional(async (em) => {
      await this.deps.uploads.close(em, id);
      await this.deps.uploads.queueRemoval(em, { bucket: this.deps.bucket, objectKey, multipartUploadId, reason: why });
    });
    await this.remove(this.deps.bucket, objectKey, multipartUploadId);
  }

  /** Removes a queued object (aborting its multipart upload first) and takes it off the queue. */
  async remove(bucket: string, objectKey: string, multipartUploadId: string | null): Promise<void> {
    if (multipartUploadId) await this.deps.storage.abortMultipartUpload(bucket, objectKey, multipartUploadId);
    await this.deps.storage.removeObject(bucket, objectKey);
    await this.deps.uploads.removalDone(this.deps.orm.em.fork(), objectKey);
  }

  /** Expired tickets go; removals nobody finished are retried. */
  async sweep(): Promise<{ expired: number; removed: number }> {
    const expired = await this.deps.uploads.expire(this.deps.orm.em.fork(), this.deps.bucket, this.deps.ticketSeconds);
    let removed = 0;
    for (const row of await this.deps.uploads.pendingRemovals(this.deps.orm.em.fork(), REMOVAL_GRACE_SECONDS)) {
      try {
        await this.remove(row.bucket, row.object_key, row.multipart_upload_id);
        removed++;
      } catch (err) {
        this.deps.logger.warn({ err, key: row.object_key }, 'sweeper: could not remove an object; will retry');
      }
    }
    return { expired, removed };
  }
}
