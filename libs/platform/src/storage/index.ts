import { Client } from 'minio';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { readWholeObject, WholeObjectReadError, type WholeObjectReadOptions } from './whole-object-read.js';

export { readWholeObject, WholeObjectReadError, WHOLE_READ_BUFFER_BYTES, type WholeObjectReadOptions } from './whole-object-read.js';

/**
 * Object storage through the `minio` client (it speaks S3 to any server): SeaweedFS in docker-compose and deploy/, the embedded
 * S3-protocol server (tools/dev/s3-server.mjs) on a developer machine and in tests.
 *
 * Bytes never ride on NATS: services stream them here over HTTP and publish events about them.
 * Bucket names belong to the services that own the bytes (@lv/contracts storage.ts), not to this client.
 */

/**
 * Multipart part size. minio-js picks 528 MiB parts for a stream of unknown size and holds each in
 * memory (1.6 GB RSS for a 1 GB upload); 16 MiB keeps memory flat at the same throughput.
 */
export const PART_SIZE = 16 * 1024 * 1024;

/** The object storage variables of `objectStorageConfigSchema` (@lv/platform/config). */
export interface ObjectStorageConfig {
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
}

export interface UploadOptions {
  contentType?: string;
  /** Stored as x-amz-meta-* headers. */
  metadata?: Record<string, string>;
  /** Aborting it aborts the multipart upload (its parts are removed) and rejects. */
  signal?: AbortSignal;
  /**
   * Called with the multipart upload's id as soon as it is initiated (before the first part), so the
   * caller can record it and abort it later if this process dies mid-upload (a sweeper's job).
   */
  onMultipartStarted?: (uploadId: string) => void | Promise<void>;
}

export interface UploadResult {
  etag: string;
  size: number;
  parts: number;
}

/** A part of a multipart upload, as completing it needs. */
export interface UploadedPart {
  part: number;
  etag: string;
}

/**
 * S3 refuses a part under 5 MiB unless it is the last: a resumable upload that stops keeps only
 * whole parts of at least this size and asks the client again for the rest.
 */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

export interface ObjectStorage {
  /** The underlying client, for anything the helpers below do not cover. */
  readonly client: Client;
  readonly region: string;
  readonly partSize: number;
  /** Buffers of `partSize`, shared by every writer of parts in this process (upload, a resumable upload's parts). */
  readonly partBuffers: PartBuffers;
  /** Creates the bucket if it does not exist (safe to call concurrently and on every boot). */
  ensureBucket(name: string): Promise<void>;
  ensureBuckets(names: readonly string[]): Promise<void>;
  /** Resolves when the storage answers an authenticated call within `timeoutMs`; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Streams `source` into `bucket/key` with an explicit multipart loop of `partSize` parts: memory
   * stays flat, and an error of the source (client disconnect, size limit) or an abort of `signal`
   * aborts the upload and removes its parts. minio-js's own putObject never propagates a source
   * stream's error (the promise hangs and the parts stay behind), hence this loop.
   */
  upload(bucket: string, key: string, source: Readable | AsyncIterable<Uint8Array>, options?: UploadOptions): Promise<UploadResult>;
  /** A GET URL valid for `expirySeconds` that needs no credentials. */
  presignedGet(bucket: string, key: string, expirySeconds?: number): Promise<string>;
  /** Reads `length` bytes from `offset` (a Range request). */
  getRange(bucket: string, key: string, offset: number, length?: number): Promise<Readable>;
  getObject(bucket: string, key: string): Promise<Readable>;
  /**
   * Reads the whole object once, in order, for a reader that looks at each byte once (a hash):
   * `onPiece` gets pieces of up to 1 MiB that are views into one reused buffer, valid only during
   * the call. Far less CPU than `getObject` for large objects (see whole-object-read.ts); memory
   * stays at the one buffer. Resolves to the size read. Rejects with the S3 error's `code`
   * (NoSuchKey when the object is gone), on a response cut short, or when `onPiece` throws.
   */
  readObject(bucket: string, key: string, onPiece: (piece: Buffer) => void, options?: WholeObjectReadOptions): Promise<{ size: number }>;
  removeObject(bucket: string, key: string): Promise<void>;
  /**
   * Aborts a multipart upload that a process left behind (it died mid-upload): its parts are
   * removed. An upload already completed or aborted (NoSuchUpload) counts as done.
   */
  abortMultipartUpload(bucket: string, key: string, uploadId: string): Promise<void>;
  /**
   * A multipart upload written over many requests (a resumable upload): started once, its parts sent
   * one at a time as they come (each at least MIN_PART_SIZE but the last), completed when all are in.
   * The caller keeps the upload id and the parts' etags between requests.
   */
  startMultipart(bucket: string, key: string, options?: Pick<UploadOptions, 'contentType' | 'metadata'>): Promise<string>;
  uploadPart(bucket: string, key: string, uploadId: string, part: number, data: Buffer): Promise<UploadedPart>;
  completeMultipart(bucket: string, key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void>;
}

/** Part buffers kept for the next uploads: the two of one upload, and of a second running beside it. */
const MAX_IDLE_PARTS = 4;

/**
 * Part-sized buffers, taken by a writer of parts and given back once every part sent from them is
 * stored. Allocating two fresh parts per upload left the process's memory to the allocator and the
 * garbage collector (vault-media grew 64-70 MB over two 200 MB uploads); reused, it stays at the parts
 * of the uploads running at once.
 */
export interface PartBuffers {
  take(): Buffer;
  /** Only once nothing still reads them (every part sent from them answered). */
  giveBack(buffers: readonly (Buffer | undefined)[]): void;
}

export function createPartBuffers(partSize: number, maxIdle = MAX_IDLE_PARTS): PartBuffers {
  const idle: Buffer[] = [];
  return {
    take: () => idle.pop() ?? Buffer.allocUnsafe(partSize),
    giveBack(buffers) {
      for (const buffer of buffers) if (buffer?.length === partSize && idle.length < maxIdle && !idle.includes(buffer)) idle.push(buffer);
    },
  };
}

function uploadHeaders(opts: Pick<UploadOptions, 'contentType' | 'metadata'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (opts.contentType) headers['Content-Type'] = opts.contentType;
  for (const [k, v] of Object.entries(opts.metadata ?? {})) headers[`X-Amz-Meta-${k}`] = v;
  return headers;
}

/**
 * Lifetime of the URL that readObject signs for its own GET, sent at once: S3 and MinIO check the
 * expiry when the request arrives, so a long transfer is not cut by it.
 */
const READ_URL_SECONDS = 5 * 60;

function parseEndpoint(endpoint: string): { endPoint: string; port: number; useSSL: boolean } {
  const url = new URL(endpoint);
  const useSSL = url.protocol === 'https:';
  return { endPoint: url.hostname, port: url.port ? Number(url.port) : useSSL ? 443 : 80, useSSL };
}

const ALREADY_EXISTS = new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists']);

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createObjectStorage(config: ObjectStorageConfig, options: { partSize?: number } = {}): ObjectStorage {
  const partSize = options.partSize ?? PART_SIZE;
  const region = config.S3_REGION;
  const endpoint = parseEndpoint(config.S3_ENDPOINT);
  const client = new Client({
    ...endpoint,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    region,
    pathStyle: true,
    partSize,
  });
  // Bodies are sent as UNSIGNED-PAYLOAD, as the client already does over TLS (production's storage):
  // signing each part's payload over plain HTTP hashed every uploaded byte a second time (the
  // services hash the content themselves on the way), the largest CPU cost of an upload after the
  // copy. The request itself is still signed, and a recording's stored bytes are proven afterwards
  // by the media-hashing job, which reads the object back against the SHA-256 recorded.
  client.enableSHA256 = false;
  const known = new Set<string>();
  const partBuffers = createPartBuffers(partSize);

  async function ensureBucket(name: string): Promise<void> {
    if (known.has(name)) return;
    if (!(await client.bucketExists(name))) {
      try {
        await client.makeBucket(name, region);
      } catch (err) {
        if (!ALREADY_EXISTS.has((err as { code?: string }).code ?? '')) throw err;
      }
    }
    known.add(name);
  }

  async function upload(bucket: string, key: string, source: Readable | AsyncIterable<Uint8Array>, opts: UploadOptions = {}): Promise<UploadResult> {
    const headers = uploadHeaders(opts);

    let uploadId: string | undefined;
    const etags: { part: number; etag: string }[] = [];
    // Until the bytes reach one part: the pieces as they came (a small object is one PUT of them).
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // From then on: two part buffers in turn. One part is sent while the next fills; a full part
    // waits for the one before it to be stored, so the stream's backpressure holds and memory stays
    // at two parts. Sending one at a time left the storage idle while each part came in through the
    // gateway and vault-media, the largest part of an upload's overhead against a direct PUT.
    const buffers: Buffer[] = [];
    let part: Buffer | undefined;
    let filled = 0;
    let size = 0;
    let partsStarted = 0;
    let sending: Promise<void> | undefined;
    const signalError = () => opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('upload aborted');

    const sendPart = async (partNumber: number, data: Buffer) => {
      const { etag } = await client.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId!, partNumber, headers: {} }, data);
      etags.push({ part: partNumber, etag });
    };
    const flushPart = async (data: Buffer) => {
      await sending;
      if (!uploadId) {
        uploadId = await client.initiateNewMultipartUpload(bucket, key, headers);
        await opts.onMultipartStarted?.(uploadId);
      }
      partsStarted += 1;
      const started = sendPart(partsStarted, data);
      // Awaited before the next part, the completion or the abort; never left to reject unheard.
      started.catch(() => undefined);
      sending = started;
    };
    const fill = async (piece: Buffer) => {
      for (let offset = 0; offset < piece.length; ) {
        // The buffer the part before last was sent from: free again once that part is stored.
        const buffer = (part ??= buffers[partsStarted % 2] ??= partBuffers.take());
        const copied = piece.copy(buffer, filled, offset, Math.min(piece.length, offset + partSize - filled));
        filled += copied;
        offset += copied;
        if (filled === partSize) {
          await flushPart(buffer);
          part = undefined;
          filled = 0;
        }
      }
    };

    try {
      // A Readable yields Buffers here (no encoding, no object mode); its iterator is typed `any`.
      for await (const chunk of source as AsyncIterable<Uint8Array>) {
        if (opts.signal?.aborted) throw signalError();
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        size += buf.length;
        if (!partsStarted && !part && pendingBytes + buf.length < partSize) {
          pending.push(buf);
          pendingBytes += buf.length;
          continue;
        }
        const pieces = pending.length ? [...pending, buf] : [buf];
        pending = [];
        pendingBytes = 0;
        for (const piece of pieces) await fill(piece);
      }
      if (opts.signal?.aborted) throw signalError();
      // No part was uploaded (the first is, as soon as one part's worth has come): one PUT.
      if (!uploadId) {
        const whole = Buffer.concat(pending);
        pending = [];
        const { etag } = await client.putObject(bucket, key, whole, whole.length, headers);
        return { etag, size, parts: 1 };
      }
      if (part && filled) await flushPart(part.subarray(0, filled));
      await sending;
      etags.sort((a, b) => a.part - b.part);
      const { etag } = await client.completeMultipartUpload(bucket, key, uploadId, etags);
      return { etag, size, parts: etags.length };
    } catch (err) {
      // A part still being sent would land after the abort and leave a part behind: wait for it first.
      await sending?.catch(() => undefined);
      if (uploadId) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
      throw err;
    } finally {
      // Every part sent has been answered by now (awaited above on both ways out).
      partBuffers.giveBack(buffers);
    }
  }

  async function readObject(bucket: string, key: string, onPiece: (piece: Buffer) => void, opts?: WholeObjectReadOptions): Promise<{ size: number }> {
    if (!endpoint.useSSL) {
      // Signed in the query string (SigV4, as every presigned URL), so the request needs no other header.
      const url = await client.presignedGetObject(bucket, key, READ_URL_SECONDS);
      try {
        return await readWholeObject(url, onPiece, opts);
      } catch (err) {
        // An answer the raw reader does not take (no Content-Length) has given onPiece nothing yet.
        if (!(err instanceof WholeObjectReadError && err.code === 'UnsupportedResponse')) throw err;
      }
    }
    // TLS, or such an answer: the HTTP client's stream, piece by piece.
    const stream = await client.getObject(bucket, key);
    let size = 0;
    stream.on('data', (piece: Buffer) => {
      try {
        onPiece(piece);
        size += piece.length;
      } catch (err) {
        stream.destroy(err instanceof Error ? err : new Error(String(err)));
      }
    });
    await finished(stream);
    return { size };
  }

  return {
    client,
    region,
    partSize,
    partBuffers,
    ensureBucket,
    async ensureBuckets(names: readonly string[]) {
      for (const name of names) await ensureBucket(name);
    },
    async ping(timeoutMs = 2000) {
      await withTimeout(client.listBuckets(), timeoutMs, `object storage at ${config.S3_ENDPOINT}`);
    },
    upload,
    presignedGet: (bucket, key, expirySeconds = 15 * 60) => client.presignedGetObject(bucket, key, expirySeconds),
    getRange: (bucket, key, offset, length) => client.getPartialObject(bucket, key, offset, length),
    getObject: (bucket, key) => client.getObject(bucket, key),
    readObject,
    removeObject: (bucket, key) => client.removeObject(bucket, key),
    async abortMultipartUpload(bucket, key, uploadId) {
      await client.abortMultipartUpload(bucket, key, uploadId).catch((err: { code?: string }) => {
        if (err?.code !== 'NoSuchUpload') throw err;
      });
    },
    startMultipart: (bucket, key, opts = {}) => client.initiateNewMultipartUpload(bucket, key, uploadHeaders(opts)),
    async uploadPart(bucket, key, uploadId, part, data) {
      const { etag } = await client.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} }, data);
      return { part, etag };
    },
    async completeMultipart(bucket, key, uploadId, parts) {
      await client.completeMultipartUpload(bucket, key, uploadId, [...parts]);
    },
  };
}
