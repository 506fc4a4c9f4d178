import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { Buckets } from '@lv/contracts';
import { createObjectStorage, type ObjectStorage } from '@lv/platform/storage';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../dev/s3-server.mjs';
import { BackupError, MANIFEST_FILE, objectFileName, removeBucket, Restic, runBackup, runRestore, runVerify, serviceDatabase, type BackupErrorCode, type BackupSettings } from '@lv/platform/backup';

// The restore drill on the real things: two service databases on the test PostgreSQL (fresh ones,
// with the event store's tables), the embedded S3 server, a keys folder, and restic's repository in
// a folder. Back up, wipe, restore into an empty stack, verify; then every kind of bad input.

const hex = () => randomBytes(4).toString('hex');

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function query<T extends pg.QueryResultRow>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return (await query('postgres', 'select 1 from pg_database where datname = $1', [name])).length === 1;
}

/** The whole of the object storage: bucket -> key -> bytes (hex). */
async function storageContents(storage: ObjectStorage): Promise<Record<string, Record<string, string>>> {
  const contents: Record<string, Record<string, string>> = {};
  for (const { name } of await storage.client.listBuckets()) {
    contents[name] = {};
    for await (const item of storage.client.listObjectsV2(name, '', true)) {
      const key = (item as { name: string }).name;
      contents[name][key] = (await readAll(await storage.getObject(name, key))).toString('hex');
    }
  }
  return contents;
}

async function refusal(promise: Promise<unknown>): Promise<BackupError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupError) return error;
    throw error;
  }
  throw new Error('the command was not refused');
}

const EVENTS = `insert into events (event_id, stream_id, stream_type, version, type, data) values ($1, $2, $3, $4, $5, $6)`;

describe('backup, restore and backup:verify (restic, pg_dump, S3)', () => {
  let work: string;
  let s3: RunningS3Server;
  let storage: ObjectStorage;
  let letters: TestDatabase;
  let media: TestDatabase;
  let sourcesDropped = false;
  const targetPrefixes: string[] = [];
  const voice = randomBytes(300_000);
  const objects = [
    { bucket: Buckets.vaultmedia, key: 'owner-1/recordings/first words.webm', body: voice, contentType: 'video/webm', metadata: { owner: 'owner-1' } },
    { bucket: Buckets.vaultmedia, key: 'owner-1/../odd/ключ', body: Buffer.from('a key no file system should see as a path'), contentType: 'text/plain' },
    { bucket: Buckets.documents, key: 'court/2026/order.pdf', body: Buffer.from('%PDF-1.7 a court order'), contentType: 'application/pdf' },
    { bucket: Buckets.documents, key: 'empty', body: Buffer.alloc(0), contentType: 'application/octet-stream' },
  ];

  const settings = (over: Partial<BackupSettings> & { password?: string } = {}): BackupSettings => ({
    repository: { repository: join(work, 'repo'), password: over.password ?? 'spec-repository-password-0123456789abcdef', env: { ...process.env, RESTIC_CACHE_DIR: join(work, 'restic-cache') } },
    serverUrl: POSTGRES_ADMIN_URL,
    databases: [
      { service: 'letters', name: letters.name },
      { service: 'vault-media', name: media.name },
    ],
    databasePrefix: `lv_bkr_${hex()}_`,
    storage: { S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey },
    keysDir: join(work, 'keys'),
    secrets: { MEDIA_LINK_SECRET: 'spec-media-link-secret-0123456789abcdef' },
    stagingDir: join(work, 'staging'),
    ...over,
  });

  /** A target no one has written to: its databases, keys folder (and the storage as it is now). */
  const emptyTarget = () => {
    const target = settings({ keysDir: join(work, `keys-${hex()}`) });
    targetPrefixes.push(target.databasePrefix);
    return target;
  };

  async function assertUntouched(target: BackupSettings, storageBefore: Record<string, Record<string, string>>): Promise<void> {
    for (const service of ['letters', 'vault-media']) expect(await databaseExists(serviceDatabase(target.databasePrefix, service))).toBe(false);
    expect(existsSync(target.keysDir)).toBe(false);
    expect(await storageContents(storage)).toEqual(storageBefore);
    expect((await readdir(join(work, 'staging')).catch(() => [])).filter((name) => name.startsWith('legacy-vault-restore-'))).toEqual([]);
  }

  let snapshot: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'lv-backup-'));
    s3 = await startS3Server({ port: 0, directory: join(work, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' });
    storage = createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
    [letters, media] = await Promise.all([createTestDatabase([], 'backup-letters'), createTestDatabase([], 'backup-media')]);
    await query(letters.name, 'create table letter_keys (letter_id uuid primary key, data_key text not null)');
    for (const [i, id] of ['7a1d1f0e-0000-4000-8000-000000000001', '7a1d1f0e-0000-4000-8000-000000000002'].entries()) {
      await query(letters.name, EVENTS, [crypto.randomUUID(), `letter-${id}`, 'letter', 1, 'LetterWritten', JSON.stringify({ title: `letter ${i}`, words: { alg: 'A256GCM', ct: 'c2VhbGVk' } })]);
      await query(letters.name, 'insert into letter_keys values ($1, $2)', [id, randomBytes(32).toString('base64')]);
    }
    await query(letters.name, EVENTS, [crypto.randomUUID(), 'letter-7a1d1f0e-0000-4000-8000-000000000001', 'letter', 2, 'LetterSealed', '{"until":"2040-06-01"}']);
    await query(media.name, EVENTS, [crypto.randomUUID(), 'recording-1', 'recording', 1, 'RecordingStored', JSON.stringify({ key: objects[0]!.key, sha256: 'x' })]);
    await query(media.name, `insert into outbox (event_id, subject, payload) values ($1, 'vault-media.recording.stored.v1', '{}')`, [crypto.randomUUID()]);
    for (const o of objects) {
      await storage.ensureBucket(o.bucket);
      await storage.upload(o.bucket, o.key, Readable.from([o.body]), { contentType: o.contentType, metadata: o.metadata });
    }
    await mkdir(join(work, 'keys'), { mode: 0o700 });
    await writeFile(join(work, 'keys', 'jwt-private.pem'), '-----BEGIN PRIVATE KEY-----\nspec\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
    await writeFile(join(work, 'keys', 'evidence-public.pem'), '-----BEGIN PUBLIC KEY-----\nspec\n-----END PUBLIC KEY-----\n');
  });

  afterAll(async () => {
    if (!sourcesDropped) await Promise.all([letters?.drop(), media?.drop()]);
    for (const prefix of targetPrefixes) {
      for (const service of ['letters', 'vault-media']) await query('postgres', `drop database if exists "${serviceDatabase(prefix, service)}" with (force)`);
    }
    await s3?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up every database, bucket and key into a new restic repository and prints the snapshot id', async () => {
    const summary = await runBackup(settings());
    snapshot = summary.snapshot;
    expect(snapshot).toMatch(/^[0-9a-f]{64}$/);
    // Rows of every table, MikroORM's migrations table included (the platform's two migrations here).
    expect(summary.databases).toEqual([
      expect.objectContaining({ service: 'letters', database: letters.name, tables: 8, rows: 7 }),
      expect.objectContaining({ service: 'vault-media', database: media.name, tables: 7, rows: 4 }),
    ]);
    expect(summary.buckets).toEqual([
      { name: Buckets.documents, objects: 2, bytes: objects[2]!.body.length },
      { name: Buckets.vaultmedia, objects: 2, bytes: voice.length + objects[1]!.body.length },
    ]);
    expect(summary.keys).toEqual(['evidence-public.pem', 'jwt-private.pem', 'secrets.json']);
    // Encrypted: not one byte of the recording or of a letter's title lies in the repository as it was.
    const packs = await readdir(join(work, 'repo', 'data'), { recursive: true, withFileTypes: true });
    for (const pack of packs.filter((p) => p.isFile())) {
      const bytes = await readFile(join(pack.parentPath, pack.name));
      expect(bytes.includes(voice.subarray(1000, 1064))).toBe(false);
      expect(bytes.includes(Buffer.from('letter 0'))).toBe(false);
    }
    // Only the objects stay staged for the next backup: no dump, no key, no manifest, no lock.
    expect(await readdir(join(work, 'staging'))).toEqual(['legacy-vault-backup']);
    expect(await readdir(join(work, 'staging', 'legacy-vault-backup'))).toEqual(['objects']);
  });

  it('a second backup reads only what changed: unchanged objects stay staged as they were, a changed one is read again, a removed one leaves the staging folder', async () => {
    const staged = join(work, 'staging', 'legacy-vault-backup', 'objects');
    const stagedFile = (bucket: string, key: string) => join(staged, bucket, objectFileName(key));
    const voiceFile = stagedFile(Buckets.vaultmedia, objects[0]!.key);
    const before = await stat(voiceFile);
    const stagedMedia = async () => (await readdir(join(staged, Buckets.vaultmedia))).sort();
    const firstStaged = await stagedMedia();
    expect(firstStaged).toHaveLength(2);

    const again = await runBackup(settings());
    const after = await stat(voiceFile);
    // Not written again (same inode and modification time), so restic saw it unchanged and stored nothing of it.
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(again.addedBytes).toBeLessThan(voice.length / 4);

    const changed = Buffer.from('a court order, amended');
    await storage.upload(Buckets.documents, 'empty', Readable.from([changed]), { contentType: 'application/octet-stream' });
    await storage.upload(Buckets.vaultmedia, 'owner-1/recordings/deleted soon.webm', Readable.from([randomBytes(1000)]), { contentType: 'video/webm' });
    await runBackup(settings());
    expect(await readFile(stagedFile(Buckets.documents, 'empty'))).toEqual(changed);
    expect(existsSync(stagedFile(Buckets.vaultmedia, 'owner-1/recordings/deleted soon.webm'))).toBe(true);

    // Put back as the first snapshot has them (the restore below compares with it), and back up once more.
    await storage.upload(Buckets.documents, 'empty', Readable.from([Buffer.alloc(0)]), { contentType: 'application/octet-stream' });
    await storage.client.removeObject(Buckets.vaultmedia, 'owner-1/recordings/deleted soon.webm');
    const last = await runBackup(settings());
    expect(last.buckets).toEqual([
      { name: Buckets.documents, objects: 2, bytes: objects[2]!.body.length },
      { name: Buckets.vaultmedia, objects: 2, bytes: voice.length + objects[1]!.body.length },
    ]);
    expect((await readFile(stagedFile(Buckets.documents, 'empty'))).length).toBe(0);
    expect(existsSync(stagedFile(Buckets.vaultmedia, 'owner-1/recordings/deleted soon.webm'))).toBe(false);
    expect(await stagedMedia()).toEqual(firstStaged);
  });

  it('backup:verify restores into scratch databases and buckets, checks them against the manifest and removes them', async () => {
    const report = await runVerify(settings(), snapshot.slice(0, 8));
    expect(report).toMatchObject({ snapshot, ok: true, keys: { files: 3, mismatches: [] } });
    expect(report.databases).toEqual([
      { service: 'letters', tables: 8, rows: 7, mismatches: [] },
      { service: 'vault-media', tables: 7, rows: 4, mismatches: [] },
    ]);
    expect(report.buckets.map((b) => [b.name, b.objects, b.mismatches])).toEqual([
      [Buckets.documents, 2, []],
      [Buckets.vaultmedia, 2, []],
    ]);
    expect((await storage.client.listBuckets()).map((b) => b.name).sort()).toEqual([Buckets.documents, Buckets.vaultmedia].sort());
    expect(await query('postgres', "select datname from pg_database where datname like 'lv\\_verify\\_%'")).toEqual([]);
  });

  it('after the stack is wiped, restores the snapshot into an empty one: databases, objects, keys as they were', async () => {
    const lettersBefore = await query(letters.name, 'select stream_id, version, type, data from events order by global_position');
    const keysBefore = await query(letters.name, 'select * from letter_keys order by letter_id');
    // The wipe: the databases dropped, the buckets and the keys folder gone.
    await Promise.all([letters.drop(), media.drop()]);
    sourcesDropped = true;
    for (const bucket of [Buckets.vaultmedia, Buckets.documents]) await removeBucket(storage, bucket);
    await rm(join(work, 'keys'), { recursive: true });

    const target = emptyTarget();
    const restored = await runRestore({ ...target, keysDir: join(work, 'keys') }, snapshot);
    expect(restored.databases).toEqual([serviceDatabase(target.databasePrefix, 'letters'), serviceDatabase(target.databasePrefix, 'vault-media')]);

    const restoredLetters = serviceDatabase(target.databasePrefix, 'letters');
    expect(await query(restoredLetters, 'select stream_id, version, type, data from events order by global_position')).toEqual(lettersBefore);
    expect(await query(restoredLetters, 'select * from letter_keys order by letter_id')).toEqual(keysBefore);
    expect(await query(serviceDatabase(target.databasePrefix, 'vault-media'), 'select subject from outbox')).toEqual([{ subject: 'vault-media.recording.stored.v1' }]);
    // The restored event store takes new events where the old one stopped (its sequences came back too).
    await query(restoredLetters, EVENTS, [crypto.randomUUID(), 'letter-new', 'letter', 1, 'LetterWritten', '{}']);
    expect(await query(restoredLetters, 'select max(global_position)::int as last from events')).toEqual([{ last: 4 }]);

    for (const o of objects) {
      expect((await readAll(await storage.getObject(o.bucket, o.key))).equals(o.body)).toBe(true);
      const stat = await storage.client.statObject(o.bucket, o.key);
      expect(stat.metaData['content-type']).toBe(o.contentType);
      if (o.metadata) expect(stat.metaData['owner']).toBe(o.metadata.owner);
    }
    expect(await readFile(join(work, 'keys', 'jwt-private.pem'), 'utf8')).toContain('spec');
    expect(JSON.parse(await readFile(join(work, 'keys', 'secrets.json'), 'utf8'))).toEqual({ MEDIA_LINK_SECRET: 'spec-media-link-secret-0123456789abcdef' });
  });

  it('refuses to restore over a stack that holds data, naming what is in the way, and changes nothing', async () => {
    const filled = settings({ databasePrefix: targetPrefixes[0]! });
    const rowsBefore = await query(serviceDatabase(filled.databasePrefix, 'letters'), 'select count(*)::int as n from events');
    const storageBefore = await storageContents(storage);
    const error = await refusal(runRestore(filled, snapshot));
    expect(error.code).toBe<BackupErrorCode>('BACKUP_TARGET_NOT_EMPTY');
    expect(error.message).toContain(`database ${serviceDatabase(filled.databasePrefix, 'letters')}`);
    expect(error.message).toContain(`bucket ${Buckets.vaultmedia}`);
    expect(await query(serviceDatabase(filled.databasePrefix, 'letters'), 'select count(*)::int as n from events')).toEqual(rowsBefore);
    expect(await storageContents(storage)).toEqual(storageBefore);
  });

  it('a wrong repository password: BACKUP_WRONG_PASSWORD, and the target is untouched', async () => {
    const storageBefore = await storageContents(storage);
    const target = { ...emptyTarget(), repository: settings({ password: 'not-the-repository-password-at-all' }).repository };
    const error = await refusal(runRestore(target, snapshot));
    expect(error.code).toBe<BackupErrorCode>('BACKUP_WRONG_PASSWORD');
    expect(error.message).toContain('BACKUP_PASSWORD');
    expect((await refusal(runVerify(target, snapshot))).code).toBe('BACKUP_WRONG_PASSWORD');
    // A backup with the wrong password takes nothing either.
    expect((await refusal(runBackup(target))).code).toBe('BACKUP_WRONG_PASSWORD');
    await assertUntouched(target, storageBefore);
  });

  it('an unknown snapshot, a malformed id or a missing repository: named, and the target is untouched', async () => {
    const storageBefore = await storageContents(storage);
    const target = emptyTarget();
    const unknown = await refusal(runRestore(target, 'deadbeef'));
    expect(unknown.code).toBe<BackupErrorCode>('BACKUP_UNKNOWN_SNAPSHOT');
    expect(unknown.message).toContain('deadbeef');
    expect((await refusal(runRestore(target, '../etc'))).code).toBe('BACKUP_UNKNOWN_SNAPSHOT');
    const nowhere = { ...target, repository: { ...target.repository, repository: join(work, 'no-repo') } };
    expect((await refusal(runRestore(nowhere, snapshot))).code).toBe('BACKUP_NO_REPOSITORY');
    expect(existsSync(join(work, 'no-repo'))).toBe(false);
    await assertUntouched(target, storageBefore);
  });

  it('a tampered repository: BACKUP_DAMAGED from restore and from backup:verify, and the target is untouched', async () => {
    const storageBefore = await storageContents(storage);
    const tampered = join(work, 'tampered');
    await cp(join(work, 'repo'), tampered, { recursive: true });
    // One flipped byte in the middle of every pack: restic authenticates every blob it reads.
    for (const pack of (await readdir(join(tampered, 'data'), { recursive: true, withFileTypes: true })).filter((p) => p.isFile())) {
      const path = join(pack.parentPath, pack.name);
      const bytes = await readFile(path);
      bytes.writeUInt8(bytes.readUInt8(bytes.length >> 1) ^ 0xff, bytes.length >> 1);
      await writeFile(path, bytes);
    }
    const target = { ...emptyTarget(), repository: { ...settings().repository, repository: tampered, env: { ...process.env, RESTIC_CACHE_DIR: join(work, 'tampered-cache') } } };
    const error = await refusal(runRestore(target, snapshot));
    expect(error.code).toBe<BackupErrorCode>('BACKUP_DAMAGED');
    expect(error.message).toContain(tampered);
    expect((await refusal(runVerify(target, snapshot))).code).toBe('BACKUP_DAMAGED');
    await assertUntouched(target, storageBefore);
  });

  it('a truncated repository (the recording\'s pack cut short): BACKUP_DAMAGED at once, and the target is untouched', async () => {
    const storageBefore = await storageContents(storage);
    const truncated = join(work, 'truncated');
    await cp(join(work, 'repo'), truncated, { recursive: true });
    const packs = (await readdir(join(truncated, 'data'), { recursive: true, withFileTypes: true })).filter((p) => p.isFile()).map((p) => join(p.parentPath, p.name));
    let cut = 0;
    for (const path of packs) {
      const bytes = await readFile(path);
      // Only the data pack that holds the recording (300 kB); the small packs of trees stay whole.
      if (bytes.length > voice.length) {
        await writeFile(path, bytes.subarray(0, bytes.length >> 1));
        cut++;
      }
    }
    expect(cut).toBe(1);
    const target = { ...emptyTarget(), repository: { ...settings().repository, repository: truncated, env: { ...process.env, RESTIC_CACHE_DIR: join(work, 'truncated-cache') } } };
    expect((await refusal(runRestore(target, snapshot))).code).toBe<BackupErrorCode>('BACKUP_DAMAGED');
    await assertUntouched(target, storageBefore);
  });

  it('a snapshot written by a newer Legacy Vault: BACKUP_NEWER_FORMAT, and the target is untouched', async () => {
    const storageBefore = await storageContents(storage);
    const folder = join(work, 'newer');
    await mkdir(folder);
    await writeFile(join(folder, MANIFEST_FILE), JSON.stringify({ format: 2, createdAt: new Date().toISOString(), databases: [], buckets: [], keys: [] }));
    const { snapshot: newer } = await new Restic(settings().repository).backup(folder);
    const target = emptyTarget();
    const error = await refusal(runRestore(target, newer.id));
    expect(error.code).toBe<BackupErrorCode>('BACKUP_NEWER_FORMAT');
    expect(error.message).toContain('format 2');
    await assertUntouched(target, storageBefore);
  });
});

