// The gateway's court area (/api/court) booted in-process and listening on a real port, against the
// machine's NATS and Redis, with court-journal and the timeline played by stand-ins: their RPCs (Nest's
// NATS wire format) and court-journal's HTTP listener for bytes. What is checked here is the gateway's
// part: every route needs a signed-in owner (but the public keys), bodies are checked at the edge
// with the spec's words, uploads stream through unparsed whatever type the browser gave the file,
// file and bundle answers pass only whitelisted headers, links are bound by the lv_court cookie, a
// court entry of the timeline is deleted in court-journal, and a court-journal that is down is a 503.
// The real service's owner scoping and evidence chain are covered by apps/court-journal's specs.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  COURT_FILE_MAX_BYTES, CourtJournalRpc, CourtMessages, TimelineRpc, VaultMediaRpc, type AccessTokenClaims, type CourtDocument, type EvidencePublicKeys,
} from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { sendHttp, type HttpAnswer } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { createSpecGateway, listenLocally, specWorkDir } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwc${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USER_ID = '66666666-6666-4666-8666-666666666666';
const DOCUMENT_ID = '77777777-7777-4777-8777-777777777777';
const UPLOAD_ID = '88888888-8888-4888-8888-888888888888';
const MiB = 1024 * 1024;
const LINK_QUERY = `?d=inline&u=${USER_ID}&exp=9999999999&sig=abc`;

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signer = new AccessTokenSigner(keys.privateKey);
const claims: AccessTokenClaims = { sub: USER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'pro', admin: false, kind: 'user' };
const token = signer.sign(claims, 600).token;
const auth = { authorization: `Bearer ${token}` };

const courtDocument = (over: Partial<CourtDocument> = {}): CourtDocument => ({
  id: DOCUMENT_ID, title: 'Receipts, March', description: null, category: 'Receipts or Payment Records', variant: 'documents', file_name: 'receipts.pdf', file_kind: 'pdf',
  file_type: 'application/pdf', file_path: `${USER_ID}/${DOCUMENT_ID}.pdf`, size: 1000, sha256: 'a'.repeat(64), previewable: true, is_key_evidence: false,
  upload_date: '2026-11-24T10:00:00.000Z', created_at: '2026-11-24T10:00:00.000Z', ...over,
});

const send = sendHttp;
/** An answer's JSON: an ErrorBody or a reply, compared whole with toEqual. */
const json = (a: HttpAnswer) => a.json<{ code?: string } & Record<string, unknown>>();
const jsonBody = (value: unknown) => ({ headers: { ...auth, 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify(value))] });

/** What court-journal's HTTP listener received, per request. */
interface Received { method: string; url: string; headers: IncomingMessage['headers']; bytes: number; sha256: string; maxChunk: number }

describe('gateway court routes (in-process, stand-in court-journal)', () => {
  let app: NestFastifyApplication;
  let base: string;
  let courtJournal: NestNatsResponder;
  let timeline: NestNatsResponder;
  let vaultMedia: NestNatsResponder;
  let courtHttp: Server;
  let s3: RunningS3Server;
  let workDir: string;
  const received: Received[] = [];
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20)]);

  beforeAll(async () => {
    ({ workDir } = await specWorkDir('court'));
    s3 = await startS3Server({ port: 0, directory: join(workDir, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret', silent: true });

    // court-journal's byte-stream listener, standing in.
    courtHttp = createServer((req, res) => {
      const hash = createHash('sha256');
      const entry: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes: 0, sha256: '', maxChunk: 0 };
      received.push(entry);
      if (req.url?.startsWith('/uploads/')) {
        req.on('data', (chunk: Buffer) => {
          entry.bytes += chunk.length;
          entry.maxChunk = Math.max(entry.maxChunk, chunk.length);
          hash.update(chunk);
          if (entry.bytes > COURT_FILE_MAX_BYTES && !res.headersSent) {
            res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'PAYLOAD_TOO_LARGE', message: CourtMessages.fileTooLarge }));
          }
        });
        req.on('end', () => {
          entry.sha256 = hash.digest('hex');
          if (!res.headersSent) res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(courtDocument({ size: entry.bytes, sha256: entry.sha256 })));
        });
        return;
      }
      const bound = req.headers['x-lv-court-binding'] === 'court-binding';
      if (!bound) {
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'FORBIDDEN', message: CourtMessages.linkInvalid }));
        return;
      }
      const internals = { 'x-internal-detail': 'must not leak', 'set-cookie': 'upstream=1', server: 'court-journal', 'access-control-allow-origin': '*' };
      if (req.url?.startsWith(`/files/${DOCUMENT_ID}`)) {
        res.writeHead(200, {
          ...internals, 'content-type': 'application/pdf', 'content-length': String(pdf.length), 'content-disposition': 'inline; filename="receipts.pdf"',
          'x-content-type-options': 'nosniff', 'cache-control': 'private, no-store', 'content-security-policy': "default-src 'none'; frame-ancestors 'self'",
        }).end(pdf);
        return;
      }
      if (req.url?.startsWith('/evidence/bundle')) {
        const zip = Buffer.from('PK\u0003\u0004bundle');
        res.writeHead(200, {
          ...internals, 'content-type': 'application/zip', 'content-length': String(zip.length), 'content-disposition': 'attachment; filename="evidence.zip"', 'x-content-type-options': 'nosniff',
        }).end(zip);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', message: CourtMessages.notFound }));
    });
    await new Promise<void>((r) => courtHttp.listen(0, '127.0.0.1', r));
    const courtUrl = `http://127.0.0.1:${(courtHttp.address() as AddressInfo).port}`;

    // Only DOCUMENT_ID is the caller's: every other id is what another user's document looks like, a 404.
    const mine = (id: string) => {
      if (id !== DOCUMENT_ID) throw new DomainError('NOT_FOUND', CourtMessages.notFound);
    };
    const grant = (url: string) => ({ url, expiresAt: 9999999999000, binding: { value: 'court-binding', maxAgeSeconds: 300 } });
    courtJournal = await NestNatsResponder.start(NATS_URL, STACK_ID);
    courtJournal
      .handle(CourtJournalRpc.startUpload, () => ({ uploadId: UPLOAD_ID, uploadUrl: `/api/court/uploads/${UPLOAD_ID}`, maxBytes: COURT_FILE_MAX_BYTES }))
      .handle(CourtJournalRpc.list, ({ payload }) => [courtDocument(payload.category ? { category: payload.category } : {})])
      .handle(CourtJournalRpc.setKeyEvidence, ({ payload }) => { mine(payload.id); return courtDocument({ is_key_evidence: payload.isKeyEvidence }); })
      .handle(CourtJournalRpc.delete, ({ payload }) => { mine(payload.id); return { id: payload.id, deleted: true }; })
      .handle(CourtJournalRpc.fileLink, ({ payload }) => { mine(payload.id); return grant(`/api/court/files/${payload.id}?d=${payload.disposition}&u=${USER_ID}&exp=9999999999&sig=abc`); })
      .handle(CourtJournalRpc.bundleLink, () => grant(`/api/court/evidence/bundle?u=${USER_ID}&exp=9999999999&sig=abc`))
      .handle(CourtJournalRpc.evidenceHead, () => ({ ownerId: USER_ID, sequence: 0, headHash: '0'.repeat(64), signedAt: '2026-11-24T10:00:00.000Z', keyId: 'k1', signature: 'sig' }))
      .handle(CourtJournalRpc.evidenceEntries, () => [])
      .handle(CourtJournalRpc.publicKeys, () => ({ keys: [{ keyId: 'k1', algorithm: 'Ed25519', publicKeyPem: '-----BEGIN PUBLIC KEY-----\n...', validFrom: '2026-11-24T10:00:00.000Z', validUntil: null }] }))
      .handle(CourtJournalRpc.stats, () => ({ activeDays: ['2026-11-20', '2026-11-21'] }));
    await courtJournal.listen(['rpc.court-journal.>']);
    vaultMedia = await NestNatsResponder.start(NATS_URL, STACK_ID);
    // Owns no entry here: it is there to show that a court entry's delete never reaches it.
    vaultMedia.handle(VaultMediaRpc.deleteEntry, () => { throw new DomainError('NOT_FOUND', 'Recording not found'); });
    await vaultMedia.listen(['rpc.vault-media.>']);
    timeline = await NestNatsResponder.start(NATS_URL, STACK_ID);
    timeline
      .handle(TimelineRpc.entry, ({ payload }) => {
        if (payload.id !== DOCUMENT_ID) throw new DomainError('NOT_FOUND', 'Entry not found');
        return { id: DOCUMENT_ID, source: 'court-journal', type: 'document', entry_type: 'media', title: 'Receipts, March' };
      })
      .handle(TimelineRpc.awaitEntryGone, ({ payload }) => ({ id: payload.id, gone: true }));
    await timeline.listen(['rpc.timeline.>']);

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '2000',
      WEB_DIST_DIR: join(workDir, 'web'), COURT_JOURNAL_URL: courtUrl, VAULT_MEDIA_URL: 'http://127.0.0.1:9', HOST: '127.0.0.1', PORT: '0',
    }, { statsProviders: ['court-journal'] });
    base = await listenLocally(app);
  });

  afterAll(async () => {
    await app?.close();
    await courtJournal?.close();
    await vaultMedia?.close();
    await timeline?.close();
    await new Promise((r) => courtHttp?.close(r));
    await s3?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('needs a signed-in owner on every route but the published evidence keys, and never reaches court-journal without one', async () => {
    const rpcBefore = courtJournal.callsTo(CourtJournalRpc.list).length;
    const httpBefore = received.length;
    const routes: [string, string][] = [
      ['POST', '/api/court/uploads'], ['PUT', `/api/court/uploads/${UPLOAD_ID}`], ['GET', '/api/court/documents'], ['PATCH', `/api/court/documents/${DOCUMENT_ID}`],
      ['DELETE', `/api/court/documents/${DOCUMENT_ID}`], ['POST', `/api/court/documents/${DOCUMENT_ID}/link`], ['GET', '/api/court/evidence/head'],
      ['GET', '/api/court/evidence/entries'], ['POST', '/api/court/evidence/bundle-link'],
    ];
    for (const [method, url] of routes) {
      const bodyless = method === 'GET' || method === 'DELETE';
      const headers: Record<string, string> = bodyless ? {} : { 'content-type': method === 'PUT' ? 'application/pdf' : 'application/json' };
      const answer = await send(`${base}${url}`, { method, headers, chunks: bodyless ? [] : [Buffer.from(method === 'PUT' ? pdf : '{}')] });
      expect({ method, url, status: answer.status, code: json(answer).code }).toEqual({ method, url, status: 401, code: 'UNAUTHENTICATED' });
    }
    expect(courtJournal.callsTo(CourtJournalRpc.list).length).toBe(rpcBefore);
    expect(received.length).toBe(httpBefore);
    const keysAnswer = await send(`${base}/api/court/evidence/keys`);
    expect(keysAnswer.status).toBe(200);
    expect(keysAnswer.json<EvidencePublicKeys>().keys[0]).toMatchObject({ keyId: 'k1', algorithm: 'Ed25519' });
    expect(courtJournal.callsTo(CourtJournalRpc.publicKeys).at(-1)!.auth.accessToken).toBeUndefined();
  });

  it('starts an upload with the caller’s token and the trimmed fields, nothing more', async () => {
    const answer = await send(`${base}/api/court/uploads`, { method: 'POST', ...jsonBody({ title: ' Receipts ', category: 'Support', description: '  ', fileName: 'receipts.pdf', size: 2009, ownerId: randomUUID() }) });
    expect(answer.status).toBe(201);
    expect(json(answer)).toEqual({ uploadId: UPLOAD_ID, uploadUrl: `/api/court/uploads/${UPLOAD_ID}`, maxBytes: COURT_FILE_MAX_BYTES });
    const call = courtJournal.callsTo(CourtJournalRpc.startUpload).at(-1)!;
    expect(call.payload).toEqual({ title: 'Receipts', category: 'Support', fileName: 'receipts.pdf', size: 2009 });
    expect(call.auth.accessToken).toBe(token);
  });

  it('refuses bad upload forms with 400 and the spec’s words (a journal card’s own), without calling the service', async () => {
    const before = courtJournal.callsTo(CourtJournalRpc.startUpload).length;
    const missing = await send(`${base}/api/court/uploads`, { method: 'POST', ...jsonBody({}) });
    expect(missing.status).toBe(400);
    expect(json(missing)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { title: CourtMessages.missingInformation, fileName: CourtMessages.missingInformation, category: CourtMessages.categoryRequired } });
    const journal = await send(`${base}/api/court/uploads`, { method: 'POST', ...jsonBody({ title: '  ', category: 'Photo Evidence', fileName: '', size: 10 }) });
    expect(json(journal)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { title: CourtMessages.journalMissing, fileName: CourtMessages.journalMissing } });
    const large = await send(`${base}/api/court/uploads`, { method: 'POST', ...jsonBody({ title: 'Big', category: 'Custody', fileName: 'big.pdf', size: COURT_FILE_MAX_BYTES + 1 }) });
    expect(json(large)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { size: CourtMessages.fileTooLarge } });
    const category = await send(`${base}/api/court/uploads`, { method: 'POST', ...jsonBody({ title: 'T', category: 'Parking', fileName: 'a.pdf', size: 1 }) });
    expect(json(category)).toMatchObject({ fields: { category: CourtMessages.categoryRequired } });
    const list = await send(`${base}/api/court/documents?category=Parking`, { headers: auth });
    expect(list.status).toBe(400);
    const flag = await send(`${base}/api/court/documents/${DOCUMENT_ID}`, { method: 'PATCH', ...jsonBody({ is_key_evidence: 'yes' }) });
    expect(json(flag)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { is_key_evidence: 'is_key_evidence must be true or false.' } });
    const link = await send(`${base}/api/court/documents/${DOCUMENT_ID}/link`, { method: 'POST', ...jsonBody({ disposition: 'embed' }) });
    expect(json(link)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { disposition: 'disposition is inline or attachment.' } });
    // Not JSON at all: the edge refuses it before any parser.
    const form = await send(`${base}/api/court/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, chunks: [Buffer.from('title=x')] });
    expect(form.status).toBe(415);
    expect(courtJournal.callsTo(CourtJournalRpc.startUpload).length).toBe(before);
  });

  it('refuses state-changing court requests from another site (403), the byte stream included', async () => {
    const evil = { origin: 'https://evil.example' };
    const start = await send(`${base}/api/court/uploads`, { method: 'POST', headers: { ...auth, ...evil, 'content-type': 'application/json' }, chunks: [Buffer.from('{}')] });
    expect(start.status).toBe(403);
    expect(json(start).code).toBe('CROSS_SITE_REFUSED');
    const before = received.length;
    const put = await send(`${base}/api/court/uploads/${UPLOAD_ID}`, { method: 'PUT', headers: { ...auth, 'sec-fetch-site': 'cross-site', 'content-type': 'application/pdf' }, chunks: [pdf] });
    expect(put.status).toBe(403);
    const del = await send(`${base}/api/court/documents/${DOCUMENT_ID}`, { method: 'DELETE', headers: { ...auth, ...evil } });
    expect(del.status).toBe(403);
    expect(received.length).toBe(before);
  });

  it('streams a document through to court-journal unparsed, whatever type the browser gave it, and relays its answer', async () => {
    for (const type of ['application/pdf', 'text/plain; charset=utf-8', 'application/octet-stream', 'image/png', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document']) {
      const answer = await send(`${base}/api/court/uploads/${UPLOAD_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': type, 'content-length': String(pdf.length) }, chunks: [pdf] });
      expect({ type, status: answer.status }).toEqual({ type, status: 201 });
      const upstream = received.at(-1)!;
      expect(upstream).toMatchObject({ method: 'PUT', url: `/uploads/${UPLOAD_ID}`, bytes: pdf.length, sha256: createHash('sha256').update(pdf).digest('hex') });
      expect(upstream.headers.authorization).toBe(`Bearer ${token}`);
      expect(upstream.headers['content-type']).toBe(type);
      expect(json(answer)).toMatchObject({ id: DOCUMENT_ID, size: pdf.length });
    }
  });

  it('pipes a body past the limit in small chunks and relays the 413 court-journal gives mid-body', async () => {
    const chunks = Array.from({ length: 12 }, () => Buffer.alloc(MiB, 1));
    const answer = await send(`${base}/api/court/uploads/${UPLOAD_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf', 'content-length': String(12 * MiB) }, chunks });
    expect(answer.status).toBe(413);
    expect(json(answer)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: CourtMessages.fileTooLarge });
    expect(received.at(-1)!.maxChunk).toBeLessThanOrEqual(MiB);
  });

  it('refuses an upload body that is JSON or a recording’s type (415) without reaching court-journal', async () => {
    const before = received.length;
    for (const type of ['application/json', 'video/webm']) {
      const answer = await send(`${base}/api/court/uploads/${UPLOAD_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': type }, chunks: [Buffer.from('{}')] });
      expect({ type, status: answer.status, code: json(answer).code }).toEqual({ type, status: 415, code: 'UNSUPPORTED_MEDIA' });
    }
    expect(received.length).toBe(before);
  });

  it('lists, marks key evidence and deletes through court-journal; another user’s document (or a malformed id) is 404', async () => {
    const list = await send(`${base}/api/court/documents?category=Photo%20Evidence`, { headers: auth });
    expect(list.status).toBe(200);
    expect(json(list)).toEqual([courtDocument({ category: 'Photo Evidence' })]);
    expect(courtJournal.callsTo(CourtJournalRpc.list).at(-1)!.payload).toEqual({ category: 'Photo Evidence' });
    const marked = await send(`${base}/api/court/documents/${DOCUMENT_ID}`, { method: 'PATCH', ...jsonBody({ is_key_evidence: true }) });
    expect(json(marked)).toMatchObject({ id: DOCUMENT_ID, is_key_evidence: true });
    expect(courtJournal.callsTo(CourtJournalRpc.setKeyEvidence).at(-1)!.payload).toEqual({ id: DOCUMENT_ID, isKeyEvidence: true });
    const deleted = await send(`${base}/api/court/documents/${DOCUMENT_ID}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);

    const foreign = randomUUID();
    for (const [method, url, body] of [
      ['PATCH', `/api/court/documents/${foreign}`, { is_key_evidence: true }], ['DELETE', `/api/court/documents/${foreign}`, undefined],
      ['POST', `/api/court/documents/${foreign}/link`, { disposition: 'attachment' }],
    ] as const) {
      const answer = await send(`${base}${url}`, body ? { method, ...jsonBody(body) } : { method, headers: auth });
      expect({ method, status: answer.status, body: json(answer) }).toEqual({ method, status: 404, body: { code: 'NOT_FOUND', message: CourtMessages.notFound } });
    }
    const calls = courtJournal.callsTo(CourtJournalRpc.delete).length;
    const malformed = await send(`${base}/api/court/documents/not-a-uuid`, { method: 'DELETE', headers: auth });
    expect(malformed.status).toBe(404);
    expect(courtJournal.callsTo(CourtJournalRpc.delete).length).toBe(calls);
  });

  it('hands out file and bundle links bound to the caller by an httpOnly, SameSite=Strict lv_court cookie on /api/court', async () => {
    const answer = await send(`${base}/api/court/documents/${DOCUMENT_ID}/link`, { method: 'POST', ...jsonBody({ disposition: 'attachment' }) });
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ url: `/api/court/files/${DOCUMENT_ID}?d=attachment&u=${USER_ID}&exp=9999999999&sig=abc`, expiresAt: 9999999999000 });
    expect(courtJournal.callsTo(CourtJournalRpc.fileLink).at(-1)!.payload).toEqual({ id: DOCUMENT_ID, disposition: 'attachment' });
    const cookie = ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('lv_court='))!;
    expect(cookie).toMatch(/^lv_court=court-binding;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/court(;|$)/);
    expect(cookie).toMatch(/Max-Age=300/);
    const bundle = await send(`${base}/api/court/evidence/bundle-link`, { method: 'POST', headers: auth });
    expect(json(bundle)).toEqual({ url: `/api/court/evidence/bundle?u=${USER_ID}&exp=9999999999&sig=abc`, expiresAt: 9999999999000 });
    expect(([] as string[]).concat(bundle.headers['set-cookie'] ?? []).some((c) => c.startsWith('lv_court=court-binding;'))).toBe(true);
    expect(json(await send(`${base}/api/court/evidence/head`, { headers: auth }))).toMatchObject({ ownerId: USER_ID, sequence: 0 });
  });

  it('serves a file through the signed link and the cookie, with only the whitelisted headers of court-journal’s answer', async () => {
    const answer = await send(`${base}/api/court/files/${DOCUMENT_ID}${LINK_QUERY}`, { headers: { cookie: 'lv_court=court-binding' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(pdf);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-length']).toBe(String(pdf.length));
    expect(answer.headers['content-disposition']).toBe('inline; filename="receipts.pdf"');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");
    expect(answer.headers['x-internal-detail']).toBeUndefined();
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers.server).toBeUndefined();
    const upstream = received.at(-1)!;
    expect(upstream.url).toBe(`/files/${DOCUMENT_ID}${LINK_QUERY}`);
    expect(upstream.headers['x-lv-court-binding']).toBe('court-binding');
    // The browser's bearer token (if any) and cookies never travel to the listener.
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.headers.cookie).toBeUndefined();

    const zip = await send(`${base}/api/court/evidence/bundle?u=${USER_ID}&exp=9999999999&sig=abc`, { headers: { cookie: 'lv_court=court-binding' } });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe('attachment; filename="evidence.zip"');
    expect(zip.headers['x-internal-detail']).toBeUndefined();
    expect(received.at(-1)!.url).toBe(`/evidence/bundle?u=${USER_ID}&exp=9999999999&sig=abc`);
  });

  it('refuses a link without the cookie (court-journal’s 403, words kept) and a malformed one at the edge', async () => {
    const noCookie = await send(`${base}/api/court/files/${DOCUMENT_ID}${LINK_QUERY}`);
    expect(noCookie.status).toBe(403);
    expect(json(noCookie)).toEqual({ code: 'FORBIDDEN', message: CourtMessages.linkInvalid });
    const bundle = await send(`${base}/api/court/evidence/bundle?u=${USER_ID}&exp=9999999999&sig=abc`, { headers: { cookie: 'lv_court=someone-else' } });
    expect(bundle.status).toBe(403);
    const before = received.length;
    const badId = await send(`${base}/api/court/files/..%2Fevidence${LINK_QUERY}`, { headers: { cookie: 'lv_court=court-binding' } });
    expect(json(badId)).toEqual({ code: 'FORBIDDEN', message: CourtMessages.linkInvalid });
    const long = await send(`${base}/api/court/files/${DOCUMENT_ID}?sig=${'a'.repeat(600)}`, { headers: { cookie: 'lv_court=court-binding' } });
    expect(long.status).toBe(403);
    expect(received.length).toBe(before);
  });

  it('deletes a court entry of the timeline in court-journal, and answers once the timeline dropped it', async () => {
    const deletes = courtJournal.callsTo(CourtJournalRpc.delete).length;
    const answer = await send(`${base}/api/timeline/${DOCUMENT_ID}`, { method: 'DELETE', headers: auth });
    expect(answer.status).toBe(204);
    expect(courtJournal.callsTo(CourtJournalRpc.delete).length).toBe(deletes + 1);
    expect(courtJournal.callsTo(CourtJournalRpc.delete).at(-1)!.payload).toEqual({ id: DOCUMENT_ID });
    // The timeline named court-journal as the owner: vault-media is not asked first.
    expect(vaultMedia.callsTo(VaultMediaRpc.deleteEntry)).toEqual([]);
    expect(timeline.callsTo(TimelineRpc.awaitEntryGone).at(-1)!.payload).toMatchObject({ id: DOCUMENT_ID });
    const unknown = await send(`${base}/api/timeline/${randomUUID()}`, { method: 'DELETE', headers: auth });
    expect(unknown.status).toBe(404);
    expect(courtJournal.callsTo(CourtJournalRpc.delete).length).toBe(deletes + 1);
    expect(vaultMedia.callsTo(VaultMediaRpc.deleteEntry)).toEqual([]);
  });

  it('counts the days documents were filed in the vault home’s days active', async () => {
    const stats = await send(`${base}/api/vault/stats`, { headers: auth });
    expect(stats.status).toBe(200);
    expect(json(stats)).toMatchObject({ daysActive: 2 });
    expect(courtJournal.callsTo(CourtJournalRpc.stats).at(-1)!.auth.accessToken).toBe(token);
  });

  it('answers 503 when court-journal’s byte listener is down', async () => {
    const closed = new Promise((r) => courtHttp.close(r));
    courtHttp.closeAllConnections();
    await closed;
    const upload = await send(`${base}/api/court/uploads/${UPLOAD_ID}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/pdf', 'content-length': String(pdf.length) }, chunks: [pdf] });
    expect(upload.status).toBe(503);
    expect(json(upload).code).toBe('SERVICE_UNAVAILABLE');
    const file = await send(`${base}/api/court/files/${DOCUMENT_ID}${LINK_QUERY}`, { headers: { cookie: 'lv_court=court-binding' } });
    expect(file.status).toBe(503);
  });
});
