import { createHash } from 'node:crypto';
import { createReadStream, writeSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BucketItem } from 'minio';
import type { ObjectStorage } from '../storage/index.js';
import { mapConcurrently } from './concurrency.js';
import { objectFileName, type BucketEntry, type ObjectEntry } from './manifest.js';

/** Buckets a verification makes for itself: never part of a backup (one may run beside it). */
export const SCRATCH_BUCKET_PREFIX = 'lv-verify-';

/** Headers minio-js puts in a stat's metaData beside the user's own (whose x-amz-meta- prefix it strips). */
const NOT_USER_METADATA = new Set(['content-type', 'cache-control', 'content-encoding', 'content-disposition', 'content-language', 'x-amz-website-redirect-location', 'x-amz-storage-class']);

async function listObjects(storage: ObjectStorage, bucket: string): Promise<BucketItem[]> {
  const items: BucketItem[] = [];
  for await (const item of storage.client.listObjectsV2(bucket, '', true)) {
    if ((item as BucketItem).name) items.push(item as BucketItem);
  }
  return items;
}

/** Every bucket of the storage, except a verification's scratch buckets. */
export async function sourceBuckets(storage: ObjectStorage): Promise<string[]> {
  return (await storage.client.listBuckets()).map((b) => b.name).filter((name) => !name.startsWith(SCRATCH_BUCKET_PREFIX)).sort();
}

/** Reads an object whole into `path`, hashing the bytes as they pass (pieces are written before the reader reuses their buffer). */
async function saveObject(storage: ObjectStorage, bucket: string, key: string, path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  const file = await open(path, 'w', 0o600);
  try {
    const { size } = await storage.readObject(bucket, key, (piece) => {
      hash.update(piece);
      for (let offset = 0; offset < piece.length; ) offset += writeSync(file.fd, piece, offset);
    });
    return { sha256: hash.digest('hex'), size };
  } finally {
    await file.close();
  }
}

/** Objects read from or written to the store at once: S3 serves several requests while one is hashed or written to disk. */
const OBJECT_CONCURRENCY = 4;

/** An object's content type and its user metadata (the x-amz-meta- headers, prefix stripped by minio-js). */
async function objectHeaders(storage: ObjectStorage, bucket: string, key: string): Promise<{ contentType?: string; metadata?: Record<string, string> }> {
  const headers = (await storage.client.statObject(bucket, key)).metaData as Record<string, string>;
  const metadata = Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_USER_METADATA.has(name) && !name.startsWith('x-amz-')));
  const contentType = headers['content-type'];
  return { ...(contentType ? { contentType } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) };
}

/**
 * What the last backup staged of each object (beside the bucket's folder): its ETag, size and time as
 * the store listed them, and the SHA-256 of the bytes saved. An object listed the same way again is
 * not read again, and its file keeps its inode and times, so restic sees it unchanged and skips it:
 * a second backup with nothing changed reads nothing but the databases.
 */
interface StagedObject {
  etag: string;
  size: number;
  lastModified: string;
  sha256: string;
  contentType?: string;
  metadata?: Record<string, string>;
}
type StagedIndex = Record<string, StagedObject>;

const indexPath = (directory: string) => `${directory}.index.json`;

async function readStagedIndex(directory: string): Promise<StagedIndex> {
  try {
    return JSON.parse(await readFile(indexPath(directory), 'utf8')) as StagedIndex;
  } catch {
    return {}; // none yet, or unreadable: every object is read again
  }
}

async function stagedFileSize(path: string): Promise<number | null> {
  return stat(path).then((s) => s.size, () => null);
}

/**
 * Stages every object of `bucket` in `directory` (one file each, named by its key's hash), hashing as
 * the bytes pass. The folder is kept between backups: an object whose listing (ETag, size, time)
 * matches the last backup's, and whose file is still whole, is not read again. Files of objects gone
 * from the bucket (a deleted recording) are removed here, so the staging folder never keeps them.
 */
export async function stageBucket(storage: ObjectStorage, bucket: string, directory: string): Promise<BucketEntry> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const previous = await readStagedIndex(directory);
  const index: StagedIndex = {};
  const entries = await mapConcurrently(await listObjects(storage, bucket), OBJECT_CONCURRENCY, async (item): Promise<ObjectEntry> => {
    const key = item.name!;
    const file = objectFileName(key);
    const path = join(directory, file);
    const listed = { etag: item.etag ?? '', size: item.size ?? 0, lastModified: item.lastModified ? new Date(item.lastModified).toISOString() : '' };
    const known = previous[key];
    const unchanged = known && listed.etag !== '' && known.etag === listed.etag && known.size === listed.size && known.lastModified === listed.lastModified && (await stagedFileSize(path)) === listed.size;
    const staged: StagedObject = unchanged ? known : { ...listed, ...(await saveObject(storage, bucket, key, path)), ...(await objectHeaders(storage, bucket, key)) };
    index[key] = staged;
    const { sha256, size, contentType, metadata } = staged;
    return { key, file, sha256, size, ...(contentType ? { contentType } : {}), ...(metadata ? { metadata } : {}) };
  });
  const kept = new Set(entries.map((entry) => entry.file));
  for (const name of await readdir(directory)) if (!kept.has(name)) await rm(join(directory, name), { force: true });
  await writeFile(indexPath(directory), JSON.stringify(index), { mode: 0o600 });
  return { name: bucket, objects: entries.length, bytes: entries.reduce((sum, e) => sum + e.size, 0), entries };
}

/** 'absent', 'empty' or 'in use' (holds at least one object). */
export async function bucketState(storage: ObjectStorage, bucket: string): Promise<'absent' | 'empty' | 'in use'> {
  if (!(await storage.client.bucketExists(bucket))) return 'absent';
  for await (const item of storage.client.listObjectsV2(bucket, '', true)) {
    if ((item as BucketItem).name) return 'in use';
  }
  return 'empty';
}

/** Uploads a staged bucket's objects into `target` (created when missing), each with its content type and metadata. */
export async function fillBucket(storage: ObjectStorage, entry: BucketEntry, directory: string, target: string): Promise<void> {
  await storage.ensureBucket(target);
  await mapConcurrently(entry.entries, OBJECT_CONCURRENCY, (object) =>
    storage.upload(target, object.key, createReadStream(join(directory, object.file)), { contentType: object.contentType, metadata: object.metadata }));
}

/** Each object of `bucket` read back whole: key -> size and SHA-256. */
export async function bucketDigests(storage: ObjectStorage, bucket: string): Promise<Map<string, { size: number; sha256: string }>> {
  const read = await mapConcurrently(await listObjects(storage, bucket), OBJECT_CONCURRENCY, async (item) => {
    const hash = createHash('sha256');
    const { size } = await storage.readObject(bucket, item.name!, (piece) => hash.update(piece));
    return [item.name!, { size, sha256: hash.digest('hex') }] as const;
  });
  return new Map(read);
}

/** Empties and removes a bucket (a verification's scratch bucket). */
export async function removeBucket(storage: ObjectStorage, bucket: string): Promise<void> {
  if (!(await storage.client.bucketExists(bucket))) return;
  const keys = (await listObjects(storage, bucket)).map((item) => item.name!);
  for (let i = 0; i < keys.length; i += 1000) await storage.client.removeObjects(bucket, keys.slice(i, i + 1000));
  await storage.client.removeBucket(bucket);
}
