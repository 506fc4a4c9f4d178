import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { Queues, VaultMediaRpc, type AccessTokenClaims, type Recording, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { createObjectStorage, type ObjectStorage } from '@lv/platform/storage';
import { compileForChildProcess, createTestDatabase, deleteStackStreams, freePort, generateTestKeys, startChild, uniqueStackId, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { MEDIA_LINK_SECRET, NATS_URL, REDIS_URL, sendHttp, webmBody } from './test-support/harness.js';

// The service dies mid-upload (SIGKILL, the way a crashed or evicted pod dies): no timeline entry may
// point at a missing object, and what the dead process left in storage (multipart parts, a finished
// object whose recording was never saved) is cleaned up by the sweeper of the next process.

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const STALE_SECONDS = 2;
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('vault-media killed mid-upload (child process)', () => {
  const stackId = uniqueStackId('mediacrash');
  const keys = generateTestKeys();
  const owner = randomUUID();
  let db: TestDatabase;
  let s3: RunningS3Server;
  let s3Dir: string;
  let storage: ObjectStorage;
  let script: string;
  let scratchDir: string | undefined;
  let port: number;
  let service: ChildService | undefined;
  let rpc: import('@lv/platform/nest').RpcClient;
  let token: string;

  const env = (overrides: Record<string, string> = {}) => ({
    DATABASE_URL: db.url, NATS_URL, REDIS_URL, STACK_ID: stackId, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'info',
    S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
    MEDIA_HTTP_PORT: String(port), MEDIA_LINK_SECRET, MEDIA_PART_SIZE_MB: '5', MEDIA_UPLOAD_STALE_SECONDS: String(STALE_SECONDS), MEDIA_SWEEP_INTERVAL_SECONDS: '1',
    ...overrides,
  });
  async function startService(overrides: Record<string, string> = {}): Promise<ChildService> {
    const child = startChild(script, [], env(overrides));
    // Its readiness log line, for as long as it takes (the test's timeout is the bound).
    await child.waitForLine(/vault-media is listening on NATS/, null);
    return child;
  }
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const query = <T>(sql: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(sql, params);
  const partsDir = () => join(s3Dir, 'vaultmedia', '._S3rver_uploads');
  const leftoverParts = async () => (existsSync(partsDir()) ? readdir(partsDir()) : []);
  const objectExists = (key: string) => storage.client.statObject('vaultmedia', key).then(() => true, () => false);

  beforeAll(async () => {
    process.env.STACK_ID = stackId;
    const scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/vault-media'], 'vault-media-crash');
    scratchDir = scratch;
    script = join(scratch, 'apps', 'vault-media', 'main.js');
    db = await createTestDatabase([], 'mediacrash');
    s3Dir = await mkdtemp(join(tmpdir(), 'lv-mediacrash-'));
    s3 = await startS3Server({ port: 0, directory: s3Dir, accessKey: 'spec-key', secretKey: 'spec-secret' });
    storage = createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
    port = await freePort();
    // `main.js migrate` creates nothing here (the database exists) but applies vault-media's migrations.
    const migrate = startChild(script, ['migrate'], env());
    expect((await migrate.exited).code).toBe(0);
    const { RpcClient } = await import('@lv/platform/nest');
    rpc = new RpcClient(NATS_URL, 5000, 'crash-spec');
    await rpc.connect();
    const claims: AccessTokenClaims = { sub: owner, sid: randomUUID(), email: 'crash@example.com', tier: 'pro', admin: false, kind: 'user' };
    token = new AccessTokenSigner(keys.privateKey).sign(claims, 900).token;
  });

  afterAll(async () => {
    await service?.kill('SIGTERM');
    await rpc?.close();
    await deleteStackStreams(NATS_URL, ['vault-media', 'letters'], stackId);
    const { createQueue, createRedisConnection } = await import('@lv/platform/queues');
    const connection = createRedisConnection(REDIS_URL, { role: 'producer' });
    await createQueue(Queues.MediaHashing, connection).obliterate({ force: true }).catch(() => undefined);
    connection.disconnect();
    await s3?.close();
    if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
    await db?.drop();
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
  });

  it('leaves no timeline entry for an upload cut short by a crash, and the next process removes its parts', async () => {
    service = await startService();
    const body = webmBody(12 * MiB);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Cut short', sha256: sha(body), size: body.length });

    // 7 MiB of 12 arrive (one 5 MiB part is stored), then the process is killed.
    let upload: ClientRequest | undefined;
    const answered = new Promise<unknown>((resolve) => {
      upload = httpRequest(`http://127.0.0.1:${port}/uploads/${ticket.uploadId}`, {
        method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm', 'content-length': String(body.length) },
      }, resolve);
      upload.on('error', resolve);
      upload.write(body.subarray(0, 7 * MiB));
    });
    await waitFor(async () => Boolean((await query<{ id: string | null }>('select multipart_upload_id as id from media_objects where recording_id = ?', [ticket.uploadId]))[0]?.id), 15_000, 'the multipart upload to start');
    await waitFor(async () => (await leftoverParts()).length === 1, 5000, 'a stored part');
    await service.kill('SIGKILL');
    // The kill hit the upload in flight: of its 12 MiB, 7 were sent and one part stored, and no answer came.
    expect(await answered).toEqual(expect.objectContaining({ code: expect.stringMatching(/^E[A-Z]+$/) }));
    upload?.destroy();

    // What the crash left: an open upload, parts in storage, and nothing anyone can see.
    expect((await query<{ state: string }>('select state from media_objects where recording_id = ?', [ticket.uploadId]))[0]?.state).toBe('uploading');
    expect(await leftoverParts()).toHaveLength(1);
    expect(await query('select id from recordings')).toEqual([]);
    // No RecordingSaved: nothing reaches the timeline service.
    expect(await query(`select stream_id from events where type = 'RecordingSaved'`)).toEqual([]);

    // The next process sweeps it at start once it is stale. Sentinel: the row shows no progress for
    // MEDIA_UPLOAD_STALE_SECONDS, the sweeper's own test.
    await waitFor(async () => (await query<{ stale: boolean }>(`select last_activity_at < now() - make_interval(secs => ?) as stale from media_objects where recording_id = ?`, [STALE_SECONDS, ticket.uploadId]))[0]?.stale === true,
      10_000, 'the dead upload to be stale');
    service = await startService();
    await waitFor(async () => (await query<{ state: string }>('select state from media_objects where recording_id = ?', [ticket.uploadId]))[0]?.state === 'removed', 15_000, 'the dead upload to be swept');
    expect(await leftoverParts()).toEqual([]);
    expect(await objectExists(ticket.objectKey)).toBe(false);
    const types = (await query<{ type: string }>('select type from events where stream_id = ? order by version', [`recording-${ticket.uploadId}`])).map((r) => r.type);
    expect(types).toEqual(['RecordingUploadStarted', 'RecordingUploadAbandoned']);
    await service.waitForLine(/sweeper cleaned up after dead uploads/);

    // The parent can simply save the same recording again, on a process with a production-like
    // threshold: a 2-second one could sweep the new upload on a busy machine before its first bytes come.
    await service.kill('SIGTERM');
    service = await startService({ MEDIA_UPLOAD_STALE_SECONDS: '900' });
    const again = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Cut short', sha256: sha(body), size: body.length });
    const answer = await sendHttp(`http://127.0.0.1:${port}/uploads/${again.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm' }, chunks: [body] });
    expect(answer.status).toBe(201);
    expect(answer.json<Recording>()).toMatchObject({ size: body.length, blob_hash: sha(body) });
    expect(await query(`select stream_id from events where type = 'RecordingSaved'`)).toHaveLength(1);
  });

  it('removes an object a dead process finished writing but never saved as a recording', async () => {
    service ??= await startService();
    const body = webmBody(64 * 1024);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Orphan', sha256: sha(body), size: body.length });
    // As if a process had streamed the whole object and died before appending RecordingSaved.
    await query(`update media_objects set state = 'uploading' where recording_id = ?`, [ticket.uploadId]);
    await storage.upload('vaultmedia', ticket.objectKey, Readable.from([body]), { contentType: 'video/webm' });
    expect(await objectExists(ticket.objectKey)).toBe(true);
    await query(`update media_objects set last_activity_at = now() - interval '1 hour' where recording_id = ?`, [ticket.uploadId]);
    // The running process's periodic sweep (every second here) finds it.
    await waitFor(async () => !(await objectExists(ticket.objectKey)), 15_000, 'the orphaned object to be removed');
    // The sweep deletes the object first and records it as removed right after.
    const stateOf = async () => (await query<{ state: string }>('select state from media_objects where recording_id = ?', [ticket.uploadId]))[0]?.state;
    await waitFor(async () => (await stateOf()) !== 'removing', 5_000, 'the sweep to record the removal');
    expect(await stateOf()).toBe('removed');
    expect(await query('select id from recordings where id = ?', [ticket.uploadId])).toEqual([]);
  });
});
