import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { MEDIA_BUCKET, MUSIC_BUCKET, VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { removeBucket, runBackup, runRestore, serviceDatabase } from '@lv/platform/backup';
import { createObjectStorage } from '@lv/platform/storage';
import { createTestDatabase, databaseUrl, deleteStackStreams, generateTestKeys, uniqueStackId, waitFor, type TestDatabase, queryDatabase, restoreDrillSettings } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { MEDIA_LINK_SECRET, NATS_URL, REDIS_URL, sendHttp, webmBody } from './test-support/harness.js';

// Issue 33, erasure survives a restore: back up, delete a recording, restore (its object comes back
// into the bucket); vault-media, started on the restored stack, replays the erasure journal and the
// recording is deleted again, its object gone, its title in no table.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('mediaerasure');
process.env.STACK_ID = STACK_ID;
const { vaultMediaService } = await import('../src/vault-media.definition.js');
const { MediaHttpServer } = await import('../src/http/media-http.server.js');
const { createLogger } = await import('@lv/platform/logging');
const { RpcClient, migrateService, startService } = await import('@lv/platform/nest');

const hex = () => randomBytes(4).toString('hex');
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);


describe('an erased recording after a restore of an older snapshot', () => {
  let work: string;
  let s3: RunningS3Server;
  let source: TestDatabase;
  let media: Awaited<ReturnType<typeof startService>> | undefined;
  let rpc: InstanceType<typeof RpcClient>;
  const journalDatabase = `lv_test_erasures_${hex()}`;
  const prefix = `lv_ers_${hex()}_`;
  const restoredDatabase = serviceDatabase(prefix, 'vault-media');
  const ownerId = randomUUID();
  const token = signer.sign({ sub: ownerId, sid: randomUUID(), email: `${ownerId.slice(0, 8)}@example.com`, tier: 'pro', admin: false, kind: 'user' }, 900).token;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'erasure-spec' } });

  async function start(database: string) {
    const env = {
      DATABASE_URL: databaseUrl(database), ERASURE_JOURNAL_URL: databaseUrl(journalDatabase), NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent',
      S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
      MEDIA_HTTP_PORT: '0', MEDIA_LINK_SECRET, MEDIA_PART_SIZE_MB: '5', MEDIA_SWEEP_INTERVAL_SECONDS: '3600', RPC_TIMEOUT_MS: '3000',
    };
    const logger = createLogger('media-erasure-spec', 'silent');
    await migrateService(vaultMediaService, env, logger);
    return startService(vaultMediaService, env, { logger });
  }

  const storage = () => createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
  const objectExists = (key: string) => storage().client.statObject(MEDIA_BUCKET, key).then(() => true, () => false);

  const settings = () => restoreDrillSettings({ work, s3, databases: [{ service: 'vault-media', name: source.name }], databasePrefix: prefix });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'lv-media-erasure-'));
    s3 = await startS3Server({ port: 0, directory: join(work, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' });
    source = await createTestDatabase([], 'mediaerasure');
    media = await start(source.name);
    rpc = new RpcClient(NATS_URL, 5000, 'media-erasure-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await media?.close();
    await deleteStackStreams(NATS_URL, ['vault-media'], STACK_ID).catch(() => undefined);
    await source?.drop().catch(() => undefined);
    for (const database of [restoredDatabase, journalDatabase]) await queryDatabase('postgres', `drop database if exists "${database}" with (force)`);
    await s3?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('back up, delete a recording, restore: its object is gone again and its title in no table', async () => {
    const title = `Firstbirthday${hex()}`;
    const body = webmBody(4000);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: `For Sam ${title}`, sha256: sha(body), size: body.length });
    const answer = await sendHttp(`${media!.app.get(MediaHttpServer).url}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    expect(answer.status).toBe(201);
    const recording = answer.json<Recording>();
    const [{ object_key: objectKey }] = await queryDatabase<{ object_key: string }>(source.name, 'select object_key from media_objects where recording_id = $1', [recording.id]) as [{ object_key: string }];
    expect(await objectExists(objectKey)).toBe(true);

    const { snapshot } = await runBackup(settings());
    expect(await call(VaultMediaRpc.deleteEntry, { id: recording.id })).toEqual({ id: recording.id, deleted: true });
    expect(await objectExists(objectKey)).toBe(false);
    await waitFor(async () => (await queryDatabase(journalDatabase, 'select 1 from erasures where stream_id = $1', [`recording-${recording.id}`])).length === 1, 10_000, 'the erasure to be journaled');

    // The stack is lost: database and buckets; the older snapshot is restored into an empty one.
    await media!.close();
    media = undefined;
    await source.drop();
    for (const bucket of [MEDIA_BUCKET, MUSIC_BUCKET]) await removeBucket(storage(), bucket);
    await runRestore(settings(), snapshot);
    // The snapshot brought the recording back: its row, its key, its object.
    expect(await queryDatabase(restoredDatabase, 'select id from recordings where id = $1', [recording.id])).toEqual([{ id: recording.id }]);
    expect(await objectExists(objectKey)).toBe(true);

    media = await start(restoredDatabase);
    expect(await objectExists(objectKey)).toBe(false);
    expect(await queryDatabase(restoredDatabase, 'select id from recordings where id = $1', [recording.id])).toEqual([]);
    expect(await queryDatabase(restoredDatabase, 'select 1 from recording_keys where recording_id = $1', [recording.id])).toEqual([]);
    const tables = (await queryDatabase<{ table_name: string }>(restoredDatabase, `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map((t) => t.table_name);
    const holding: string[] = [];
    for (const table of tables) if ((await queryDatabase<{ n: number }>(restoredDatabase, `select count(*)::int as n from "${table}" t where t::text ilike $1`, [`%${title}%`]))[0]!.n > 0) holding.push(table);
    expect(holding).toEqual([]);
    expect((await queryDatabase<{ type: string }>(restoredDatabase, 'select type from events where stream_id = $1 order by version', [`recording-${recording.id}`])).map((e) => e.type))
      .toEqual(['RecordingUploadStarted', 'RecordingSaved', 'RecordingDeleted']);
    expect(await call(VaultMediaRpc.titles, { ids: [recording.id] })).toEqual({ titles: {}, playback: {} });
  });
});
