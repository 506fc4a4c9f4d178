// The gateway's viewer media and document routes (/api/view/media, /api/view/documents) booted
// in-process and listening on a real port, against the machine's NATS and Redis, with vault-media,
// court-journal and access-keys played by stand-ins: their RPCs (Nest's NATS wire format) and the
// byte listeners. What is checked here is the gateway's part: the lv_view cookie set on redeem and
// renewal and cleared on close, the link routes for viewer tokens only (the opening recorded before a
// link is given), and the byte routes passing the cookie's token, Range and the service's refusals on.
// The services' own checks (session, section, vault, revocation, downloads) are proven on the real
// services in apps/vault-media/test/viewer-playback.int.spec.ts and apps/court-journal/test/viewer-documents.int.spec.ts.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { AccessKeysRpc, AccessMessages, CourtJournalRpc, VaultMediaRpc, ViewerLinkMessages, type AccessTokenClaims } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { generateTestKeys, sendHttp, TestViewerIssuer } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { createSpecGateway, listenLocally, specWorkDir } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwvm${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const OWNER_ID = randomUUID();
const RECORDING_ID = randomUUID();
const DOCUMENT_ID = randomUUID();
const SESSION_SECRET = 'S'.repeat(43);
const keys = generateTestKeys();
const ownerClaims: AccessTokenClaims = { sub: OWNER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'pro', admin: false, kind: 'user' };
const ownerToken = new AccessTokenSigner(keys.privateKey).sign(ownerClaims, 600).token;
const media = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

describe('gateway viewer media and document routes (in-process, stand-in services)', () => {
  let app: NestFastifyApplication;
  let base: string;
  let services: NestNatsResponder;
  let bytes: Server;
  let redis: Redis;
  let s3: RunningS3Server;
  let workDir: string;
  let viewers: TestViewerIssuer;
  const received: IncomingMessage[] = [];

  const get = (path: string, headers: Record<string, string> = {}) => sendHttp(`${base}${path}`, { headers });
  const post = (path: string, body: unknown) => sendHttp(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify(body))] });
  const setCookie = (headers: Record<string, string | string[] | undefined>) => [headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('lv_view=')) ?? '';

  beforeAll(async () => {
    ({ workDir } = await specWorkDir('view-media'));
    s3 = await startS3Server({ port: 0, directory: join(workDir, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret', silent: true });
    redis = new Redis(REDIS_URL);
    viewers = new TestViewerIssuer(redis);

    // Both byte listeners, standing in: they honour the token the gateway passes on (here: any), and echo Range.
    bytes = createServer((req, res) => {
      received.push(req);
      if (!req.headers['x-lv-view-token']) {
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'FORBIDDEN', message: ViewerLinkMessages.noViewer }));
        return;
      }
      const range = /bytes=(\d+)-(\d+)/.exec(String(req.headers.range ?? ''));
      if (range) {
        const [start, end] = [Number(range[1]), Number(range[2])];
        res.writeHead(206, { 'content-type': 'video/webm', 'content-range': `bytes ${start}-${end}/${media.length}`, 'content-length': String(end - start + 1), 'x-internal': 'no', 'accept-ranges': 'bytes' })
          .end(media.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(media.length), 'content-disposition': 'inline' }).end(media);
    });
    await new Promise<void>((r) => bytes.listen(0, '127.0.0.1', r));
    const bytesUrl = `http://127.0.0.1:${(bytes.address() as AddressInfo).port}`;

    const grant = (viewerToken: string) => ({ session_id: randomUUID(), owner_id: OWNER_ID, scopes: ['timeline' as const], viewer_token: viewerToken, viewer_token_expires_at: Date.now() + 900_000, session_expires_at: '2026-12-31T00:00:00.000Z', may_download: false });
    services = await NestNatsResponder.start(NATS_URL, STACK_ID);
    services
      .handle(AccessKeysRpc.redeem, () => ({ ...grant('redeemed-token'), session: SESSION_SECRET }))
      .handle(AccessKeysRpc.viewToken, () => grant('renewed-token'))
      .handle(AccessKeysRpc.closeSession, () => ({ closed: true }))
      .handle(AccessKeysRpc.recordView, () => ({ recorded: true }))
      .handle(VaultMediaRpc.viewerLink, ({ payload }) => {
        if (payload.id !== RECORDING_ID) throw new DomainError('NOT_FOUND');
        if (payload.poster) return { url: `/api/view/media/${RECORDING_ID}?s=x&exp=1&sig=p&poster=1`, expiresAt: 1, contentType: 'image/jpeg', mediaKind: 'image', title: 'Hello', downloadUrl: null, section: 'timeline' };
        return { url: `/api/view/media/${RECORDING_ID}?s=x&exp=1&sig=y`, expiresAt: 1, contentType: 'video/webm', mediaKind: 'video', title: 'Hello', downloadUrl: null, section: 'timeline' };
      })
      .handle(CourtJournalRpc.viewerLink, () => { throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared); });
    await services.listen(['rpc.access-keys.>', 'rpc.vault-media.>', 'rpc.court-journal.>']);

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewers.publicKey, RPC_TIMEOUT_MS: '3000', NODE_ENV: 'test',
      WEB_DIST_DIR: join(workDir, 'web'), DEVICE_COOKIE_SECRET: 'view-media-spec-device-cookie-secret-0123', VAULT_MEDIA_URL: bytesUrl, COURT_JOURNAL_URL: bytesUrl,
    });
    base = await listenLocally(app);
  });

  afterAll(async () => {
    await app?.close();
    await services?.close();
    await new Promise((r) => bytes?.close(r));
    redis?.disconnect();
    await s3?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('sets the lv_view cookie on redeem and on renewal (httpOnly, SameSite=Strict, Secure, /api/view, the token’s life) and clears it on close', async () => {
    const consent = { version: 'v1.0', text_hash: 'a'.repeat(64) };
    const redeemed = await post('/api/view/redeem', { access_key: randomUUID(), consent });
    expect(redeemed.status).toBe(201);
    const cookie = setCookie(redeemed.headers);
    expect(cookie).toMatch(/^lv_view=redeemed-token; Max-Age=(89\d|900); Path=\/api\/view; HttpOnly; Secure; SameSite=Strict$/);
    expect(setCookie((await post('/api/view/token', { session: SESSION_SECRET })).headers)).toMatch(/^lv_view=renewed-token; Max-Age=\d+; Path=\/api\/view; HttpOnly; Secure; SameSite=Strict$/);
    const closed = await post('/api/view/close', { session: SESSION_SECRET });
    expect(closed.status).toBe(204);
    expect(setCookie(closed.headers)).toMatch(/^lv_view=; Max-Age=0; Path=\/api\/view; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict$/);
  });

  it('answers a viewer’s link route with the owning service’s link (no section), after recording the opened item', async () => {
    const viewer = viewers.issue(OWNER_ID, ['timeline']);
    const answer = await get(`/api/view/media/${RECORDING_ID}/link`, { authorization: `Bearer ${viewer.token}` });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ url: `/api/view/media/${RECORDING_ID}?s=x&exp=1&sig=y`, expiresAt: 1, contentType: 'video/webm', mediaKind: 'video', title: 'Hello', downloadUrl: null });
    expect(services.callsTo(AccessKeysRpc.recordView).at(-1)!.payload).toEqual({ section: 'timeline', item: { kind: 'recording', id: RECORDING_ID } });

    // The service's refusals pass as they are, and nothing is recorded for them.
    const recorded = services.callsTo(AccessKeysRpc.recordView).length;
    expect((await get(`/api/view/media/${randomUUID()}/link`, { authorization: `Bearer ${viewer.token}` })).status).toBe(404);
    const document = await get(`/api/view/documents/${DOCUMENT_ID}/link`, { authorization: `Bearer ${viewer.token}` });
    expect([document.status, document.json()]).toEqual([403, { code: 'FORBIDDEN', message: AccessMessages.sectionNotShared }]);
    expect(services.callsTo(AccessKeysRpc.recordView)).toHaveLength(recorded);
  });

  it('answers the poster route with the service’s poster-only link, asked for as such, recording no opened item', async () => {
    const viewer = viewers.issue(OWNER_ID, ['timeline']);
    const recorded = services.callsTo(AccessKeysRpc.recordView).length;
    const answer = await get(`/api/view/media/${RECORDING_ID}/poster`, { authorization: `Bearer ${viewer.token}` });
    expect([answer.status, answer.json()]).toEqual([200, { url: `/api/view/media/${RECORDING_ID}?s=x&exp=1&sig=p&poster=1`, expiresAt: 1 }]);
    expect(services.callsTo(VaultMediaRpc.viewerLink).at(-1)!.payload).toEqual({ id: RECORDING_ID, poster: true });
    expect((await get(`/api/view/media/${randomUUID()}/poster`, { authorization: `Bearer ${viewer.token}` })).status).toBe(404);
    expect(services.callsTo(AccessKeysRpc.recordView)).toHaveLength(recorded);
  });

  it('refuses the link routes to an owner’s token, to nobody and to a revoked view session', async () => {
    for (const path of [`/api/view/media/${RECORDING_ID}/link`, `/api/view/media/${RECORDING_ID}/poster`, `/api/view/documents/${DOCUMENT_ID}/link`]) {
      expect((await get(path, { authorization: `Bearer ${ownerToken}` })).status).toBe(401);
      expect((await get(path)).status).toBe(401);
      expect((await get(path, { authorization: `Bearer ${(await viewers.revoked(OWNER_ID)).token}` })).json<{ code: string }>().code).toBe('SESSION_EXPIRED');
    }
  });

  it('passes the lv_view cookie’s token and Range to the byte listener, and its refusal back; a malformed link is 403 at the edge', async () => {
    const played = await get(`/api/view/media/${RECORDING_ID}?s=x&exp=1&sig=y`, { cookie: 'lv_view=cookie-token', range: 'bytes=4-9' });
    expect(played.status).toBe(206);
    expect(played.body.toString()).toBe('456789');
    expect(played.headers['content-range']).toBe(`bytes 4-9/${media.length}`);
    expect(played.headers['x-internal']).toBeUndefined();
    const last = received.at(-1)!;
    expect([last.url, last.headers['x-lv-view-token'], last.headers.range]).toEqual([`/view/media/${RECORDING_ID}?s=x&exp=1&sig=y`, 'cookie-token', 'bytes=4-9']);

    const document = await get(`/api/view/documents/${DOCUMENT_ID}?s=x&exp=1&sig=y`, { cookie: 'lv_view=cookie-token' });
    expect([document.status, received.at(-1)!.url]).toEqual([200, `/view/documents/${DOCUMENT_ID}?s=x&exp=1&sig=y`]);

    const copied = await get(`/api/view/media/${RECORDING_ID}?s=x&exp=1&sig=y`);
    expect([copied.status, copied.json()]).toEqual([403, { code: 'FORBIDDEN', message: ViewerLinkMessages.noViewer }]);
    const before = received.length;
    expect((await get('/api/view/media/not-an-id?s=x', { cookie: 'lv_view=t' })).status).toBe(403);
    expect((await get(`/api/view/documents/${DOCUMENT_ID}?s=${'x'.repeat(600)}`, { cookie: 'lv_view=t' })).status).toBe(403);
    expect(received.length).toBe(before);
  });
});
