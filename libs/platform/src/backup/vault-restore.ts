import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createObjectStorage, type ObjectStorage } from '../storage/index.js';
import { BackupError } from './backup-error.js';
import { serviceDatabase, type BackupSettings } from './backup-settings.js';
import { bucketDigests, bucketState, fillBucket, removeBucket, SCRATCH_BUCKET_PREFIX } from './buckets.js';
import { mapConcurrently } from './concurrency.js';
import { databaseRowCounts, databaseState, dropDatabase, ensureDatabase, restoreDatabase } from './databases.js';
import { conflictingKeys, writeKeys } from './key-material.js';
import { fileSha256, MANIFEST_FILE, parseManifest, rowCountMismatches, type BackupManifest } from './manifest.js';
import { Restic, type SnapshotInfo } from './restic.js';

/** Where a restore writes: a database name per service, a bucket name per bucket, a keys folder. */
interface RestoreTarget {
  serverUrl: string;
  database(service: string): string;
  bucket(name: string): string;
  keysDir: string;
}

interface StagedSnapshot {
  snapshot: SnapshotInfo;
  manifest: BackupManifest;
  dir: string;
}

/** Every staged file against the manifest; the first differences name the problem. */
async function checkStagedFiles(manifest: BackupManifest, dir: string): Promise<void> {
  const expected = [
    ...manifest.databases.map((d) => ({ path: d.file, sha256: d.sha256, label: d.file })),
    ...manifest.buckets.flatMap((b) => b.entries.map((o) => ({ path: `objects/${b.name}/${o.file}`, sha256: o.sha256, label: `${b.name}/${o.key}` }))),
    ...manifest.keys.map((k) => ({ path: `keys/${k.file}`, sha256: k.sha256, label: `keys/${k.file}` })),
  ];
  // Two at a time: hashing is CPU work, reading is not.
  const checked = await mapConcurrently(expected, 2, async (file) => ((await fileSha256(join(dir, file.path)).catch(() => null))?.sha256 === file.sha256 ? null : file.label));
  const bad = checked.filter((label): label is string => label !== null);
  if (bad.length) throw new BackupError('BACKUP_DAMAGED', `the snapshot does not match its manifest (${bad.length} file${bad.length > 1 ? 's' : ''}: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', ...' : ''})`);
}

/**
 * Unpacks a snapshot into a folder of its own and checks it: the repository's password, the
 * snapshot's existence, the repository's structure, restic's own authentication of every blob, the manifest's format and each
 * file's SHA-256. Nothing of the target has been touched when any of these fails.
 */
async function stageSnapshot(settings: BackupSettings, snapshotId: string): Promise<StagedSnapshot> {
  const restic = new Restic(settings.repository);
  await restic.open(false);
  const snapshot = await restic.snapshot(snapshotId);
  await restic.check();
  await mkdir(settings.stagingDir, { recursive: true });
  const dir = await mkdtemp(join(settings.stagingDir, 'legacy-vault-restore-'));
  try {
    await restic.restore(snapshot.id, dir);
    const manifest = parseManifest(await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => ''));
    await checkStagedFiles(manifest, dir);
    return { snapshot, manifest, dir };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A restore writes only into an empty target: no database with tables, no bucket with objects, no other key under a snapshot key's name. */
async function assertEmptyTarget(manifest: BackupManifest, target: RestoreTarget, storage: ObjectStorage): Promise<void> {
  const taken: string[] = [];
  for (const d of manifest.databases) if ((await databaseState(target.serverUrl, target.database(d.service))) === 'in use') taken.push(`database ${target.database(d.service)}`);
  for (const b of manifest.buckets) if ((await bucketState(storage, target.bucket(b.name))) === 'in use') taken.push(`bucket ${target.bucket(b.name)}`);
  for (const path of await conflictingKeys(manifest.keys, target.keysDir)) taken.push(`key file ${path}`);
  if (taken.length) throw new BackupError('BACKUP_TARGET_NOT_EMPTY', `a restore needs an empty target, and these hold data: ${taken.join(', ')} (restore on an empty stack, or drop them first)`);
}

async function writeTarget(staged: StagedSnapshot, target: RestoreTarget, storage: ObjectStorage): Promise<void> {
  // The databases made one by one, then restored 3 at once (each pg_restore waits on the server as much as it works).
  for (const d of staged.manifest.databases) await ensureDatabase(target.serverUrl, target.database(d.service));
  await mapConcurrently(staged.manifest.databases, 3, (d) => restoreDatabase(target.serverUrl, target.database(d.service), join(staged.dir, d.file)));
  for (const b of staged.manifest.buckets) await fillBucket(storage, b, join(staged.dir, 'objects', b.name), target.bucket(b.name));
  await writeKeys(staged.manifest.keys, join(staged.dir, 'keys'), target.keysDir);
}

export interface RestoreSummary {
  snapshot: string;
  time: string;
  databases: string[];
  buckets: { name: string; objects: number; bytes: number }[];
  keysDir: string;
  keys: string[];
  next: string[];
}

/** `npm run vault -- restore <snapshot>`: the snapshot, checked, into the configured (empty) stack. */
export async function runRestore(settings: BackupSettings, snapshotId: string): Promise<RestoreSummary> {
  const staged = await stageSnapshot(settings, snapshotId);
  try {
    const storage = createObjectStorage(settings.storage);
    const target: RestoreTarget = { serverUrl: settings.serverUrl, database: (service) => serviceDatabase(settings.databasePrefix, service), bucket: (name) => name, keysDir: settings.keysDir };
    await assertEmptyTarget(staged.manifest, target, storage);
    await writeTarget(staged, target, storage);
    return {
      snapshot: staged.snapshot.id,
      time: staged.snapshot.time,
      databases: staged.manifest.databases.map((d) => target.database(d.service)),
      buckets: staged.manifest.buckets.map((b) => ({ name: b.name, objects: b.objects, bytes: b.bytes })),
      keysDir: settings.keysDir,
      keys: staged.manifest.keys.map((k) => k.file),
      next: [
        'start the stack (npm start, or the deployment): each service migrates its restored database and publishes what its outbox still holds',
        `each service replays the erasure journal (database ${serviceDatabase(settings.databasePrefix, 'erasures')}, never in a snapshot) as it starts: what was deleted after this snapshot is deleted again`,
        ...(staged.manifest.keys.some((k) => k.file === 'secrets.json') ? [`set the secrets of ${join(settings.keysDir, 'secrets.json')} in the services' environment`] : []),
        'npm run vault -- projections:rebuild <service> re-derives a read model from its event store when in doubt',
      ],
    };
  } finally {
    await rm(staged.dir, { recursive: true, force: true });
  }
}

export interface VerifyReport {
  snapshot: string;
  time: string;
  ok: boolean;
  databases: { service: string; tables: number; rows: number; mismatches: string[] }[];
  buckets: { name: string; objects: number; bytes: number; mismatches: string[] }[];
  keys: { files: number; mismatches: string[] };
  durationMs: number;
}

/** Every difference a verification found, in words: `database letters: ...`, `bucket lv-media: ...`, `key ...`. */
export const verifyProblems = (report: VerifyReport): string[] => [
  ...report.databases.flatMap((d) => d.mismatches.map((m) => `database ${d.service}: ${m}`)),
  ...report.buckets.flatMap((b) => b.mismatches.map((m) => `bucket ${b.name}: ${m}`)),
  ...report.keys.mismatches.map((m) => `key ${m}`),
];

/** Differences between a bucket's manifest entries and the digests read back from storage. */
function objectMismatches(entries: BackupManifest['buckets'][number]['entries'], digests: Map<string, { size: number; sha256: string }>): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    const read = digests.get(entry.key);
    if (!read) problems.push(`${entry.key}: missing`);
    else if (read.sha256 !== entry.sha256 || read.size !== entry.size) problems.push(`${entry.key}: SHA-256 ${read.sha256} (${read.size} bytes), the manifest says ${entry.sha256} (${entry.size} bytes)`);
  }
  const known = new Set(entries.map((e) => e.key));
  for (const key of digests.keys()) if (!known.has(key)) problems.push(`${key}: not in the manifest`);
  return problems;
}

/**
 * `npm run vault -- backup:verify <snapshot>`: restores the snapshot into scratch databases and
 * buckets of unique names and a scratch keys folder, reads everything back (each object's SHA-256,
 * each table's rows, each key's SHA-256) against the manifest, then removes the scratch copies.
 */
export async function runVerify(settings: BackupSettings, snapshotId: string): Promise<VerifyReport> {
  const started = Date.now();
  const staged = await stageSnapshot(settings, snapshotId);
  const run = randomBytes(4).toString('hex');
  const target: RestoreTarget = {
    serverUrl: settings.serverUrl,
    database: (service) => serviceDatabase(`lv_verify_${run}_`, service),
    bucket: (name) => `${SCRATCH_BUCKET_PREFIX}${run}-${name}`.slice(0, 63).replace(/[-.]+$/, ''),
    keysDir: join(staged.dir, 'verify-keys'),
  };
  const storage = createObjectStorage(settings.storage);
  try {
    await writeTarget(staged, target, storage);
    const databases = [];
    for (const d of staged.manifest.databases) {
      const counts = await databaseRowCounts(target.serverUrl, target.database(d.service));
      databases.push({ service: d.service, tables: Object.keys(counts).length, rows: Object.values(counts).reduce((a, b) => a + b, 0), mismatches: rowCountMismatches(d.tables, counts) });
    }
    const buckets = [];
    for (const b of staged.manifest.buckets) {
      const digests = await bucketDigests(storage, target.bucket(b.name));
      buckets.push({ name: b.name, objects: digests.size, bytes: [...digests.values()].reduce((sum, d) => sum + d.size, 0), mismatches: objectMismatches(b.entries, digests) });
    }
    const keyMismatches: string[] = [];
    for (const k of staged.manifest.keys) {
      const actual = await fileSha256(join(target.keysDir, k.file)).catch(() => null);
      if (actual?.sha256 !== k.sha256) keyMismatches.push(`${k.file}: ${actual ? 'other contents' : 'missing'}`);
    }
    const ok = [...databases, ...buckets].every((x) => x.mismatches.length === 0) && keyMismatches.length === 0;
    return { snapshot: staged.snapshot.id, time: staged.snapshot.time, ok, databases, buckets, keys: { files: staged.manifest.keys.length, mismatches: keyMismatches }, durationMs: Date.now() - started };
  } finally {
    for (const d of staged.manifest.databases) await dropDatabase(target.serverUrl, target.database(d.service)).catch(() => undefined);
    for (const b of staged.manifest.buckets) await removeBucket(storage, target.bucket(b.name)).catch(() => undefined);
    await rm(staged.dir, { recursive: true, force: true });
  }
}
