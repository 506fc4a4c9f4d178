import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { MEDIA_BUCKET, MUSIC_BUCKET, VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import { runBackup } from '@lv/platform/backup';
import { deleteStackStreams, generateTestKeys, openRestoreDrill, queryDatabase, tablesHolding, uniqueStackId, userTokenSigner, waitFor, type RestoreDrill } from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import { NATS_URL, sendHttp, webmBody } from './test-support/harness.js';

// Issue 33, erasure survives a restore: back up, delete a recording, restore (its object comes back
// into the bucket); vault-media, started on the restored stack, replays the erasure journal and the
// recording is deleted again, its object gone, its title in no table.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('mediaerasure');
process.env.STACK_ID = STACK_ID;
const { startMediaOn } = await import('./test-support/restorable-media.js');
const { MediaHttpServer } = await import('../src/http/media-http.server.js');
const { RpcClient } = await import('@lv/platform/nest');

const hex = () => randomBytes(4).toString('hex');
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);


describe('an erased recording after a restore of an older snapshot', () => {
  let drill: RestoreDrill;
  let media: Awaited<ReturnType<typeof startMediaOn>> | undefined;
  let rpc: InstanceType<typeof RpcClient>;
  const ownerId = randomUUID();
  const token = tokenFor(ownerId);
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'erasure-spec' } });

  const start = (database: string) => startMediaOn(database, { s3: drill.s3, journalDatabase: drill.journalDatabase, jwtPublicKey: keys.publicKey, logName: 'media-erasure-spec' });
  const objectExists = (key: string) => drill.storage().client.statObject(MEDIA_BUCKET, key).then(() => true, () => false);

  beforeAll(async () => {
    drill = await openRestoreDrill({ label: 'mediaerasure', service: 'vault-media', startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    media = await start(drill.source.name);
    rpc = new RpcClient(NATS_URL, 5000, 'media-erasure-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await media?.close();
    await deleteStackStreams(NATS_URL, ['vault-media'], STACK_ID).catch(() => undefined);
    await drill?.close();
  });

  it('back up, delete a recording, restore: its object is gone again and its title in no table', async () => {
    const title = `Firstbirthday${hex()}`;
    const body = webmBody(4000);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: `For Sam ${title}`, sha256: sha(body), size: body.length });
    const answer = await sendHttp(`${media!.app.get(MediaHttpServer).url}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    expect(answer.status).toBe(201);
    const recording = answer.json<Recording>();
    const [{ object_key: objectKey }] = await queryDatabase<{ object_key: string }>(drill.source.name, 'select object_key from media_objects where recording_id = $1', [recording.id]) as [{ object_key: string }];
    expect(await objectExists(objectKey)).toBe(true);

    const { snapshot } = await runBackup(drill.settings());
    expect(await call(VaultMediaRpc.deleteEntry, { id: recording.id })).toEqual({ id: recording.id, deleted: true });
    expect(await objectExists(objectKey)).toBe(false);
    await waitFor(async () => (await queryDatabase(drill.journalDatabase, 'select 1 from erasures where stream_id = $1', [`recording-${recording.id}`])).length === 1, 10_000, 'the erasure to be journaled');

    // The stack is lost: database and buckets; the older snapshot is restored into an empty one.
    await media!.close();
    media = undefined;
    await drill.loseAndRestore(snapshot, [MEDIA_BUCKET, MUSIC_BUCKET]);
    // The snapshot brought the recording back: its row, its key, its object.
    expect(await queryDatabase(drill.restoredDatabase, 'select id from recordings where id = $1', [recording.id])).toEqual([{ id: recording.id }]);
    expect(await objectExists(objectKey)).toBe(true);

    media = await start(drill.restoredDatabase);
    expect(await objectExists(objectKey)).toBe(false);
    expect(await queryDatabase(drill.restoredDatabase, 'select id from recordings where id = $1', [recording.id])).toEqual([]);
    expect(await queryDatabase(drill.restoredDatabase, 'select 1 from recording_keys where recording_id = $1', [recording.id])).toEqual([]);
    expect(await tablesHolding(drill.restoredDatabase, title)).toEqual([]);
    expect((await queryDatabase<{ type: string }>(drill.restoredDatabase, 'select type from events where stream_id = $1 order by version', [`recording-${recording.id}`])).map((e) => e.type))
      .toEqual(['RecordingUploadStarted', 'RecordingSaved', 'RecordingDeleted']);
    expect(await call(VaultMediaRpc.titles, { ids: [recording.id] })).toEqual({ titles: {}, playback: {} });
  });
});
