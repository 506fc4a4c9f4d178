// The gateway booted in-process (createGatewayApp) against the machine's real NATS and Redis and a
// temporary SPA build; identity is a stand-in speaking Nest's NATS wire format.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressDirectory } from '../../../tools/build/compress.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ErrorCodes, IdentityRpc, REFRESH_COOKIE, type AccessTokenClaims, type IssuedSession, type UserProfile } from '@lv/contracts';
import { AccessTokenSigner, RevokedSessions, type AccessTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { waitFor } from '@lv/testing';
import { bridgeEsmOnlyDependencies } from './support/esm-bridge.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

// One stack per spec file: its subjects never meet another stack's on the shared NATS.
const STACK_ID = `gw${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RPC_TIMEOUT_MS = 800;

function keyPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
}
const keys = keyPair();
const signer = new AccessTokenSigner(keys.privateKey);
const strangerSigner = new AccessTokenSigner(keyPair().privateKey);

const USER_ID = '11111111-1111-4111-8111-111111111111';
const ADMIN_ID = '22222222-2222-4222-8222-222222222222';

function claims(overrides: Partial<AccessTokenClaims> = {}): AccessTokenClaims {
  return { sub: USER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'none', admin: false, kind: 'user', ...overrides };
}
const tokenFor = (overrides: Partial<AccessTokenClaims> = {}, ttl = 600) => signer.sign(claims(overrides), ttl).token;

function profileOf(id: string, email: string, admin = false): UserProfile {
  return { id, email, full_name: null, avatar_url: null, created_at: '2026-11-01T10:00:00.000Z', subscription_tier: 'none', ai_admin: admin, emailVerified: true };
}

function session(email: string, refreshToken: string): IssuedSession {
  const { token, expiresAt } = signer.sign(claims({ email }), 900);
  return { accessToken: token, accessTokenExpiresAt: expiresAt, refreshToken, refreshTokenExpiresAt: Date.now() + 30 * 24 * 3600 * 1000, sessionId: randomUUID(), profile: profileOf(USER_ID, email) };
}

function subOf(token: string | undefined): string {
  const payload = JSON.parse(Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string };
  return payload.sub;
}

function cookieHeader(response: LightMyRequestResponse, name: string): string | undefined {
  const raw = response.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}

describe('gateway (in-process, real NATS and Redis)', () => {
  let app: NestFastifyApplication;
  let http: FastifyInstance;
  let identity: NestNatsResponder;
  let redis: Redis;
  let workDir: string;
  const logLines: Record<string, unknown>[] = [];

  const call = (options: InjectOptions) => http.inject(options);
  const THEME_INIT = "document.documentElement.classList.add('dark');\n";
  const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `export const line${i} = 'a line of the vault app, ${i}';`).join('\n');
  const json = <T = any>(response: LightMyRequestResponse) => response.json<T>();

  beforeAll(async () => {
    await bridgeEsmOnlyDependencies();
    const { createGatewayApp } = await import('../src/app.factory.js');
    const { gatewayConfigSchema } = await import('../src/config.js');
    const { mountAdminOnly } = await import('../src/admin/admin-access.js');

    workDir = await mkdtemp(join(tmpdir(), 'lv-gateway-'));
    const web = join(workDir, 'web');
    await mkdir(join(web, 'assets'), { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Legacy Vault</title><div id="root"></div>');
    // The prerendered pages carry this file's text inline; the CSP allows it by its hash.
    await writeFile(join(web, 'theme-init.js'), THEME_INIT);
    // Public pages prerendered at build time, as tools/build/prerender.mjs leaves them.
    await mkdir(join(web, 'prerendered'), { recursive: true });
    await writeFile(join(web, 'prerendered', 'index.html'), '<!doctype html><title>Legacy Vault</title><div id="root"><h1>Landing</h1></div>');
    await writeFile(join(web, 'prerendered', 'auth.html'), '<!doctype html><title>Legacy Vault</title><div id="root"><h1>Sign in</h1></div>');
    await writeFile(join(web, 'assets', 'app-1a2b3c.js'), 'console.log("vault")');
    await writeFile(join(web, 'assets', 'logo-1a2b3c.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // A built script large enough to be precompressed, as tools/build/compress.mjs leaves it.
    await writeFile(join(web, 'assets', 'big-4d5e6f.js'), BIG_SCRIPT);
    compressDirectory(web);
    redis = new Redis(REDIS_URL);

    identity = await NestNatsResponder.start(NATS_URL, STACK_ID);
    identity
      .handle(IdentityRpc.signIn, ({ payload }) => {
        if (payload.email === 'limited@example.com') throw new DomainError('RATE_LIMITED', undefined, { retryAfter: 120 });
        if (payload.password !== 'correct-horse') throw new DomainError('INVALID_CREDENTIALS');
        return session(payload.email, 'rt-1');
      })
      .handle(IdentityRpc.signUp, ({ payload }) => {
        if (payload.email === 'taken@example.com') throw new DomainError('EMAIL_TAKEN');
        return session(payload.email, 'rt-new');
      })
      .handle(IdentityRpc.refresh, ({ payload }) => {
        if (payload.refreshToken !== 'rt-1') throw new DomainError('SESSION_EXPIRED');
        return session('parent@example.com', 'rt-2');
      })
      .handle(IdentityRpc.signOut, () => ({ revoked: true }))
      .handle(IdentityRpc.getMe, ({ auth }) => {
        const sub = subOf(auth.accessToken);
        return sub === ADMIN_ID ? profileOf(ADMIN_ID, 'admin@example.com', true) : profileOf(sub, 'parent@example.com');
      })
      .handle(IdentityRpc.updateMe, ({ auth, payload }) => ({ ...profileOf(subOf(auth.accessToken), 'parent@example.com'), ...payload }))
      .handle(IdentityRpc.health, () => ({ service: 'identity', status: 'up', checks: { postgres: { status: 'up' } } }))
      .handle('rpc.vault-media.stats', () => ({ videosSaved: 2, activeDays: ['2026-11-01', '2026-11-02'] }))
      .hang('rpc.letters.stats');
    await identity.listen(['rpc.identity.>', 'rpc.vault-media.>', 'rpc.letters.>']);

    const config = gatewayConfigSchema.parse({
      NATS_URL,
      REDIS_URL,
      JWT_PUBLIC_KEY: keys.publicKey,
      RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      DEVICE_COOKIE_SECRET: 'spec-device-cookie-secret-0123456789abcdef',
      WEB_DIST_DIR: web,
      HEALTH_SERVICES: 'identity',
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await createGatewayApp(config, {
      logger: pino({ name: 'gateway', level: 'debug' }, sink),
      statsProviders: ['vault-media', 'letters'],
      // Stands in for the queue dashboard (bull-board cannot load under Jest) behind the same gate.
      extend: async (fastify, { connections }) => {
        await mountAdminOnly(fastify, connections.verifier, async (scope: FastifyInstance) => {
          scope.get('/', async () => ({ dashboard: true }));
        });
        // A route that fails unexpectedly, to see what a client gets from an unplanned error.
        fastify.get('/api/spec/boom', async () => {
          throw new Error('db password=hunter2 rejected');
        });
      },
    });
    http = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  });

  afterAll(async () => {
    await app?.close();
    await identity?.close();
    redis?.disconnect();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  describe('sign-in and the session cookie', () => {
    it('sets an httpOnly, SameSite=Strict refresh cookie and returns no refresh token in the body', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/sign-in', payload: { email: 'parent@example.com', password: 'correct-horse' } });
      expect(response.statusCode).toBe(200);
      const cookie = cookieHeader(response, REFRESH_COOKIE)!;
      expect(cookie).toMatch(/^lv_refresh=rt-1;/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\/api\/auth/);
      expect(cookie).toMatch(/Max-Age=259\d{4}/);
      expect(cookie).not.toMatch(/Secure/);
      const body = json(response);
      expect(Object.keys(body).sort()).toEqual(['accessToken', 'accessTokenExpiresAt', 'profile']);
      expect(response.body).not.toContain('rt-1');
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('normalises the email and passes the client address and request id to identity', async () => {
      await call({ method: 'POST', url: '/api/auth/sign-in', headers: { 'x-request-id': 'spec-sign-in-1', 'user-agent': 'spec-agent' }, payload: { email: '  Parent@Example.COM ', password: 'correct-horse' } });
      const request = identity.callsTo(IdentityRpc.signIn).at(-1)!;
      expect(request.payload).toEqual({ email: 'parent@example.com', password: 'correct-horse' });
      expect(request.meta).toEqual({ requestId: 'spec-sign-in-1', correlationId: 'spec-sign-in-1', ip: '127.0.0.1', userAgent: 'spec-agent', origin: 'http://localhost' });
    });

    it('answers sign-up with 201 and the cookie', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/sign-up', payload: { email: 'new@example.com', password: 'secret-one' } });
      expect(response.statusCode).toBe(201);
      expect(cookieHeader(response, REFRESH_COOKIE)).toMatch(/^lv_refresh=rt-new;/);
      expect(json(response).profile.email).toBe('new@example.com');
    });

    it("passes identity's errors through with their status and text", async () => {
      const wrong = await call({ method: 'POST', url: '/api/auth/sign-in', payload: { email: 'parent@example.com', password: 'wrong-password' } });
      expect(wrong.statusCode).toBe(401);
      expect(json(wrong)).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials' });
      const taken = await call({ method: 'POST', url: '/api/auth/sign-up', payload: { email: 'taken@example.com', password: 'secret-one' } });
      expect(taken.statusCode).toBe(409);
      expect(json(taken).code).toBe('EMAIL_TAKEN');
    });

    it('answers RATE_LIMITED with 429 and Retry-After', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/sign-in', payload: { email: 'limited@example.com', password: 'whatever1' } });
      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBe('120');
      expect(json(response)).toEqual({ code: 'RATE_LIMITED', message: ErrorCodes.RATE_LIMITED.message, retryAfter: 120 });
    });

    it('validates the body at the edge with the spec messages (400), without calling identity', async () => {
      const before = identity.received.length;
      const empty = await call({ method: 'POST', url: '/api/auth/sign-in', payload: {} });
      expect(empty.statusCode).toBe(400);
      expect(json(empty)).toEqual({ code: 'VALIDATION_FAILED', message: ErrorCodes.VALIDATION_FAILED.message, fields: { email: 'Email is required', password: 'Password is required' } });
      const bad = await call({ method: 'POST', url: '/api/auth/sign-up', payload: { email: 'not-an-email', password: '12345' } });
      expect(json(bad).fields).toEqual({ email: 'Please enter a valid email', password: 'Password must be at least 8 characters' });
      const noBody = await call({ method: 'POST', url: '/api/auth/sign-in' });
      expect(noBody.statusCode).toBe(400);
      expect(identity.received.length).toBe(before);
    });

    it('answers malformed JSON with an ErrorBody 400', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ code: 'VALIDATION_FAILED', message: ErrorCodes.VALIDATION_FAILED.message });
    });
  });

  describe('cross-site requests and non-JSON bodies (login CSRF)', () => {
    const form = 'email=parent%40example.com&password=correct-horse';

    it("refuses the review's cross-site form sign-in with 403, without calling identity or setting a cookie", async () => {
      const before = identity.received.length;
      const response = await call({
        method: 'POST', url: '/api/auth/sign-in', payload: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({ code: 'CROSS_SITE_REFUSED', message: ErrorCodes.CROSS_SITE_REFUSED.message });
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(identity.received.length).toBe(before);
    });

    it('refuses bodies that are not JSON under /api with 415, even from a client that sends no Origin', async () => {
      const before = identity.received.length;
      for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'text/plain;charset=UTF-8']) {
        const response = await call({ method: 'POST', url: '/api/auth/sign-in', headers: { 'content-type': type }, payload: form });
        expect(response.statusCode).toBe(415);
        expect(json(response)).toEqual({ code: 'JSON_REQUIRED', message: ErrorCodes.JSON_REQUIRED.message });
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      const patch = await call({ method: 'PATCH', url: '/api/me', headers: { authorization: `Bearer ${tokenFor()}`, 'content-type': 'text/plain' }, payload: '{"full_name":"x"}' });
      expect(patch.statusCode).toBe(415);
      expect(identity.received.length).toBe(before);
    });

    it("refuses JSON from another origin or marked cross-site, and takes the app's own", async () => {
      const payload = { email: 'parent@example.com', password: 'correct-horse' };
      const foreign = await call({ method: 'POST', url: '/api/auth/sign-in', headers: { origin: 'https://evil.example' }, payload });
      expect(foreign.statusCode).toBe(403);
      expect(json(foreign).code).toBe('CROSS_SITE_REFUSED');
      const marked = await call({ method: 'POST', url: '/api/auth/sign-in', headers: { 'sec-fetch-site': 'cross-site' }, payload });
      expect(marked.statusCode).toBe(403);
      const opaque = await call({ method: 'DELETE', url: '/api/letters/x', headers: { origin: 'null', authorization: `Bearer ${tokenFor()}` } });
      expect(opaque.statusCode).toBe(403);
      // What the SPA sends: its own origin (the Host it reached), same-origin, JSON.
      const own = await call({ method: 'POST', url: '/api/auth/sign-in', headers: { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }, payload });
      expect(own.statusCode).toBe(200);
      expect(cookieHeader(own, REFRESH_COOKIE)).toBeDefined();
      // Reads change nothing: a cross-site GET is answered as usual.
      const read = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tokenFor()}`, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
      expect(read.statusCode).toBe(200);
    });
  });

  describe('known devices (lv_device)', () => {
    const credentials = { email: 'parent@example.com', password: 'correct-horse' };
    const deviceCookie = (response: LightMyRequestResponse) => /^lv_device=([^;]+);/.exec(cookieHeader(response, 'lv_device') ?? '')?.[1];

    it('marks a browser that signed in with a signed cookie: HttpOnly, SameSite=Strict, sent to /api/auth only', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/sign-in', payload: credentials });
      expect(response.statusCode).toBe(200);
      const cookie = cookieHeader(response, 'lv_device')!;
      expect(cookie).toMatch(/^lv_device=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\/api\/auth/);
      expect(cookie).not.toMatch(/Secure/);
      expect(identity.callsTo(IdentityRpc.signIn).at(-1)!.meta.device).toBeUndefined();
      const signUp = await call({ method: 'POST', url: '/api/auth/sign-up', payload: { email: 'fresh@example.com', password: 'secret-one' } });
      expect(deviceCookie(signUp)).toBeDefined();
    });

    it('tells identity the device only for the email the cookie was issued for, and never for a forged cookie', async () => {
      const value = deviceCookie(await call({ method: 'POST', url: '/api/auth/sign-in', payload: credentials }))!;
      const deviceId = value.split('.')[0];
      const again = await call({ method: 'POST', url: '/api/auth/sign-in', payload: credentials, cookies: { lv_device: value } });
      expect(identity.callsTo(IdentityRpc.signIn).at(-1)!.meta.device).toBe(deviceId);
      expect(deviceCookie(again)!.split('.')[0]).toBe(deviceId);
      await call({ method: 'POST', url: '/api/auth/sign-in', payload: { ...credentials, email: 'someone-else@example.com' }, cookies: { lv_device: value } });
      expect(identity.callsTo(IdentityRpc.signIn).at(-1)!.meta.device).toBeUndefined();
      const forged = `${deviceId}.${'A'.repeat(43)}`;
      await call({ method: 'POST', url: '/api/auth/sign-in', payload: credentials, cookies: { lv_device: forged } });
      expect(identity.callsTo(IdentityRpc.signIn).at(-1)!.meta.device).toBeUndefined();
    });

    it('refuses a sign-up password made only of whitespace (400, the field named), without calling identity', async () => {
      const before = identity.callsTo(IdentityRpc.signUp).length;
      const response = await call({ method: 'POST', url: '/api/auth/sign-up', payload: { email: 'blank@example.com', password: '          ' } });
      expect(response.statusCode).toBe(400);
      expect(json(response).fields).toEqual({ password: 'Password cannot be only spaces' });
      expect(identity.callsTo(IdentityRpc.signUp).length).toBe(before);
    });
  });

  describe('refresh and sign-out', () => {
    it('refuses a refresh without the cookie (401)', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/refresh' });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    });

    it('rotates the cookie on refresh', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: 'rt-1' } });
      expect(response.statusCode).toBe(200);
      expect(cookieHeader(response, REFRESH_COOKIE)).toMatch(/^lv_refresh=rt-2;.*HttpOnly/);
      expect(response.body).not.toContain('rt-2');
      expect(identity.callsTo(IdentityRpc.refresh).at(-1)!.payload).toEqual({ refreshToken: 'rt-1' });
    });

    it('drops the cookie when identity refuses the refresh token', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/refresh', cookies: { [REFRESH_COOKIE]: 'rt-stale' } });
      expect(response.statusCode).toBe(401);
      expect(json(response).code).toBe('SESSION_EXPIRED');
      expect(cookieHeader(response, REFRESH_COOKIE)).toMatch(/^lv_refresh=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    });

    it('answers the page\'s session check with no session as 200 { session: null }, not a 401 the browser logs', async () => {
      const calls = identity.callsTo(IdentityRpc.refresh).length;
      const none = await call({ method: 'POST', url: '/api/auth/session' });
      expect(none.statusCode).toBe(200);
      expect(json(none)).toEqual({ session: null });
      expect(identity.callsTo(IdentityRpc.refresh).length).toBe(calls);
      // A refused cookie: the same answer, and the cookie goes as it does on refresh.
      const stale = await call({ method: 'POST', url: '/api/auth/session', cookies: { [REFRESH_COOKIE]: 'rt-stale' } });
      expect(stale.statusCode).toBe(200);
      expect(json(stale)).toEqual({ session: null });
      expect(cookieHeader(stale, REFRESH_COOKIE)).toMatch(/^lv_refresh=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    });

    it('answers the session check of a signed-in browser with its session, rotating the cookie', async () => {
      const response = await call({ method: 'POST', url: '/api/auth/session', cookies: { [REFRESH_COOKIE]: 'rt-1' } });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toMatchObject({ session: { accessToken: expect.any(String), profile: { email: 'parent@example.com' } } });
      expect(cookieHeader(response, REFRESH_COOKIE)).toMatch(/^lv_refresh=rt-2;.*HttpOnly/);
      expect(response.body).not.toContain('rt-2');
    });

    it('signs out: revokes through identity with the cookie and the valid bearer, clears the cookie, 204', async () => {
      const token = tokenFor();
      const response = await call({ method: 'POST', url: '/api/auth/sign-out', cookies: { [REFRESH_COOKIE]: 'rt-1' }, headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(204);
      expect(cookieHeader(response, REFRESH_COOKIE)).toMatch(/^lv_refresh=;.*Path=\/api\/auth/);
      const request = identity.callsTo(IdentityRpc.signOut).at(-1)!;
      expect(request.payload).toEqual({ refreshToken: 'rt-1' });
      expect(request.auth.accessToken).toBe(token);
    });

    it('signs out without a session as a no-op 204', async () => {
      const before = identity.callsTo(IdentityRpc.signOut).length;
      const response = await call({ method: 'POST', url: '/api/auth/sign-out' });
      expect(response.statusCode).toBe(204);
      expect(identity.callsTo(IdentityRpc.signOut).length).toBe(before);
    });
  });

  describe('guarded routes', () => {
    it('refuses a request without a token (401)', async () => {
      const response = await call({ method: 'GET', url: '/api/me' });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    });

    it('refuses a malformed token and one signed by another key (401)', async () => {
      for (const token of ['garbage', strangerSigner.sign(claims(), 600).token]) {
        const response = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
        expect(response.statusCode).toBe(401);
        expect(json(response).code).toBe('UNAUTHENTICATED');
      }
    });

    it('refuses an expired token (401 SESSION_EXPIRED)', async () => {
      const response = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tokenFor({}, -30)}` } });
      expect(response.statusCode).toBe(401);
      expect(json(response)).toEqual({ code: 'SESSION_EXPIRED', message: ErrorCodes.SESSION_EXPIRED.message });
    });

    it('refuses a token whose session was revoked, at once', async () => {
      const sid = randomUUID();
      const token = tokenFor({ sid });
      const { ACCESS_TOKEN_VERIFIER } = await import('../src/infra/tokens.js');
      const verifier = app.get<AccessTokenVerifier>(ACCESS_TOKEN_VERIFIER);
      // Until its revocation subscription is live the gateway asks Redis every time; once it is, the
      // session's "not revoked" answer is reused, and the announcement must drop it.
      await waitFor(async () => (await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode === 200 && verifier.revocationsCached, 5000, 'the revocation cache');
      expect((await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
      await new RevokedSessions(redis, 60).revoke(sid);
      const response = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(401);
      expect(json(response).code).toBe('SESSION_EXPIRED');
    });

    it('refuses an operator token on the HTTP API (403)', async () => {
      const response = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tokenFor({ kind: 'operator', sub: 'operator:ops', admin: true })}` } });
      expect(response.statusCode).toBe(403);
    });

    it('forwards the access token with the RPC and returns the profile', async () => {
      const token = tokenFor();
      const response = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual(profileOf(USER_ID, 'parent@example.com'));
      expect(identity.callsTo(IdentityRpc.getMe).at(-1)!.auth.accessToken).toBe(token);
    });

    it('PATCH /api/me forwards only the editable fields and validates them', async () => {
      const token = tokenFor();
      const ok = await call({ method: 'PATCH', url: '/api/me', headers: { authorization: `Bearer ${token}` }, payload: { full_name: ' Sam Parent ', avatar_url: 'https://cdn.example.com/sam.png', id: 'someone-else', ai_admin: true } });
      expect(ok.statusCode).toBe(200);
      expect(identity.callsTo(IdentityRpc.updateMe).at(-1)!.payload).toEqual({ full_name: 'Sam Parent', avatar_url: 'https://cdn.example.com/sam.png' });
      expect(json(ok).id).toBe(USER_ID);
      const bad = await call({ method: 'PATCH', url: '/api/me', headers: { authorization: `Bearer ${token}` }, payload: { full_name: 'x'.repeat(121), avatar_url: 'http://insecure.example.com/a.png' } });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(json(bad).fields).sort()).toEqual(['avatar_url', 'full_name']);
    });
  });

  describe('vault stats', () => {
    it('adds up what the providers answer and counts a hung provider as 0, without failing', async () => {
      const started = Date.now();
      const response = await call({ method: 'GET', url: '/api/vault/stats', headers: { authorization: `Bearer ${tokenFor()}`, 'x-request-id': 'spec-stats-1' } });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ videosSaved: 2, lettersWritten: 0, thoughtsSaved: 0, daysActive: 2 });
      expect(Date.now() - started).toBeLessThan(RPC_TIMEOUT_MS + 1500);
      expect(logLines.some((l) => l.requestId === 'spec-stats-1' && l.service === 'letters' && l.level === 40)).toBe(true);
    });
  });

  describe('admin queue dashboard gate', () => {
    const adminToken = () => tokenFor({ sub: ADMIN_ID, email: 'admin@example.com', admin: true });

    it('is closed without a token (401) and to non-admins (403)', async () => {
      expect((await call({ method: 'GET', url: '/api/admin/queues' })).statusCode).toBe(401);
      const user = await call({ method: 'GET', url: '/api/admin/queues', headers: { authorization: `Bearer ${tokenFor()}` } });
      expect(user.statusCode).toBe(403);
      expect(json(user)).toEqual({ code: 'FORBIDDEN', message: 'Access denied' });
    });

    it('opens to an admin Bearer token', async () => {
      const response = await call({ method: 'GET', url: '/api/admin/queues', headers: { authorization: `Bearer ${adminToken()}` } });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ dashboard: true });
    });

    it('opens to the short-lived lv_admin cookie that POST /api/admin/queue-session sets for admins only', async () => {
      const denied = await call({ method: 'POST', url: '/api/admin/queue-session', headers: { authorization: `Bearer ${tokenFor()}` } });
      expect(denied.statusCode).toBe(403);
      const token = adminToken();
      const opened = await call({ method: 'POST', url: '/api/admin/queue-session', headers: { authorization: `Bearer ${token}` } });
      expect(opened.statusCode).toBe(204);
      const cookie = cookieHeader(opened, 'lv_admin')!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\/api\/admin\/queues/);
      expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeLessThanOrEqual(600);
      const page = await call({ method: 'GET', url: '/api/admin/queues', cookies: { lv_admin: token } });
      expect(page.statusCode).toBe(200);
      const forged = await call({ method: 'GET', url: '/api/admin/queues', cookies: { lv_admin: tokenFor() } });
      expect(forged.statusCode).toBe(403);
    });
  });

  describe('edge behaviour', () => {
    it('answers unknown /api paths with a JSON 404, never the SPA', async () => {
      for (const [method, url] of [['GET', '/api/nope'], ['POST', '/api/nope/deeper'], ['GET', '/api'], ['GET', '/api/me/']] as const) {
        const response = await call({ method, url });
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toMatch(/application\/json/);
        expect(json(response)).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
      }
    });

    it('serves index.html for deep links, no-cache', async () => {
      for (const url of ['/vault', '/auth?from=/letters', '/?utm_source=x', '/letters/some/deep/path', '/pricing', '/index']) {
        const response = await call({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/text\/html/);
        expect(response.body).toBe('<!doctype html><title>Legacy Vault</title><div id="root"></div>');
        expect(response.headers['cache-control']).toBe('no-cache');
      }
    });

    it('serves the page prerendered for exactly its address, no-cache', async () => {
      for (const [url, heading] of [['/', 'Landing'], ['/auth', 'Sign in']] as const) {
        const response = await call({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/text\/html/);
        expect(response.body).toContain(`<div id="root"><h1>${heading}</h1></div>`);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.headers['content-security-policy']).toContain("script-src 'self' 'sha256-lbCsH+/QVPmBVkrSqzNnx0qIifyuHLvHdNl7LpmBkgM=';");
      }
    });

    it('serves the precompressed brotli or gzip copy to a browser that accepts it, the file itself otherwise', async () => {
      const br = await call({ method: 'GET', url: '/assets/big-4d5e6f.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['vary']).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['cache-control']).toMatch(/immutable/);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);
      expect(br.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 4);
      const gz = await call({ method: 'GET', url: '/assets/big-4d5e6f.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);
      const plain = await call({ method: 'GET', url: '/assets/big-4d5e6f.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(BIG_SCRIPT);
    });

    it('serves hashed assets as immutable, and a missing one as 404', async () => {
      const asset = await call({ method: 'GET', url: '/assets/app-1a2b3c.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log("vault")');
      expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
      expect((await call({ method: 'GET', url: '/assets/gone-999.js' })).statusCode).toBe(404);
      expect((await call({ method: 'GET', url: '/..%2f..%2fetc/passwd' })).body).not.toContain('root:');
    });

    it('echoes a well-formed x-request-id, makes one otherwise, and logs every line of the request with it', async () => {
      const echoed = await call({ method: 'GET', url: '/api/me', headers: { 'x-request-id': 'spec-req-42' } });
      expect(echoed.headers['x-request-id']).toBe('spec-req-42');
      const replaced = await call({ method: 'GET', url: '/api/me', headers: { 'x-request-id': 'bad id with spaces' } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect((await call({ method: 'GET', url: '/vault' })).headers['x-request-id']).toBeTruthy();
      const lines = logLines.filter((l) => l.requestId === 'spec-req-42');
      expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    });

    it('answers an unexpected failure with 500, an errorId and no detail, and logs it under that id', async () => {
      const response = await call({ method: 'GET', url: '/api/spec/boom', headers: { 'x-request-id': 'spec-boom-1' } });
      expect(response.statusCode).toBe(500);
      const body = json(response);
      expect(body).toEqual({ code: 'INTERNAL', message: ErrorCodes.INTERNAL.message, errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(response.body).not.toContain('hunter2');
      const line = logLines.find((l) => l.errorId === body.errorId);
      expect(line).toMatchObject({ requestId: 'spec-boom-1', level: 50 });
      expect(JSON.stringify(line)).toContain('hunter2');
    });

    it('sets security headers', async () => {
      for (const url of ['/vault', '/api/me']) {
        const { headers } = await call({ method: 'GET', url });
        expect(headers['content-security-policy']).toContain("script-src 'self'");
        expect(headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
        expect(headers['content-security-policy']).toMatch(/media-src 'self' blob: data:/);
        expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(headers['x-content-type-options']).toBe('nosniff');
        expect(headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(headers['x-powered-by']).toBeUndefined();
      }
    });

    it("gives the build's scripts and stylesheets the headers that apply to them, not a document's (issue 10)", async () => {
      const asset = await call({ method: 'GET', url: '/assets/app-1a2b3c.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
      for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'origin-agent-cluster', 'etag', 'last-modified', 'accept-ranges']) {
        expect(asset.headers[name]).toBeUndefined();
      }
      // Anything else under /assets (an SVG opens as a document) and a missing script keep them all.
      for (const url of ['/assets/gone-999.js?x=1', '/assets/logo-1a2b3c.svg']) {
        expect((await call({ method: 'GET', url })).headers['content-security-policy']).toContain("frame-ancestors 'none'");
      }
    });

    it('publishes a valid OpenAPI document at /api/openapi.json and docs at /api/docs', async () => {
      const response = await call({ method: 'GET', url: '/api/openapi.json' });
      expect(response.statusCode).toBe(200);
      const doc = json(response);
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.info.title).toBe('Legacy Vault API');
      for (const [path, method] of [['/api/auth/sign-up', 'post'], ['/api/auth/sign-in', 'post'], ['/api/auth/refresh', 'post'], ['/api/auth/sign-out', 'post'], ['/api/me', 'get'], ['/api/me', 'patch'], ['/api/vault/stats', 'get'], ['/api/health', 'get']]) {
        expect(doc.paths[path!]?.[method!]).toBeDefined();
      }
      expect(doc.paths['/api/me'].get.security).toEqual([{ bearer: [] }]);
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      // Every $ref points at a schema the document defines.
      const refs = [...response.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThan(5);
      for (const ref of refs) expect(doc.components.schemas[ref]).toBeDefined();
      const docs = await call({ method: 'GET', url: '/api/docs' });
      expect(docs.statusCode).toBe(200);
      expect(docs.body).toContain('swagger-ui');
    });

    it('tells an anonymous caller the status only, 200 when all is up', async () => {
      const response = await call({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ status: 'up' });
      // A token that is not an admin's (or not valid) changes nothing, and is no error either.
      for (const authorization of [`Bearer ${tokenFor()}`, 'Bearer garbage']) {
        const other = await call({ method: 'GET', url: '/api/health', headers: { authorization } });
        expect(other.statusCode).toBe(200);
        expect(json(other)).toEqual({ status: 'up' });
      }
    });

    it('reports every health check to an admin, 200 when all are up; object storage is vault-media\'s to check', async () => {
      const response = await call({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${tokenFor({ sub: ADMIN_ID, admin: true })}` } });
      const report = json(response);
      expect(Object.keys(report.checks).sort()).toEqual(['identity', 'nats', 'postgres:identity', 'redis']);
      for (const check of Object.values<any>(report.checks)) {
        expect(check.status).toBe('up');
        expect(typeof check.latencyMs).toBe('number');
      }
      expect(response.statusCode).toBe(200);
      expect(report.status).toBe('up');
    });
  });

  describe('identity unavailable', () => {
    afterAll(async () => {
      await identity.listen(['rpc.identity.>']);
    });

    it('answers 503 with a clear message at once when nobody serves identity, and health says so', async () => {
      await identity.stop();
      const started = Date.now();
      const response = await call({ method: 'POST', url: '/api/auth/sign-in', payload: { email: 'parent@example.com', password: 'correct-horse' } });
      expect(response.statusCode).toBe(503);
      expect(json(response)).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The vault is temporarily unavailable. Please try again in a moment.' });
      expect(Date.now() - started).toBeLessThan(RPC_TIMEOUT_MS + 500);

      const anonymous = await call({ method: 'GET', url: '/api/health' });
      expect(anonymous.statusCode).toBe(503);
      // Down, and nothing about what or why.
      expect(json(anonymous)).toEqual({ status: 'down' });
      const health = await call({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${tokenFor({ sub: ADMIN_ID, admin: true })}` } });
      expect(health.statusCode).toBe(503);
      const report = json(health);
      expect(report.status).toBe('down');
      expect(report.checks.identity).toMatchObject({ status: 'down', detail: expect.stringContaining('identity') });
      expect(report.checks['postgres:identity'].status).toBe('down');
      expect(report.checks.nats.status).toBe('up');
      expect(report.checks.redis.status).toBe('up');
      expect(logLines.some((l) => l.level === 40 && String(l.msg).startsWith('health: down (identity'))).toBe(true);
    });

    it('answers 503 within the RPC timeout when identity hangs', async () => {
      await identity.listen(['rpc.identity.>']);
      identity.hang(IdentityRpc.getMe);
      const started = Date.now();
      const response = await call({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${tokenFor()}` } });
      const elapsed = Date.now() - started;
      expect(response.statusCode).toBe(503);
      expect(json(response).code).toBe('SERVICE_UNAVAILABLE');
      expect(elapsed).toBeGreaterThanOrEqual(RPC_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(RPC_TIMEOUT_MS + 1000);
      await identity.stop();
    });
  });
});
