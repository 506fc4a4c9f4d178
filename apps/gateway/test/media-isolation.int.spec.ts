// A second user asks, over HTTP, for the first user's recording by id: the gateway booted in-process
// in front of the real vault-media and timeline (child processes built from this checkout's sources),
// on the machine's PostgreSQL, NATS and Redis and the embedded S3 server. Nothing stands in for the
// services that decide ownership (the timeline names an entry's owner, vault-media checks the caller
// again), so a scoping bug there shows up here as something other than 404.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Queues } from '@lv/contracts';
import { generateTestKeys, userTokenSigner, sendHttp, uniqueStackId, waitFor } from '@lv/testing';
import { startRealServiceStack, type RealServiceStack } from './support/real-service-stack.js';

jest.setTimeout(180_000);

// Subjects are fixed when the gateway's modules load: choose this spec's stack first.
const stackId = uniqueStackId('gwmediaiso');
process.env.STACK_ID = stackId;

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const tokenFor = userTokenSigner(keys.privateKey);

const send = (url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) =>
  sendHttp(url, { method: options.method, headers: options.headers, chunks: options.body ? [options.body] : [] });

describe('gateway + real vault-media: another user’s recording by id', () => {
  let stack: RealServiceStack | undefined;
  let base: string;
  const alice = randomUUID();
  const bob = randomUUID();
  const aliceAuth = { authorization: `Bearer ${tokenFor(alice)}` };
  const bobAuth = { authorization: `Bearer ${tokenFor(bob)}` };
  let recordingId: string;

  beforeAll(async () => {
    // The timeline reads vault-media's stream and names the owner of an entry the gateway deletes.
    stack = await startRealServiceStack({
      label: 'media-iso', stackId, projects: ['apps/vault-media'], service: 'vault-media', jwtPublicKey: keys.publicKey,
      serviceSettings: (port) => ({ MEDIA_HTTP_PORT: String(port), MEDIA_LINK_SECRET: randomBytes(24).toString('hex'), MEDIA_PART_SIZE_MB: '5' }),
      urlSetting: 'VAULT_MEDIA_URL', streams: ['vault-media', 'letters', 'court-journal', 'timeline'],
    });
    base = stack.base;

    // Alice saves a recording the way the SPA does: start, then stream the body.
    const body = randomBytes(20_000);
    body.set([0x1a, 0x45, 0xdf, 0xa3], 0); // WebM's magic bytes
    const started = await send(`${base}/api/media/uploads`, {
      method: 'POST', headers: { ...aliceAuth, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ type: 'video', title: 'Only for Alice', sha256: createHash('sha256').update(body).digest('hex'), size: body.length })),
    });
    expect(started.status).toBe(201);
    const ticket = started.json() as { uploadUrl: string; contentType: string };
    const saved = await send(`${base}${ticket.uploadUrl}`, { method: 'PUT', headers: { ...aliceAuth, 'content-type': ticket.contentType, 'content-length': String(body.length) }, body });
    expect(saved.status).toBe(201);
    recordingId = (saved.json() as { id: string }).id;
  });

  afterAll(async () => {
    await stack?.close();
    const { createQueue, createRedisConnection } = await import('@lv/platform/queues');
    const connection = createRedisConnection(REDIS_URL, { role: 'producer' });
    await createQueue(Queues.MediaHashing, connection).obliterate({ force: true }).catch(() => undefined);
    connection.disconnect();
  });

  it('answers 404 to a second user asking for the first user’s playback link or deleting it by id, and leaves it to its owner', async () => {
    const link = await send(`${base}/api/media/recordings/${recordingId}/playback`, { method: 'POST', headers: bobAuth });
    expect(link.status).toBe(404);
    expect(link.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(link.headers['set-cookie']).toBeUndefined();
    const deleted = await send(`${base}/api/timeline/${recordingId}`, { method: 'DELETE', headers: bobAuth });
    expect(deleted.status).toBe(404);
    expect(deleted.json()).toMatchObject({ code: 'NOT_FOUND' });
    const bobsList = await send(`${base}/api/media/recordings`, { headers: bobAuth });
    expect(bobsList.status).toBe(200);
    expect(JSON.stringify(bobsList.json())).not.toContain(recordingId);

    // Alice still has it, and can play it.
    const alicesList = await send(`${base}/api/media/recordings`, { headers: aliceAuth });
    expect(JSON.stringify(alicesList.json())).toContain(recordingId);
    const own = await send(`${base}/api/media/recordings/${recordingId}/playback`, { method: 'POST', headers: aliceAuth });
    expect(own.status).toBe(200);
    const { url } = own.json() as { url: string };
    const cookie = String(own.headers['set-cookie']).split(';')[0]!;
    const played = await send(`${base}${url}`, { headers: { cookie } });
    expect(played.status).toBe(200);
    expect(played.body.length).toBe(20_000);
  });

  it('takes a resumable upload (tus) only from its owner, through the gateway: where it stands (HEAD), then its bytes (PATCH)', async () => {
    const body = randomBytes(30_000);
    body.set([0x1a, 0x45, 0xdf, 0xa3], 0);
    const started = await send(`${base}/api/media/uploads`, {
      method: 'POST', headers: { ...aliceAuth, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ type: 'video', title: 'Sent resumably', sha256: createHash('sha256').update(body).digest('hex'), size: body.length })),
    });
    const { resumableUrl } = started.json() as { resumableUrl: string };
    const tus = { 'tus-resumable': '1.0.0' };
    const patch = (headers: Record<string, string>, offset: number, piece: Buffer) => send(`${base}${resumableUrl}`, {
      method: 'PATCH', headers: { ...tus, ...headers, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset), 'content-length': String(piece.length) }, body: piece,
    });
    // No token, another user, another site, a body that is not tus's: refused before vault-media takes a byte.
    expect((await send(`${base}${resumableUrl}`, { method: 'HEAD', headers: tus })).status).toBe(401);
    expect((await send(`${base}${resumableUrl}`, { method: 'HEAD', headers: { ...tus, ...bobAuth } })).status).toBe(404);
    expect((await patch(bobAuth, 0, body)).status).toBe(404);
    expect((await patch({ ...aliceAuth, origin: 'https://evil.example' }, 0, body)).status).toBe(403);
    const wrongType = await send(`${base}${resumableUrl}`, { method: 'PATCH', headers: { ...tus, ...aliceAuth, 'content-type': 'video/webm', 'upload-offset': '0', 'content-length': String(body.length) }, body });
    expect(wrongType.status).toBe(415);
    // The owner: where it stands (nothing yet), then all of it; the answer is the saved recording.
    const head = await send(`${base}${resumableUrl}`, { method: 'HEAD', headers: { ...tus, ...aliceAuth } });
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    expect(head.headers['upload-length']).toBe(String(body.length));
    const saved = await patch(aliceAuth, 0, body);
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ title: 'Sent resumably', size: body.length, blob_hash: createHash('sha256').update(body).digest('hex') });
    expect((await send(`${base}${resumableUrl}`, { method: 'HEAD', headers: { ...tus, ...aliceAuth } })).headers['upload-offset']).toBe(String(body.length));
  });

  it('deletes the recording from its owner’s timeline in vault-media, and the timeline no longer shows it once the delete answers', async () => {
    const onTimeline = async () => ((await send(`${base}/api/timeline`, { headers: aliceAuth })).json() as { entries: { id: string; source: string }[] }).entries.find((e) => e.id === recordingId);
    await waitFor(async () => (await onTimeline()) !== undefined, 20_000, 'the recording on the timeline');
    expect(await onTimeline()).toMatchObject({ source: 'vault-media' });
    // Still Bob's 404 now that the timeline has it: it is not on his.
    expect((await send(`${base}/api/timeline/${recordingId}`, { method: 'DELETE', headers: bobAuth })).status).toBe(404);
    expect((await send(`${base}/api/timeline/${recordingId}`, { method: 'DELETE', headers: aliceAuth })).status).toBe(204);
    expect(await onTimeline()).toBeUndefined();
    expect(JSON.stringify((await send(`${base}/api/media/recordings`, { headers: aliceAuth })).json())).not.toContain(recordingId);
    expect((await send(`${base}/api/timeline/${recordingId}`, { method: 'DELETE', headers: aliceAuth })).status).toBe(404);
  });
});
