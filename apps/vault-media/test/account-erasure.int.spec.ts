import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { MEDIA_BUCKET, VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import {
  deleteStackStreams, generateTestKeys, makeStreamsAsOwners, openRestoreDrill, publishAccountErased, queryDatabase, tablesHolding, uniqueStackId, userTokenSigner, waitForIdentityConsumer, type RestoreDrill,
} from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import { NATS_URL, sendHttp, webmBody } from './test-support/harness.js';

// Issue 32, "Delete my account": identity's AccountErased, consumed from JetStream, deletes every
// recording of the owner (saved or still uploading) as he would delete it one by one: its key destroyed
// and journaled, its object gone from the bucket; another owner's recordings are untouched.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('mediaacct');
process.env.STACK_ID = STACK_ID;
const { startMediaOn } = await import('./test-support/restorable-media.js');
const { MediaHttpServer } = await import('../src/http/media-http.server.js');
const { RpcClient } = await import('@lv/platform/nest');

const hex = () => randomBytes(4).toString('hex');
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);
const owner = () => {
  const id = randomUUID();
  return { id, token: tokenFor(id) };
};

describe('vault-media: an erased account', () => {
  let drill: RestoreDrill;
  let media: Awaited<ReturnType<typeof startMediaOn>>;
  let rpc: InstanceType<typeof RpcClient>;
  const dad = owner();
  const mum = owner();
  const call = <D extends RpcDeclaration>(who: { token: string }, declaration: D, payload: unknown) => rpc.callUnchecked(declaration, payload, { accessToken: who.token, meta: { requestId: 'account-erasure-spec' } });
  const objectExists = (key: string) => drill.storage().client.statObject(MEDIA_BUCKET, key).then(() => true, () => false);
  const objectKeyOf = async (recordingId: string) => (await queryDatabase<{ object_key: string }>(drill.source.name, 'select object_key from media_objects where recording_id = $1', [recordingId]))[0]!.object_key;

  /** A saved recording of `who`, titled with `title`. */
  const upload = async (who: { token: string }, title: string): Promise<Recording> => {
    const body = webmBody(4000);
    const ticket = await call(who, VaultMediaRpc.startUpload, { type: 'video', title: `For Sam ${title}`, sha256: sha(body), size: body.length });
    const answer = await sendHttp(`${media.app.get(MediaHttpServer).url}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${who.token}`, 'content-type': ticket.contentType }, chunks: [body] });
    expect(answer.status).toBe(201);
    return answer.json<Recording>();
  };

  beforeAll(async () => {
    // No restore here: the drill gives the folder, the object store, the source and the erasure journal.
    drill = await openRestoreDrill({ label: 'mediaacct', service: 'vault-media', startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    // identity owns its stream; the spec stands in for it and publishes as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    media = await startMediaOn(drill.source.name, { s3: drill.s3, journalDatabase: drill.journalDatabase, jwtPublicKey: keys.publicKey, logName: 'media-account-erasure-spec' });
    rpc = new RpcClient(NATS_URL, 5000, 'media-account-erasure-spec');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await media?.close();
    await deleteStackStreams(NATS_URL, ['identity', 'vault-media'], STACK_ID).catch(() => undefined);
    await drill?.close();
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
    for (const word of Object.values(his)) expect({ word, holding: await tablesHolding(drill.source.name, word) }).toEqual({ word, holding: [] });
    expect(await queryDatabase(drill.source.name, 'select recording_id from recording_keys where recording_id in ($1, $2)', [saved.id, started.uploadId])).toEqual([]);
    expect(await queryDatabase(drill.source.name, 'select consumer from inbox where event_id = $1', [eventId])).toEqual([{ consumer: 'vault-media-account-erasures' }]);
    const erasures = await queryDatabase<{ stream_id: string }>(drill.source.name, 'select stream_id from erasure_journal order by stream_id');
    expect(erasures.map((e) => e.stream_id).sort()).toEqual([`recording-${saved.id}`, `recording-${started.uploadId}`].sort());
    expect(await call(dad, VaultMediaRpc.titles, { ids: [saved.id] })).toEqual({ titles: {}, playback: {} });

    // Hers is untouched: her object, her title, readable by her.
    expect(await objectExists(herKey)).toBe(true);
    expect(await call(mum, VaultMediaRpc.titles, { ids: [herRecording.id] })).toMatchObject({ titles: { [herRecording.id]: `For Sam ${hers}` } });
  });
});
