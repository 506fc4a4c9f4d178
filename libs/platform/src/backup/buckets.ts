import { createHash } from 'node:crypto';
import { createReadStream, writeSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { BucketItem } from 'minio';
import type { ObjectStorage } from '../storage/index.js';
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

/** Streams every object of `bucket` into `directory` (one file each, named by its key's hash), hashing as the bytes pass. */
export async function stageBucket(storage: ObjectStorage, bucket: string, directory: string): Promise<BucketEntry> {
  await mkdir(directory, { recursive: true });
  const entries: ObjectEntry[] = [];
  for (const item of await listObjects(storage, bucket)) {
    const key = item.name!;
    const stat = await storage.client.statObject(bucket, key);
    const file = objectFileName(key);
    const saved = await saveObject(storage, bucket, key, join(directory, file));
    const metadata = Object.fromEntries(Object.entries(stat.metaData as Record<string, string>).filter(([name]) => !NOT_USER_METADATA.has(name) && !name.startsWith('x-amz-')));
    const contentType = (stat.metaData as Record<string, string>)['content-type'];
    entries.push({ key, file, ...saved, ...(contentType ? { contentType } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) });
  }
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
  for (const object of entry.entries) {
    await storage.upload(target, object.key, createReadStream(join(directory, object.file)), { contentType: object.contentType, metadata: object.metadata });
  }
}

/** Each object of `bucket` read back whole: key -> size and SHA-256. */
export async function bucketDigests(storage: ObjectStorage, bucket: string): Promise<Map<string, { size: number; sha256: string }>> {
  const digests = new Map<string, { size: number; sha256: string }>();
  for (const item of await listObjects(storage, bucket)) {
    const hash = createHash('sha256');
    const { size } = await storage.readObject(bucket, item.name!, (piece) => hash.update(piece));
    digests.set(item.name!, { size, sha256: hash.digest('hex') });
  }
  return digests;
}

/** Empties and removes a bucket (a verification's scratch bucket). */
export async function removeBucket(storage: ObjectStorage, bucket: string): Promise<void> {
  if (!(await storage.client.bucketExists(bucket))) return;
  const keys = (await listObjects(storage, bucket)).map((item) => item.name!);
  for (let i = 0; i < keys.length; i += 1000) await storage.client.removeObjects(bucket, keys.slice(i, i + 1000));
  await storage.client.removeBucket(bucket);
}
