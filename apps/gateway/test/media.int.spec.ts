// The gateway's media area booted in-process and listening on a real port, against the machine's
// NATS and Redis, with vault-media and the timeline played by stand-ins: its RPCs (Nest's NATS wire format) and its
// HTTP listener for bytes. What is checked here is the gateway's part: bodies stream through
// unbuffered in both directions, Range and the owner binding pass, tokens are required, errors keep
// their status and text, and a vault-media that is down is a 503.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { sendHttp, type HttpAnswer } from '@lv/testing';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CourtJournalRpc, CourtMessages, LettersRpc, MediaMessages, TimelineRpc, VaultMediaRpc, type AccessTokenClaims } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { createSpecGateway, specWorkDir } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwm${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USER_ID = '33333333-3333-4333-8333-333333333333';
const RECORDING_ID = '44444444-4444-4444-8444-444444444444';
const LETTER_ID = '55555555-5555-4555-8555-555555555555';
/** On the caller's timeline as a recording, but vault-media, checking the caller again, does not find it his. */
const RECHECKED_ID = '66666666-6666-4666-8666-666666666666';
/** Entries the timeline lists for the caller but their own service does not find his (another vault's, as that service judges it). */
const FOREIGN_LETTER_ID = '77777777-7777-4777-8777-777777777777';
const DOCUMENT_ID = '88888888-8888-4888-8888-888888888888';
const FOREIGN_DOCUMENT_ID = '99999999-9999-4999-8999-999999999999';
const MiB = 1024 * 1024;

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signer = new AccessTokenSigner(keys.privateKey);
const claims: AccessTokenClaims = { sub: USER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'pro', admin: false, kind: 'user' };
const token = signer.sign(claims, 600).token;

type Answer = HttpAnswer;

const send = sendHttp;
const json = (a: Answer) => JSON.parse(a.body.toString('utf8'));

/** What vault-media's HTTP listener received, per request. */
interface Received { method: string; url: string; headers: IncomingMessage['headers']; bytes: number; sha256: string; maxChunk: number }

describe('gateway media routes (in-process, stand-in vault-media)', () => {
  let app: NestFastifyApplication;
  let base: string;
  let vaultMedia: NestNatsResponder;
  let timeline: NestNatsResponder;
  let owners: NestNatsResponder;
  let mediaHttp: Server;
  let mediaUrl: string;
  let s3: RunningS3Server;
  let workDir: string;
  const received: Received[] = [];
  let uploadBehaviour: 'save' | 'refuse-after-1MiB' = 'save';
  const playbackBody = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(async () => {
    ({ workDir } = await specWorkDir('media'));
    s3 = await startS3Server({ port: 0, directory: join(workDir, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret' });

    // vault-media's byte-stream listener, standing in.
    mediaHttp = createServer((req, res) => {
      const hash = createHash('sha256');
      const entry: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes: 0, sha256: '', maxChunk: 0 };
      received.push(entry);
      if (req.url?.startsWith('/uploads/')) {
        req.on('data', (chunk: Buffer) => {
          entry.bytes += chunk.length;
          entry.maxChunk = Math.max(entry.maxChunk, chunk.length);
          hash.update(chunk);
          if (uploadBehaviour === 'refuse-after-1MiB' && entry.bytes > MiB && !res.headersSent) {
            res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'PAYLOAD_TOO_LARGE', message: 'This recording is too large: the limit is 1 MB.' }));
          }
        });
        req.on('end', () => {
          entry.sha256 = hash.digest('hex');
          if (!res.headersSent) res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: RECORDING_ID, size: entry.bytes, blob_hash: entry.sha256 }));
        });
        return;
      }
      if (req.url?.startsWith(`/media/${RECORDING_ID}`)) {
        if (req.headers['x-lv-media-binding'] !== 'binding-value') {
          res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'FORBIDDEN', message: 'This media link is not valid for you, or it has expired.' }));
          return;
        }
        const match = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
        const common = { 'content-type': 'video/webm', 'accept-ranges': 'bytes', 'x-internal-detail': 'must not leak' };
        if (match) {
          const [start, end] = [Number(match[1]), Number(match[2])];
          res.writeHead(206, { ...common, 'content-range': `bytes ${start}-${end}/${playbackBody.length}`, 'content-length': String(end - start + 1) }).end(playbackBody.subarray(start, end + 1));
        } else {
          res.writeHead(200, { ...common, 'content-length': String(playbackBody.length) }).end(playbackBody);
        }
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => mediaHttp.listen(0, '127.0.0.1', r));
    mediaUrl = `http://127.0.0.1:${(mediaHttp.address() as AddressInfo).port}`;

    vaultMedia = await NestNatsResponder.start(NATS_URL, STACK_ID);
    vaultMedia
      .handle(VaultMediaRpc.startUpload, ({ payload }) => {
        if (payload.sha256 === 'd'.repeat(64)) throw new DomainError('DUPLICATE_MEDIA', 'Duplicate: Recording already exists.');
        return { uploadId: RECORDING_ID, uploadUrl: `/api/media/uploads/${RECORDING_ID}`, resumableUrl: `/api/media/tus/${RECORDING_ID}`, objectKey: `${USER_ID}/video_1.webm`, contentType: 'video/webm', maxBytes: 500 * MiB };
      })
      .handle(VaultMediaRpc.playbackLink, ({ payload }) => ({ url: `/api/media/play/${payload.id}?u=${USER_ID}&exp=9999999999&sig=abc`, expiresAt: 9999999999000, binding: { value: 'binding-value', maxAgeSeconds: 3600 } }))
      .handle(VaultMediaRpc.listRecordings, ({ payload }) => [{ id: RECORDING_ID, limit: payload.limit, ...(payload.collection ? { collection: payload.collection } : {}) }])
      .handle(VaultMediaRpc.retitle, ({ payload }) => {
        if (payload.id !== RECORDING_ID) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
        return { id: payload.id, title: payload.title };
      })
      .handle(VaultMediaRpc.deleteEntry, ({ payload }) => {
        if (payload.id !== RECORDING_ID) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
        return { id: payload.id, deleted: true };
      });
    await vaultMedia.listen(['rpc.vault-media.>']);
    timeline = await NestNatsResponder.start(NATS_URL, STACK_ID);
    timeline
      .handle(TimelineRpc.list, () => { throw new DomainError('UPGRADE_REQUIRED', MediaMessages.timelinePlanRequired); })
      .handle(TimelineRpc.entry, ({ payload }) => {
        if (payload.id === LETTER_ID || payload.id === FOREIGN_LETTER_ID) return { id: payload.id, source: 'letters', type: 'letter', entry_type: 'message', title: 'Dear Sam' };
        if (payload.id === DOCUMENT_ID || payload.id === FOREIGN_DOCUMENT_ID) return { id: payload.id, source: 'court-journal', type: 'document', entry_type: 'media', title: 'Order' };
        if (payload.id === RECORDING_ID || payload.id === RECHECKED_ID) return { id: payload.id, source: 'vault-media', type: 'video', entry_type: 'media', title: 'Beach day' };
        throw new DomainError('NOT_FOUND', MediaMessages.notFound);
      })
      .handle(TimelineRpc.awaitEntryGone, ({ payload }) => ({ id: payload.id, gone: true }));
    await timeline.listen(['rpc.timeline.>']);
    // Letters and court-journal: each deletes only what is the caller's, with its own delete command.
    owners = await NestNatsResponder.start(NATS_URL, STACK_ID);
    owners
      .handle(LettersRpc.delete, ({ payload }) => {
        if (payload.id !== LETTER_ID) throw new DomainError('NOT_FOUND', 'Letter not found');
        return { id: payload.id, deleted: true };
      })
      .handle(CourtJournalRpc.delete, ({ payload }) => {
        if (payload.id !== DOCUMENT_ID) throw new DomainError('NOT_FOUND', CourtMessages.notFound);
        return { id: payload.id, deleted: true };
      });
    await owners.listen(['rpc.letters.>', 'rpc.court-journal.>']);

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '2000',
      WEB_DIST_DIR: join(workDir, 'web'), VAULT_MEDIA_URL: mediaUrl, HOST: '127.0.0.1', PORT: '0',
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
    base = base.replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await vaultMedia?.close();
    await timeline?.close();
    await owners?.close();
    await new Promise((r) => mediaHttp?.close(r));
    await s3?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const auth = { authorization: `Bearer ${token}` };

  it('starts an upload over NATS with the caller’s token; a duplicate is 409 with the spec’s words', async () => {
    const ok = await send(`${base}/api/media/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify({ type: 'video', title: ' Hi ', sha256: 'A'.repeat(64), size: 10 }))] });
    expect(ok.status).toBe(201);
    expect(json(ok)).toMatchObject({ uploadId: RECORDING_ID });
    const call = vaultMedia.callsTo(VaultMediaRpc.startUpload).at(-1)!;
    expect(call.payload).toEqual({ type: 'video', title: 'Hi', sha256: 'a'.repeat(64), size: 10 });
    expect(call.auth.accessToken).toBe(token);
    const dup = await send(`${base}/api/media/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify({ type: 'video', title: 'Hi', sha256: 'd'.repeat(64), size: 10 }))] });
    expect(dup.status).toBe(409);
    expect(json(dup)).toEqual({ code: 'DUPLICATE_MEDIA', message: 'Duplicate: Recording already exists.' });
    const blank = await send(`${base}/api/media/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify({ type: 'video', title: '  ', sha256: 'a'.repeat(64), size: 10 }))] });
    expect(json(blank)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { title: 'Add a title.' } });
  });

  it('streams a 40 MiB body through to vault-media in small chunks and relays its answer', async () => {
    uploadBehaviour = 'save';
    const body = Buffer.alloc(40 * MiB, 7);
    body.set([0x1a, 0x45, 0xdf, 0xa3], 0);
    const chunks = Array.from({ length: 40 }, (_, i) => body.subarray(i * MiB, (i + 1) * MiB));
    const answer = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'video/webm', 'content-length': String(body.length) }, chunks });
    expect(answer.status).toBe(201);
    const upstream = received.filter((r) => r.url === `/uploads/${RECORDING_ID}`).at(-1)!;
    expect(upstream.bytes).toBe(body.length);
    expect(upstream.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(upstream.headers.authorization).toBe(`Bearer ${token}`);
    expect(upstream.headers['content-type']).toBe('video/webm');
    // Piped, not collected: nothing near the body's size ever sits in one buffer.
    expect(upstream.maxChunk).toBeLessThanOrEqual(MiB);
    expect(json(answer)).toMatchObject({ id: RECORDING_ID, size: body.length });
  });

  it('streams a Safari recording (MP4 video, MP4 audio with codecs named) through with its own content type', async () => {
    uploadBehaviour = 'save';
    for (const contentType of ['video/mp4', 'audio/mp4;codecs=mp4a.40.2']) {
      // An ISO media file's first box: its size, then 'ftyp'.
      const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(2000, 2)]);
      const answer = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': contentType }, chunks: [mp4] });
      expect([contentType, answer.status]).toEqual([contentType, 201]);
      expect(received.filter((r) => r.url === `/uploads/${RECORDING_ID}`).at(-1)!.headers['content-type']).toBe(contentType);
    }
  });

  it('streams a Who I Am file (an image) through with its own content type, and retitles it with a title checked at the edge', async () => {
    uploadBehaviour = 'save';
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 1)]);
    const answer = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'image/png' }, chunks: [png] });
    expect(answer.status).toBe(201);
    expect(received.filter((r) => r.url === `/uploads/${RECORDING_ID}`).at(-1)!.headers['content-type']).toBe('image/png');
    // A type no upload takes is refused by the gateway itself.
    const pdf = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf' }, chunks: [Buffer.from('%PDF-1.7')] });
    expect(pdf.status).toBe(415);

    const patch = (body: unknown, headers: Record<string, string> = auth) =>
      send(`${base}/api/media/recordings/${RECORDING_ID}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify(body))] });
    const retitled = await patch({ title: '  Beach day  ' });
    expect([retitled.status, json(retitled)]).toEqual([200, { id: RECORDING_ID, title: 'Beach day' }]);
    const empty = await patch({ title: '   ' });
    expect([empty.status, json(empty)]).toEqual([400, expect.objectContaining({ code: 'VALIDATION_FAILED', fields: { title: MediaMessages.missingInfo } })]);
    expect((await patch({ title: 'x' }, {})).status).toBe(401);
  });

  it('needs a valid token for an upload and never reaches vault-media without one', async () => {
    const before = received.length;
    const answer = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { 'content-type': 'video/webm' }, chunks: [Buffer.alloc(1000)] });
    expect(answer.status).toBe(401);
    expect(received.length).toBe(before);
    const json = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from('{}')] });
    expect(json.status).toBe(415);
    expect(received.length).toBe(before);
  });

  it('relays a refusal that vault-media gives mid-body (413), with its words', async () => {
    uploadBehaviour = 'refuse-after-1MiB';
    const chunks = Array.from({ length: 4 }, () => Buffer.alloc(MiB, 1));
    const answer = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'video/webm', 'content-length': String(4 * MiB) }, chunks });
    expect(answer.status).toBe(413);
    expect(json(answer)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'This recording is too large: the limit is 1 MB.' });
    uploadBehaviour = 'save';
  });

  it('hands out a playback link and binds it to the caller with an httpOnly, SameSite=Strict cookie on the play path', async () => {
    const answer = await send(`${base}/api/media/recordings/${RECORDING_ID}/playback`, { method: 'POST', headers: auth });
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ url: `/api/media/play/${RECORDING_ID}?u=${USER_ID}&exp=9999999999&sig=abc`, expiresAt: 9999999999000 });
    const cookie = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('lv_media='))!;
    expect(cookie).toMatch(/^lv_media=binding-value;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/media\/play/);
    expect(cookie).toMatch(/Max-Age=3600/);
  });

  it('serves playback with Range through the gateway, passing the query and the binding, and nothing of vault-media’s internals', async () => {
    const url = `${base}/api/media/play/${RECORDING_ID}?u=${USER_ID}&exp=9999999999&sig=abc`;
    const part = await send(url, { headers: { cookie: 'lv_media=binding-value', range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${playbackBody.length}`);
    expect(part.headers['content-type']).toBe('video/webm');
    expect(part.headers['x-internal-detail']).toBeUndefined();
    expect(part.body).toEqual(playbackBody.subarray(10, 20));
    const upstream = received.filter((r) => r.url.startsWith(`/media/${RECORDING_ID}`)).at(-1)!;
    expect(upstream.url).toBe(`/media/${RECORDING_ID}?u=${USER_ID}&exp=9999999999&sig=abc`);
    expect(upstream.headers['x-lv-media-binding']).toBe('binding-value');
    const whole = await send(url, { headers: { cookie: 'lv_media=binding-value' } });
    expect(whole.status).toBe(200);
    expect(whole.body).toEqual(playbackBody);
    // No binding (another browser, or nobody signed in): vault-media's 403 comes through as is.
    const foreign = await send(url);
    expect(foreign.status).toBe(403);
    expect(json(foreign)).toEqual({ code: 'FORBIDDEN', message: 'This media link is not valid for you, or it has expired.' });
  });

  it('lists recordings, relays the timeline service’s gate and deletes entries, answering once the timeline dropped them', async () => {
    const list = await send(`${base}/api/media/recordings`, { headers: auth });
    expect(json(list)).toEqual([{ id: RECORDING_ID, limit: 10, collection: 'vault' }]);
    const gated = await send(`${base}/api/timeline`, { headers: auth });
    expect(gated.status).toBe(403);
    expect(json(gated)).toMatchObject({ code: 'UPGRADE_REQUIRED' });
    const deleted = await send(`${base}/api/timeline/${RECORDING_ID}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);
    expect(timeline.callsTo(TimelineRpc.entry).at(-1)!.payload).toEqual({ id: RECORDING_ID });
    expect(vaultMedia.callsTo(VaultMediaRpc.deleteEntry).at(-1)!.payload).toEqual({ id: RECORDING_ID });
    const waited = timeline.callsTo(TimelineRpc.awaitEntryGone).at(-1)!;
    expect(waited.payload).toMatchObject({ id: RECORDING_ID });
    expect(waited.auth.accessToken).toBe(token);
  });

  it('lists and deletes final messages: a collection the query names, checked at the edge; a delete that is not the timeline’s', async () => {
    const finals = await send(`${base}/api/media/recordings?collection=final-messages&limit=100`, { headers: auth });
    expect(json(finals)).toEqual([{ id: RECORDING_ID, limit: 100, collection: 'final-messages' }]);
    const unknownCollection = await send(`${base}/api/media/recordings?collection=letters`, { headers: auth });
    expect(unknownCollection.status).toBe(400);
    expect(json(unknownCollection)).toMatchObject({ code: 'VALIDATION_FAILED' });
    const waitsBefore = timeline.callsTo(TimelineRpc.awaitEntryGone).length;
    const deleted = await send(`${base}/api/media/recordings/${RECORDING_ID}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);
    expect(vaultMedia.callsTo(VaultMediaRpc.deleteEntry).at(-1)!.payload).toEqual({ id: RECORDING_ID });
    expect(timeline.callsTo(TimelineRpc.awaitEntryGone).length).toBe(waitsBefore);
    expect((await send(`${base}/api/media/recordings/${randomUUID()}`, { method: 'DELETE', headers: auth })).status).toBe(404);
    expect((await send(`${base}/api/media/recordings/${RECORDING_ID}`, { method: 'DELETE' })).status).toBe(401);
  });

  it('deletes a letter in Letters and a court document in court-journal, each with the caller’s token, answering once the timeline dropped it', async () => {
    for (const [id, owner, declaration] of [[LETTER_ID, () => owners.callsTo(LettersRpc.delete), 'letters'], [DOCUMENT_ID, () => owners.callsTo(CourtJournalRpc.delete), 'court-journal']] as const) {
      const deleted = await send(`${base}/api/timeline/${id}`, { method: 'DELETE', headers: auth });
      expect([declaration, deleted.status]).toEqual([declaration, 204]);
      const asked = owner().at(-1)!;
      expect(asked.payload).toEqual({ id });
      expect(asked.auth.accessToken).toBe(token);
      expect(timeline.callsTo(TimelineRpc.awaitEntryGone).at(-1)!.payload).toMatchObject({ id });
    }
  });

  it('deletes nothing of another vault: a letter or a document its own service does not find the caller’s is 404, and not waited for', async () => {
    const waitsBefore = timeline.callsTo(TimelineRpc.awaitEntryGone).length;
    const letter = await send(`${base}/api/timeline/${FOREIGN_LETTER_ID}`, { method: 'DELETE', headers: auth });
    expect([letter.status, json(letter)]).toEqual([404, { code: 'NOT_FOUND', message: 'Letter not found' }]);
    const document = await send(`${base}/api/timeline/${FOREIGN_DOCUMENT_ID}`, { method: 'DELETE', headers: auth });
    expect([document.status, json(document)]).toEqual([404, { code: 'NOT_FOUND', message: CourtMessages.notFound }]);
    expect(owners.callsTo(LettersRpc.delete).at(-1)!.payload).toEqual({ id: FOREIGN_LETTER_ID });
    expect(timeline.callsTo(TimelineRpc.awaitEntryGone).length).toBe(waitsBefore);
    // Without a token nobody is asked at all.
    const lettersAsked = owners.callsTo(LettersRpc.delete).length;
    expect((await send(`${base}/api/timeline/${LETTER_ID}`, { method: 'DELETE' })).status).toBe(401);
    expect(owners.callsTo(LettersRpc.delete).length).toBe(lettersAsked);
  });

  it('answers an unknown id 404 and a malformed one with the words the SPA shows, asking no owner', async () => {
    const waitsBefore = timeline.callsTo(TimelineRpc.awaitEntryGone).length;
    const deletesBefore = vaultMedia.callsTo(VaultMediaRpc.deleteEntry).length;
    const unknown = await send(`${base}/api/timeline/${randomUUID()}`, { method: 'DELETE', headers: auth });
    expect(unknown.status).toBe(404);
    expect(json(unknown)).toMatchObject({ code: 'NOT_FOUND' });
    // Not a UUID: the words the SPA shows, before any service is asked.
    const entryLookups = timeline.callsTo(TimelineRpc.entry).length;
    const invalid = await send(`${base}/api/timeline/not-an-id`, { method: 'DELETE', headers: auth });
    expect([invalid.status, json(invalid)]).toEqual([400, expect.objectContaining({ code: 'VALIDATION_FAILED', message: MediaMessages.invalidEntryId })]);
    expect(timeline.callsTo(TimelineRpc.entry).length).toBe(entryLookups);
    // Nothing was deleted, so nothing was waited for; vault-media owns neither entry and was never asked.
    expect(timeline.callsTo(TimelineRpc.awaitEntryGone).length).toBe(waitsBefore);
    expect(vaultMedia.callsTo(VaultMediaRpc.deleteEntry).length).toBe(deletesBefore);
  });

  it('relays the owning service’s own check of the caller: a recording vault-media does not find his is 404, and not waited for', async () => {
    const waitsBefore = timeline.callsTo(TimelineRpc.awaitEntryGone).length;
    const refused = await send(`${base}/api/timeline/${RECHECKED_ID}`, { method: 'DELETE', headers: auth });
    expect([refused.status, json(refused)]).toEqual([404, { code: 'NOT_FOUND', message: MediaMessages.notFound }]);
    const asked = vaultMedia.callsTo(VaultMediaRpc.deleteEntry).at(-1)!;
    expect(asked.payload).toEqual({ id: RECHECKED_ID });
    expect(asked.auth.accessToken).toBe(token);
    expect(timeline.callsTo(TimelineRpc.awaitEntryGone).length).toBe(waitsBefore);
  });

  it('answers 503 when vault-media’s byte listener is down', async () => {
    const closed = new Promise((r) => mediaHttp.close(r));
    mediaHttp.closeAllConnections();
    await closed;
    const answer = await send(`${base}/api/media/uploads/${RECORDING_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'video/webm', 'content-length': '1000' }, chunks: [Buffer.alloc(1000)] });
    expect(answer.status).toBe(503);
    expect(json(answer).code).toBe('SERVICE_UNAVAILABLE');
    const play = await send(`${base}/api/media/play/${RECORDING_ID}?u=x`, { headers: { cookie: 'lv_media=binding-value' } });
    expect(play.status).toBe(503);
  });

  it('answers 503 to a timeline delete while the timeline is down: no owner is guessed and asked', async () => {
    await timeline.stop();
    const deletesBefore = vaultMedia.callsTo(VaultMediaRpc.deleteEntry).length;
    const answer = await send(`${base}/api/timeline/${RECORDING_ID}`, { method: 'DELETE', headers: auth });
    expect([answer.status, json(answer).code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(vaultMedia.callsTo(VaultMediaRpc.deleteEntry).length).toBe(deletesBefore);
  });
});
