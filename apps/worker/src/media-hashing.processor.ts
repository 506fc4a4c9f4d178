import { createHash } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import type { HashMediaJob, ReportHashPayload, ReportHashReply } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';

export interface MediaHashingDeps {
  storage: ObjectStorage;
  /** rpc.vault-media.report-hash: the worker owns no data, the recording's service records the result. */
  report: (payload: ReportHashPayload) => Promise<ReportHashReply>;
  logger: Logger;
}

/** What the job found: the hash of the stored object, or null when the object is gone; and how the read went. */
export interface StoredObjectHash {
  sha256: string | null;
  size: number | null;
  /** Time spent in hash.update/digest, apart from waiting for storage: what the benchmark compares with openssl. */
  hashMs: number;
  firstByteMs: number;
  /** Pieces the storage's response arrived in (the benchmark prints the mean size). */
  chunks: number;
}

export async function hashStoredObject(storage: ObjectStorage, bucket: string, key: string): Promise<StoredObjectHash> {
  const asked = performance.now();
  const hash = createHash('sha256');
  let hashMs = 0;
  let firstByteMs = 0;
  let chunks = 0;
  let size: number;
  // readObject, not getObject: the pieces land in one reused 1 MiB buffer instead of a fresh 64 KiB
  // Buffer per socket read through the HTTP client, which cost two to three times the hash's own CPU
  // (and its garbage collections) for the same bytes. Each piece is hashed during the call, so memory
  // stays at that buffer whatever the object's size.
  try {
    ({ size } = await storage.readObject(bucket, key, (piece) => {
      if (!chunks++) firstByteMs = performance.now() - asked;
      const started = performance.now();
      hash.update(piece);
      hashMs += performance.now() - started;
    }));
  } catch (err) {
    const code = (err as { code?: string })?.code;
    if (code === 'NoSuchKey' || code === 'NotFound') return { sha256: null, size: null, hashMs: 0, firstByteMs: 0, chunks: 0 };
    throw err;
  }
  const started = performance.now();
  const sha256 = hash.digest('hex');
  return { sha256, size, hashMs: hashMs + performance.now() - started, firstByteMs, chunks };
}

/** Refusals that a retry cannot change: the job goes straight to the failed set (the dead letters). */
const PERMANENT = new Set(['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED', 'UNAUTHENTICATED']);

/**
 * media-hashing: re-hashes a stored recording, streaming it from object storage (never whole in
 * memory), and reports the result to vault-media, which marks the recording verified or flags a
 * mismatch for its owner. Idempotent: the job id is the recording id, and reporting the same result
 * twice changes nothing. Transient failures (storage or vault-media unavailable) throw and are retried
 * with exponential backoff; after the last attempt the job stays in the failed set.
 */
export function mediaHashingProcessor(deps: MediaHashingDeps) {
  return async ({ mediaId, bucket, key, reportToken }: HashMediaJob, job: Pick<Job, 'id'>): Promise<ReportHashReply & StoredObjectHash & { readMs: number; ms: number }> => {
    const started = Date.now();
    const read = await hashStoredObject(deps.storage, bucket, key);
    const { sha256, size, hashMs } = read;
    const readMs = Date.now() - started;
    try {
      const reply = await deps.report({ recordingId: mediaId, sha256, size, reportToken });
      const ms = Date.now() - started;
      deps.logger.info({ jobId: job.id, recordingId: mediaId, size, ms, hashMs: Math.round(hashMs), integrity: reply.integrity }, 'media hashed');
      return { ...reply, ...read, readMs, ms };
    } catch (err) {
      if (err instanceof DomainError && PERMANENT.has(err.code)) throw new UnrecoverableError(`vault-media refused the result: ${err.code} ${err.message}`);
      throw err;
    }
  };
}
