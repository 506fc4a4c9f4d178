import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { MEDIA_BUCKET, VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { createObjectStorage } from '@lv/platform/storage';
import {
  createTestDatabase, databaseUrl, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, publishAccountErased, queryDatabase, tablesHolding, uniqueStackId, waitForIdentityConsumer, type TestDatabase,
} from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { MEDIA_LINK_SECRET, NATS_URL, REDIS_URL, sendHttp, webmBody } from './test-support/harness.js';

// Issue 32, "Delete my account": identity's AccountErased, consumed from JetStream, deletes every
// recording of the owner (saved or still uploading) as he would delete it one by one: its key destroyed
// and journaled, its object gone from the bucket; another owner's recordings are untouched.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('mediaacct');
process.env.STACK_ID = STACK_ID;
const { vaultMediaService } = await import('../src/vault-media.definition.js');
const { MediaHttpServer } = await import('../src/http/media-http.server.js');
const { createLogger } = await import('@lv/platform/logging');
const { RpcClient, migrateService, startService } = await import('@lv/platform/nest');

const hex = () => randomBytes(4).toString('hex');
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const owner = () => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id.slice(0, 8)}@example.com`, tier: 'pro', admin: false, kind: 'user' }, 900).token };
};

describe('vault-media: an erased account', () => {
  let work: string;
  let s3: RunningS3Server;
  let db: TestDatabase;
  let media: Awaited<ReturnType<typeof startService>>;
  let rpc: InstanceType<typeof RpcClient>;
  const journalDatabase = `lv_test_media_acct_erasures_${hex()}`;
  const dad = owner();
  const mum = owner();
  const call = <D extends RpcDeclaration>(who: { token: string }, declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: who.token, meta: { requestId: 'account-erasure-spec' } });
  const storage = () => createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
  const objectExists = (key: string) => storage().client.statObject(MEDIA_BUCKET, key).then(() => true, () => false);
  const objectKeyOf = async (recordingId: string) => (await queryDatabase<{ object_key: string }>(db.name, 'select object_key from media_objects where recording_id = $1', [recordingId]))[0]!.object_key;

  /** A saved recording of `who`, titled with `title`. */
  const upload = async (who: { token: string }, title: string): Promise<Recording> => {
    const body = webmBody(4000);
    const ticket = await call(who, VaultMediaRpc.startUpload, { type: 'video', title: `For Sam ${title}`, sha256: sha(body), size: body.length });
    const answer = await sendHttp(`${media.app.get(MediaHttpServer).url}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${who.token}`, 'content-type': ticket.contentType }, chunks: [body] });
    expect(answer.status).toBe(201);
    return answer.json<Recording>();
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'lv-media-acct-'));
    s3 = await startS3Server({ port: 0, directory: join(work, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' });
    db = await createTestDatabase([], 'mediaacct');
    // identity owns its stream; the spec stands in for it and publishes as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    const env = {
      DATABASE_URL: db.url, ERASURE_JOURNAL_URL: databaseUrl(journalDatabase), NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent',
      S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
      MEDIA_HTTP_PORT: '0', MEDIA_LINK_SECRET, MEDIA_PART_SIZE_MB: '5', MEDIA_SWEEP_INTERVAL_SECONDS: '3600', RPC_TIMEOUT_MS: '3000',
    };
    const logger = createLogger('media-account-erasure-spec', 'silent');
    await migrateService(vaultMediaService, env, logger);
    media = await startService(vaultMediaService, env, { logger });
    rpc = new RpcClient(NATS_URL, 5000, 'media-account-erasure-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await media?.close();
    await deleteStackStreams(NATS_URL, ['identity', 'vault-media'], STACK_ID).catch(() => undefined);
    await db?.drop().catch(() => undefined);
    await queryDatabase('postgres', `drop database if exists "${journalDatabase}" with (force)`);
    await s3?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('deletes every recording of the owner and its object, once, and nothing of another owner', async () => {
    const his = { saved: `Firstbirthday${hex()}`, uploading: `Halfsent${hex()}` };
    const hers = `Herwedding${hex()}`;
    const saved = await upload(dad, his.saved);
    // An upload he started and never finished: erased too.
    const started = await call(dad, VaultMediaRpc.startUpload, { type: 'audio', title: `For Sam ${his.uploading}`, sha256: sha(Buffer.from('x')), size: 4000 });
    const herRecording = await upload(mum, hers);
    const [savedKey, herKey] = [await objectKeyOf(saved.id), await objectKeyOf(herRecording.id)];
    expect(await objectExists(savedKey)).toBe(true);

    const eventId = await publishAccountErased(media.core.nats, dad.id, STACK_ID);
    // The same event again (a relay that lost its ack, past JetStream's duplicate window): the inbox keeps it once.
    await publishAccountErased(media.core.nats, dad.id, STACK_ID, { eventId, messageId: randomUUID() });
    await waitForIdentityConsumer(media.core.nats, 'vault-media-account-erasures', STACK_ID, 2);

    expect(await objectExists(savedKey)).toBe(false);
    for (const word of Object.values(his)) expect({ word, holding: await tablesHolding(db.name, word) }).toEqual({ word, holding: [] });
    expect(await queryDatabase(db.name, 'select recording_id from recording_keys where recording_id in ($1, $2)', [saved.id, started.uploadId])).toEqual([]);
    expect(await queryDatabase(db.name, 'select consumer from inbox where event_id = $1', [eventId])).toEqual([{ consumer: 'vault-media-account-erasures' }]);
    const erasures = await queryDatabase<{ stream_id: string }>(db.name, 'select stream_id from erasure_journal order by stream_id');
    expect(erasures.map((e) => e.stream_id).sort()).toEqual([`recording-${saved.id}`, `recording-${started.uploadId}`].sort());
    expect(await call(dad, VaultMediaRpc.titles, { ids: [saved.id] })).toEqual({ titles: {}, playback: {} });

    // Hers is untouched: her object, her title, readable by her.
    expect(await objectExists(herKey)).toBe(true);
    expect(await call(mum, VaultMediaRpc.titles, { ids: [herRecording.id] })).toMatchObject({ titles: { [herRecording.id]: `For Sam ${hers}` } });
  });
});
