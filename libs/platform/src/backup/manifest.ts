import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { BackupError } from './backup-error.js';

/**
 * What a snapshot holds and what it must read back as: written beside the data as `manifest.json`.
 * A restore checks every file against it before it touches the target; a verification also checks
 * what it restored (each object's SHA-256, each table's rows).
 */
export const MANIFEST_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';

export interface DatabaseEntry {
  /** The service that owns it (its database name in the target comes from this). */
  service: string;
  /** Its name where it was dumped. */
  database: string;
  /** pg_dump's custom format, relative to the snapshot's root. */
  file: string;
  bytes: number;
  sha256: string;
  /** Rows per table ("schema.table"), counted in the snapshot the dump was taken from. */
  tables: Record<string, number>;
}

export interface ObjectEntry {
  key: string;
  file: string;
  size: number;
  sha256: string;
  contentType?: string;
  /** User metadata (x-amz-meta-*), without the prefix. */
  metadata?: Record<string, string>;
}

export interface BucketEntry {
  name: string;
  objects: number;
  bytes: number;
  entries: ObjectEntry[];
}

export interface KeyEntry {
  file: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  createdAt: string;
  databases: DatabaseEntry[];
  buckets: BucketEntry[];
  keys: KeyEntry[];
}

/** The manifest a snapshot carries; refuses one written by a newer Legacy Vault, whose layout this one cannot know. */
export function parseManifest(text: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupError('BACKUP_DAMAGED', 'the snapshot has no readable manifest.json: it was not made by `npm run vault -- backup`, or it is damaged');
  }
  if (typeof manifest.format !== 'number' || !Array.isArray(manifest.databases) || !Array.isArray(manifest.buckets) || !Array.isArray(manifest.keys)) {
    throw new BackupError('BACKUP_DAMAGED', 'the snapshot\'s manifest.json is incomplete: it was not made by `npm run vault -- backup`, or it is damaged');
  }
  if (manifest.format > MANIFEST_FORMAT) {
    throw new BackupError('BACKUP_NEWER_FORMAT', `the snapshot was made by a newer Legacy Vault (manifest format ${manifest.format}, this one reads up to ${MANIFEST_FORMAT}): restore it with that version`);
  }
  return manifest as BackupManifest;
}

/** The staged file name of an object: its key's SHA-256, so no key (slashes, "..", 1,024 bytes) becomes a path. */
export const objectFileName = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export async function fileSha256(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Differences between the rows a manifest recorded and the rows counted, one line each. */
export function rowCountMismatches(expected: Record<string, number>, actual: Record<string, number>): string[] {
  const tables = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  return tables.filter((t) => expected[t] !== actual[t]).map((t) => `${t}: ${expected[t] ?? 'no table'} rows in the manifest, ${actual[t] ?? 'no table'} restored`);
}
