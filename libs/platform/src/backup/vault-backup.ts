import { mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createObjectStorage } from '../storage/index.js';
import { BackupError } from './backup-error.js';
import type { BackupSettings } from './backup-settings.js';
import { sourceBuckets, stageBucket } from './buckets.js';
import { mapConcurrently } from './concurrency.js';
import { dumpDatabase } from './databases.js';
import { stageKeys } from './key-material.js';
import { fileSha256, MANIFEST_FILE, MANIFEST_FORMAT, type BackupManifest, type DatabaseEntry } from './manifest.js';
import { Restic } from './restic.js';

export interface BackupSummary {
  snapshot: string;
  shortId: string;
  time: string;
  databases: { service: string; database: string; tables: number; rows: number; bytes: number }[];
  buckets: { name: string; objects: number; bytes: number }[];
  keys: string[];
  /** Bytes the repository had to add: what deduplication did not find there already. */
  addedBytes: number;
  totalBytes: number;
  durationMs: number;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * One backup at a time per staging folder: a lock file beside it holds the running backup's pid
 * (one left by a backup that died is taken over). The folder's path never changes, so restic
 * finds each snapshot's parent and retention groups them.
 */
async function lockStaging(stagingDir: string): Promise<{ dir: string; release(): Promise<void> }> {
  const dir = join(stagingDir, 'legacy-vault-backup');
  const lock = `${dir}.lock`;
  await mkdir(stagingDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (holder && isAlive(holder)) throw new BackupError('BACKUP_BUSY', `another backup (pid ${holder}) is running with staging folder ${dir}`);
      await rm(lock, { force: true });
    }
  }
  // The objects' folder stays from the last backup (stageBucket reads only what changed); the
  // dumps, the key material and the manifest are made again each time and never outlive a backup.
  const transient = () => Promise.all(['db', 'keys', MANIFEST_FILE].map((name) => rm(join(dir, name), { recursive: true, force: true })));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await transient();
  return {
    dir,
    async release() {
      await transient();
      await rm(lock, { force: true });
    },
  };
}

/** Databases dumped at once. */
const DUMP_CONCURRENCY = 3;

/** A bucket no longer in the store leaves nothing in the staging folder (its files and its index). */
async function forgetRemovedBuckets(objectsDir: string, buckets: readonly string[]): Promise<void> {
  const kept = new Set(buckets.flatMap((bucket) => [bucket, `${bucket}.index.json`]));
  for (const name of await readdir(objectsDir).catch(() => [])) if (!kept.has(name)) await rm(join(objectsDir, name), { recursive: true, force: true });
}

/**
 * `npm run vault -- backup`: every service's database (pg_dump, rows counted in the dump's own
 * snapshot), then every bucket's objects (so an object a dumped row names was stored before the
 * row was committed), then the key material, with the manifest, into one restic snapshot.
 */
export async function runBackup(settings: BackupSettings): Promise<BackupSummary> {
  const started = Date.now();
  const restic = new Restic(settings.repository);
  // The repository and its password are checked while the first databases are dumped (opening costs
  // restic a key derivation); a refusal starts no further dump, and a backup that cannot be stored is
  // not taken: its refusal is the error, before any dump's.
  let refused = false;
  const opening = restic.open(true);
  opening.catch(() => { refused = true; });
  const staging = await lockStaging(settings.stagingDir).catch(async (error: unknown) => {
    await opening;
    throw error;
  });
  try {
    await mkdir(join(staging.dir, 'db'));
    // Each database in a snapshot of its own (they are separate stores), a few at once: pg_dump waits on the server as much as it works.
    const dumping = mapConcurrently(settings.databases, DUMP_CONCURRENCY, async ({ service, name: database }): Promise<DatabaseEntry> => {
      // Rethrows the refusal: no dump starts after it.
      if (refused) await opening;
      const file = `db/${service}.dump`;
      const tables = await dumpDatabase(settings.serverUrl, database, join(staging.dir, file));
      return { service, database, file, ...(await fileSha256(join(staging.dir, file))), tables };
    });
    const [opened, dumped] = await Promise.allSettled([opening, dumping]);
    if (opened.status === 'rejected') throw opened.reason;
    if (dumped.status === 'rejected') throw dumped.reason;
    const databases = dumped.value;
    const storage = createObjectStorage(settings.storage);
    const buckets = [];
    const objectsDir = join(staging.dir, 'objects');
    const bucketNames = await sourceBuckets(storage);
    for (const bucket of bucketNames) buckets.push(await stageBucket(storage, bucket, join(objectsDir, bucket)));
    await forgetRemovedBuckets(objectsDir, bucketNames);
    const keys = await stageKeys(settings.keysDir, settings.secrets, join(staging.dir, 'keys'));
    const manifest: BackupManifest = { format: MANIFEST_FORMAT, createdAt: new Date().toISOString(), databases, buckets, keys };
    await writeFile(join(staging.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
    const { snapshot, addedBytes, totalBytes } = await restic.backup(staging.dir);
    return {
      snapshot: snapshot.id,
      shortId: snapshot.short_id,
      time: snapshot.time,
      databases: databases.map((d) => ({ service: d.service, database: d.database, tables: Object.keys(d.tables).length, rows: Object.values(d.tables).reduce((a, b) => a + b, 0), bytes: d.bytes })),
      buckets: buckets.map((b) => ({ name: b.name, objects: b.objects, bytes: b.bytes })),
      keys: keys.map((k) => k.file),
      addedBytes,
      totalBytes,
      durationMs: Date.now() - started,
    };
  } finally {
    await staging.release();
  }
}
