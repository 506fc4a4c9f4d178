// The gateway's settings, export and admin routes booted in-process on a real port, against the
// machine's NATS and Redis, with the services played by stand-ins: their RPCs (Nest's NATS wire
// format) and vault-media's and court-journal's HTTP listeners for bytes. Checked here: who may call
// each route (owner, admin, anonymous, operator), that the export ZIP holds each original byte for
// byte with a manifest whose SHA-256 match, that a read failing mid-way cuts the download rather than
// leave a short file, and that a service down fails the export before a byte. The real services'
// own checks are in apps/identity and apps/vault-media specs.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  AccessKeysRpc, CourtJournalRpc, DEFAULT_DELIVERY_SETTINGS, DEFAULT_NOTIFICATION_PREFERENCES, IdentityRpc, LettersRpc, VaultMediaRpc, type AccessTokenClaims, type AdminOverview,
  type CourtDocument, type Recording, type UserProfile,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { sendHttp, type HttpAnswer } from '@lv/testing';
import { createSpecGateway, listenLocally, specWorkDir } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwx${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USER_ID = '12121212-1212-4212-8212-121212121212';
const LETTER_ID = '13131313-1313-4313-8313-131313131313';
const RECORDING_ID = '14141414-1414-4414-8414-141414141414';
const BROKEN_ID = '15151515-1515-4515-8515-151515151515';
const DOCUMENT_ID = '16161616-1616-4616-8616-161616161616';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signer = new AccessTokenSigner(keys.privateKey);
const tokenOf = (over: Partial<AccessTokenClaims> = {}) => signer.sign({ sub: USER_ID, sid: randomUUID(), email: 'dad@example.com', tier: 'pro', admin: false, kind: 'user', ...over }, 600).token;
const ownerToken = tokenOf();
const adminToken = tokenOf({ admin: true });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const sha = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');
// A recording big enough to cross many chunks on its way through.
const video = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(3 * 1024 * 1024, 7)]);
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x20)]);

const profile: UserProfile = { id: USER_ID, email: 'dad@example.com', full_name: 'John Smith', avatar_url: null, created_at: '2026-11-01T10:00:00.000Z', subscription_tier: 'pro', ai_admin: false, emailVerified: true };
const recording = (id: string, over: Partial<Recording> = {}): Recording => ({
  id, type: 'video', file_type: 'video', title: 'For your 18th birthday', file_path: `${USER_ID}/video_1.webm`, content_type: 'video/webm', size: video.length,
  blob_hash: sha(video), integrity: 'verified', collection: 'vault', created_at: '2026-11-20T10:00:00.000Z', timestamp: '2026-11-20T10:00:00.000Z', ...over,
});
const courtDocument: CourtDocument = {
  id: DOCUMENT_ID, title: 'Contact order', description: null, category: 'Legal Notices or Orders', variant: 'documents', file_name: 'order.pdf', file_kind: 'pdf', file_type: 'application/pdf',
  file_path: `${USER_ID}/${DOCUMENT_ID}.pdf`, size: pdf.length, sha256: sha(pdf), previewable: true, is_key_evidence: true, upload_date: '2026-11-21T10:00:00.000Z', created_at: '2026-11-21T10:00:00.000Z',
};

describe('gateway settings, export and admin routes (in-process, stand-in services)', () => {
  let app: NestFastifyApplication;
  let base: string;
  let services: NestNatsResponder;
  let bytes: Server;
  let workDir: string;
  let mediaItems: Recording[] = [recording(RECORDING_ID)];
  const bytesAsked: string[] = [];

  beforeAll(async () => {
    ({ workDir } = await specWorkDir('export'));

    // vault-media's and court-journal's byte listeners, standing in (one server, both paths).
    bytes = createServer((req, res) => {
      bytesAsked.push(req.url ?? '');
      const binding = req.headers['x-lv-media-binding'] ?? req.headers['x-lv-court-binding'];
      if (binding !== 'binding-of-dad') {
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'FORBIDDEN', message: 'no' }));
        return;
      }
      if (req.url?.startsWith(`/media/${RECORDING_ID}?`)) {
        res.writeHead(200, { 'content-type': 'video/webm', 'content-length': String(video.length) });
        res.end(video);
        return;
      }
      if (req.url?.startsWith(`/media/${BROKEN_ID}?`)) {
        // Half the bytes, then the connection drops (storage failed mid-read).
        res.writeHead(200, { 'content-type': 'video/webm', 'content-length': String(video.length) });
        res.write(video.subarray(0, 100_000), () => res.destroy());
        return;
      }
      if (req.url?.startsWith(`/files/${DOCUMENT_ID}?`)) {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) }).end(pdf);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND', message: 'gone' }));
    });
    await new Promise<void>((r) => bytes.listen(0, '127.0.0.1', r));
    const bytesUrl = `http://127.0.0.1:${(bytes.address() as AddressInfo).port}`;

    const grant = (url: string) => ({ url, expiresAt: 9999999999000, binding: { value: 'binding-of-dad', maxAgeSeconds: 300 } });
    services = await NestNatsResponder.start(NATS_URL, STACK_ID);
    services
      .handle(IdentityRpc.getMe, () => profile)
      .handle(IdentityRpc.notificationPreferences, () => ({ ...DEFAULT_NOTIFICATION_PREFERENCES, updated_at: null }))
      .handle(IdentityRpc.adminOverview, ({ payload }): AdminOverview => ({ counts: { total: 1, pro: 1, admins: 0, free: 0 }, users: payload.q === 'nobody' ? [] : [profile], truncated: false, signupsByDay: [] }))
      .handle(IdentityRpc.changePassword, () => ({ otherSessionsEnded: 1 }))
      .handle(IdentityRpc.accountDeletionStatus, () => ({ scheduled: false, dueAt: null, message: '' }))
      .handle(IdentityRpc.requestAccountDeletion, () => ({ scheduled: true, dueAt: '2026-12-14T10:00:00.000Z', message: 'scheduled' }))
      .handle(IdentityRpc.cancelAccountDeletion, () => ({ scheduled: false, dueAt: null, message: 'kept' }))
      .handle(IdentityRpc.keepAccountByLink, () => ({ scheduled: false, dueAt: null, message: 'kept' }))
      .handle(LettersRpc.list, () => ({
        letters: [{ id: LETTER_ID, title: 'Dear Sam', preview: 'I love you', word_count: 3, created_at: '2026-11-19T10:00:00.000Z', updated_at: '2026-11-19T10:00:00.000Z', version: 1 }],
        nextCursor: null,
      }))
      .handle(LettersRpc.get, () => ({ id: LETTER_ID, title: 'Dear Sam', preview: 'I love you', word_count: 3, created_at: '2026-11-19T10:00:00.000Z', updated_at: '2026-11-19T10:00:00.000Z', version: 1, content: 'I love you, always.' }))
      .handle(LettersRpc.reflectionGet, () => ({ text: 'Today I thought of you.', updated_at: '2026-11-22T10:00:00.000Z' }))
      .handle(LettersRpc.portraitGet, () => ({ about_me: '', personality_traits: [], favorite_music: '', favorite_films: '', core_values: [], updated_at: null }))
      .handle(AccessKeysRpc.listContacts, () => [])
      .handle(AccessKeysRpc.deliverySettings, () => ({ ...DEFAULT_DELIVERY_SETTINGS, updated_at: null }))
      .handle(AccessKeysRpc.listDeliveryReviews, () => [])
      .handle(AccessKeysRpc.approveDeliveryReview, () => ({ status: 'waiting', release_id: 'r1', due_at: '2026-12-01T10:00:00.000Z', triggered_at: '2026-11-30T10:00:00.000Z' }))
      .handle(AccessKeysRpc.rejectDeliveryReview, () => ({ status: 'rejected', release_id: 'r1', due_at: null, triggered_at: '2026-11-30T10:00:00.000Z' }))
      .handle(CourtJournalRpc.list, () => [courtDocument])
      .handle(CourtJournalRpc.fileLink, ({ payload }) => grant(`/api/court/files/${payload.id}?d=${payload.disposition}&u=${USER_ID}&exp=9999999999&sig=abc`))
      .handle(VaultMediaRpc.exportList, () => ({ items: mediaItems, nextCursor: null }))
      .handle(VaultMediaRpc.playbackLink, ({ payload }) => grant(`/api/media/play/${payload.id}?u=${USER_ID}&exp=9999999999&sig=abc`))
      .handle(VaultMediaRpc.adminStorageByDay, () => ({ days: [] }));
    await services.listen(['rpc.identity.>', 'rpc.letters.>', 'rpc.access-keys.>', 'rpc.court-journal.>', 'rpc.vault-media.>']);

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '2000',
      WEB_DIST_DIR: join(workDir, 'web'), COURT_JOURNAL_URL: bytesUrl, VAULT_MEDIA_URL: bytesUrl, HOST: '127.0.0.1', PORT: '0',
    }, { statsProviders: [] });
    base = await listenLocally(app);
  });

  afterAll(async () => {
    await app?.close();
    await services?.close();
    await new Promise((r) => bytes?.close(r));
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    mediaItems = [recording(RECORDING_ID)];
  });

  const send = (path: string, options: Parameters<typeof sendHttp>[1] = {}) => sendHttp(`${base}${path}`, options);
  const code = (answer: HttpAnswer) => answer.json<{ code: string }>().code;
  const jsonBody = (token: string, value: unknown) => ({ headers: { ...bearer(token), 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify(value))] });

  it('exports the whole vault: every original byte for byte, a manifest whose hashes match, an offline index', async () => {
    const answer = await send('/api/me/export', { headers: bearer(ownerToken) });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="vault_export-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = unzipSync(new Uint8Array(answer.body));
    const names = Object.keys(zip);
    expect(names).toEqual(expect.arrayContaining(['profile.json', 'notification-preferences.json', 'reflection.txt', 'manifest.json', 'index.html',
      'if-im-not-there/emergency-contacts.json', 'if-im-not-there/delivery-settings.json']));
    // The portrait was never saved: no empty file for it.
    expect(names).not.toContain('who-i-am/portrait.json');
    const letterPath = names.find((n) => n.startsWith('letters/'))!;
    expect(Buffer.from(zip[letterPath]!).toString('utf8')).toContain('I love you, always.');
    const videoPath = names.find((n) => n.startsWith('recordings/'))!;
    expect(videoPath).toBe('recordings/2026-11-20-for-your-18th-birthday-14141414.webm');
    expect(sha(zip[videoPath]!)).toBe(sha(video));
    const pdfPath = names.find((n) => n.startsWith('court-documents/'))!;
    expect(Buffer.compare(Buffer.from(zip[pdfPath]!), pdf)).toBe(0);

    const manifest = JSON.parse(Buffer.from(zip['manifest.json']!).toString('utf8')) as { owner: { email: string }; items: { path: string; sha256: string; size: number; recorded_sha256: string | null; type: string }[]; mismatches: string[] };
    expect(manifest.owner.email).toBe('dad@example.com');
    expect(manifest.mismatches).toEqual([]);
    for (const item of manifest.items) {
      expect({ path: item.path, sha256: item.sha256, size: item.size }).toEqual({ path: item.path, sha256: sha(zip[item.path]!), size: zip[item.path]!.length });
    }
    expect(manifest.items.find((i) => i.type === 'recording')!.recorded_sha256).toBe(sha(video));
    expect(manifest.items.find((i) => i.type === 'court-document')!.recorded_sha256).toBe(sha(pdf));
    const index = Buffer.from(zip['index.html']!).toString('utf8');
    expect(index).toContain(`href="${videoPath}"`);
    expect(index).not.toMatch(/<script|https?:\/\//);

    // Every service was asked with the owner's own token, and nothing else.
    for (const subject of [IdentityRpc.getMe, LettersRpc.get, VaultMediaRpc.exportList, VaultMediaRpc.playbackLink, CourtJournalRpc.list, CourtJournalRpc.fileLink, AccessKeysRpc.listContacts]) {
      expect(services.callsTo(subject).at(-1)!.auth.accessToken).toBe(ownerToken);
    }
    expect(services.callsTo(CourtJournalRpc.fileLink).at(-1)!.payload).toEqual({ id: DOCUMENT_ID, disposition: 'attachment' });
  });

  it('cuts the download when an original cannot be read to its end, never a ZIP with a short file', async () => {
    mediaItems = [recording(RECORDING_ID), recording(BROKEN_ID, { blob_hash: 'b'.repeat(64), created_at: '2026-11-21T10:00:00.000Z' })];
    const started = Date.now();
    await expect(send('/api/me/export', { headers: bearer(ownerToken) })).rejects.toThrow();
    // At once, not after an idle timeout: the browser shows a failed download while the owner waits.
    expect(Date.now() - started).toBeLessThan(10_000);
    // The gateway is still up for the next one.
    mediaItems = [recording(RECORDING_ID)];
    expect((await send('/api/me/export', { headers: bearer(ownerToken) })).status).toBe(200);
  });

  it('fails with the service’s error, before any byte, when a part of the vault cannot be listed', async () => {
    services.handle(LettersRpc.list, () => { throw new DomainError('SERVICE_UNAVAILABLE'); });
    try {
      const answer = await send('/api/me/export', { headers: bearer(ownerToken) });
      expect(answer.status).toBe(503);
      expect(code(answer)).toBe('SERVICE_UNAVAILABLE');
    } finally {
      services.handle(LettersRpc.list, () => ({ letters: [], nextCursor: null }));
    }
  });

  it('lets a browser download it through a short-lived cookie bound to the export path, used once', async () => {
    expect((await send('/api/me/export/session', { method: 'POST' })).status).toBe(401);
    const opened = await send('/api/me/export/session', { method: 'POST', headers: bearer(ownerToken) });
    expect(opened.status).toBe(204);
    const cookie = ([] as string[]).concat(opened.headers['set-cookie'] ?? []).find((c) => c.startsWith('lv_export='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/me\/export/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeLessThanOrEqual(120);
    const download = await send('/api/me/export', { headers: { cookie: cookie.split(';')[0]! } });
    expect(download.status).toBe(200);
    expect(([] as string[]).concat(download.headers['set-cookie'] ?? []).some((c) => /^lv_export=;/.test(c))).toBe(true);
  });

  it('refuses the export to anonymous callers, a bad token, and the ops operator', async () => {
    const before = services.callsTo(IdentityRpc.getMe).length;
    expect((await send('/api/me/export')).status).toBe(401);
    expect((await send('/api/me/export', { headers: { cookie: 'lv_export=not-a-token' } })).status).toBe(401);
    const operator = signOperatorToken(signer, 'spec-operator');
    const answer = await send('/api/me/export', { headers: bearer(operator) });
    expect(answer.status).toBe(403);
    expect(services.callsTo(IdentityRpc.getMe).length).toBe(before);
  });

  it('admin routes: 401 anonymous, 403 for a member (no service asked), the search passed on for an admin', async () => {
    const before = services.callsTo(IdentityRpc.adminOverview).length;
    for (const path of ['/api/admin/users', '/api/admin/storage', '/api/admin/backups']) {
      expect(code(await send(path))).toBe('UNAUTHENTICATED');
      const member = await send(path, { headers: bearer(ownerToken) });
      expect({ path, status: member.status, code: code(member) }).toEqual({ path, status: 403, code: 'FORBIDDEN' });
    }
    expect(services.callsTo(IdentityRpc.adminOverview).length).toBe(before);
    const found = await send('/api/admin/users?q=%20John%20', { headers: bearer(adminToken) });
    expect(found.status).toBe(200);
    expect(services.callsTo(IdentityRpc.adminOverview).at(-1)!.payload).toEqual({ q: 'John' });
    expect(services.callsTo(IdentityRpc.adminOverview).at(-1)!.auth.accessToken).toBe(adminToken);
    expect(code(await send(`/api/admin/users?q=${'x'.repeat(300)}`, { headers: bearer(adminToken) }))).toBe('VALIDATION_FAILED');
    expect((await send('/api/admin/storage', { headers: bearer(adminToken) })).status).toBe(200);
  });

  it('delivery review routes: 401 anonymous, 403 for a member (no service asked), the owner and the reason passed on for an admin', async () => {
    const reviewsPath = `/api/admin/delivery-reviews/${USER_ID}`;
    const asked = () => [AccessKeysRpc.listDeliveryReviews, AccessKeysRpc.openDeliveryReview, AccessKeysRpc.approveDeliveryReview, AccessKeysRpc.rejectDeliveryReview]
      .reduce((n, declaration) => n + services.callsTo(declaration).length, 0);
    const before = asked();
    const routes = [
      { path: '/api/admin/delivery-reviews', method: 'GET' }, { path: reviewsPath, method: 'GET' },
      { path: `${reviewsPath}/approve`, method: 'POST', body: {} }, { path: `${reviewsPath}/reject`, method: 'POST', body: { reason: 'Not the owner.' } },
    ];
    for (const route of routes) {
      const anonymous = await send(route.path, { method: route.method, ...(route.body ? { headers: { 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify(route.body))] } : {}) });
      expect({ path: route.path, code: code(anonymous) }).toEqual({ path: route.path, code: 'UNAUTHENTICATED' });
      const member = await send(route.path, route.body ? { method: route.method, ...jsonBody(ownerToken, route.body) } : { method: route.method, headers: bearer(ownerToken) });
      expect({ path: route.path, status: member.status, code: code(member) }).toEqual({ path: route.path, status: 403, code: 'FORBIDDEN' });
    }
    expect(asked()).toBe(before);
    expect((await send('/api/admin/delivery-reviews', { headers: bearer(adminToken) })).json()).toEqual([]);
    expect((await send(`${reviewsPath}/approve`, { method: 'POST', ...jsonBody(adminToken, {}) })).json()).toMatchObject({ status: 'waiting' });
    expect(services.callsTo(AccessKeysRpc.approveDeliveryReview).at(-1)!.payload).toEqual({ owner_id: USER_ID });
    expect((await send(`${reviewsPath}/reject`, { method: 'POST', ...jsonBody(adminToken, { reason: '  Not the owner. ' }) })).json()).toMatchObject({ status: 'rejected' });
    const rejected = services.callsTo(AccessKeysRpc.rejectDeliveryReview).at(-1)!;
    expect(rejected.payload).toEqual({ owner_id: USER_ID, reason: 'Not the owner.' });
    expect(rejected.auth.accessToken).toBe(adminToken);
    // No reason: refused at the edge; not an owner id: nothing to review.
    expect(code(await send(`${reviewsPath}/reject`, { method: 'POST', ...jsonBody(adminToken, { reason: ' ' }) }))).toBe('VALIDATION_FAILED');
    expect(code(await send('/api/admin/delivery-reviews/not-an-id/approve', { method: 'POST', ...jsonBody(adminToken, {}) }))).toBe('NOT_FOUND');
  });

  it('account deletion: 401 anonymous (no service asked), the caller’s own token and only the typed word passed on; the keep link is public and carries only its token', async () => {
    const asked = () => services.callsTo(IdentityRpc.requestAccountDeletion).length + services.callsTo(IdentityRpc.accountDeletionStatus).length + services.callsTo(IdentityRpc.cancelAccountDeletion).length;
    const before = asked();
    expect(code(await send('/api/me/account-deletion'))).toBe('UNAUTHENTICATED');
    expect(code(await send('/api/me/account-deletion', { method: 'DELETE' }))).toBe('UNAUTHENTICATED');
    expect(code(await send('/api/me/account-deletion', { method: 'POST', headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{"confirmation":"DELETE"}')] }))).toBe('UNAUTHENTICATED');
    expect(asked()).toBe(before);

    // Whose account is the token's: a user id in the body is dropped at the edge, never passed on.
    const scheduled = await send('/api/me/account-deletion', { method: 'POST', ...jsonBody(ownerToken, { confirmation: 'DELETE', userId: 'someone-else' }) });
    expect(scheduled.json()).toEqual({ scheduled: true, dueAt: '2026-12-14T10:00:00.000Z', message: 'scheduled' });
    const call = services.callsTo(IdentityRpc.requestAccountDeletion).at(-1)!;
    expect(call.payload).toEqual({ confirmation: 'DELETE' });
    expect(call.auth.accessToken).toBe(ownerToken);
    expect(code(await send('/api/me/account-deletion', { method: 'POST', ...jsonBody(ownerToken, { confirmation: 42 }) }))).toBe('VALIDATION_FAILED');
    expect((await send('/api/me/account-deletion', { headers: bearer(ownerToken) })).status).toBe(200);
    expect((await send('/api/me/account-deletion', { method: 'DELETE', headers: bearer(ownerToken) })).json()).toMatchObject({ message: 'kept' });
    expect(services.callsTo(IdentityRpc.cancelAccountDeletion).at(-1)!.auth.accessToken).toBe(ownerToken);

    const token = `${randomUUID()}.${'A'.repeat(43)}`;
    const kept = await send('/api/auth/keep-account', { method: 'POST', headers: { 'content-type': 'application/json' }, chunks: [Buffer.from(JSON.stringify({ token }))] });
    expect(kept.status).toBe(200);
    expect(services.callsTo(IdentityRpc.keepAccountByLink).at(-1)!.payload).toEqual({ token });
    expect(services.callsTo(IdentityRpc.keepAccountByLink).at(-1)!.auth.accessToken).toBeUndefined();
    expect(code(await send('/api/auth/keep-account', { method: 'POST', headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{}')] }))).toBe('VALIDATION_FAILED');
  });

  it('checks password and notification bodies at the edge with the sign-up rules', async () => {
    const short = await send('/api/me/password', { method: 'PUT', ...jsonBody(ownerToken, { currentPassword: 'secret-one', newPassword: '123' }) });
    expect(short.status).toBe(400);
    expect(short.json<{ fields: Record<string, string> }>().fields).toEqual({ newPassword: 'Password must be at least 8 characters' });
    const missing = await send('/api/me/password', { method: 'PUT', ...jsonBody(ownerToken, { newPassword: 'better-secret' }) });
    expect(missing.json<{ fields: Record<string, string> }>().fields).toHaveProperty('currentPassword');
    const ok = await send('/api/me/password', { method: 'PUT', ...jsonBody(ownerToken, { currentPassword: 'secret-one', newPassword: 'better-secret', userId: 'someone-else' }) });
    expect(ok.json()).toEqual({ otherSessionsEnded: 1 });
    expect(services.callsTo(IdentityRpc.changePassword).at(-1)!.payload).toEqual({ currentPassword: 'secret-one', newPassword: 'better-secret' });
    const prefs = await send('/api/me/notifications', { method: 'PUT', ...jsonBody(ownerToken, { emailNotifications: 'yes' }) });
    expect(prefs.status).toBe(400);
    expect((await send('/api/me/notifications', { method: 'PUT', headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{}')] })).status).toBe(401);
  });
});
