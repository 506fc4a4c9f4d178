// Issue 29: a key or a view-session secret must never reach the gateway's log. The gateway is booted
// in-process with the logger every process builds (createLogger), writing into a string; access-keys
// is a stand-in. Opening an old key e-mail link (/access?k=), reloading /vault/view?session=, and the
// API calls that carry a key or the session secret in their body must leave no trace of either.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { AccessKeysRpc, CONSENT_VERSION } from '@lv/contracts';
import { createLogger } from '@lv/platform/logging';
import { generateTestKeys, TestViewerIssuer } from '@lv/testing';
import { bridgeEsmOnlyDependencies } from './support/esm-bridge.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwl${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const ACCESS_KEY = randomUUID();
/** A view session's secret: 43 base64url characters. */
const SESSION_SECRET = randomBytes(32).toString('base64url');
const OWNER_ID = randomUUID();

describe('gateway logs carry no secrets (issue 29)', () => {
  let app: NestFastifyApplication;
  let http: ReturnType<ReturnType<NestFastifyApplication['getHttpAdapter']>['getInstance']>;
  let services: NestNatsResponder;
  let redis: Redis;
  let workDir: string;
  let logged = '';

  beforeAll(async () => {
    await bridgeEsmOnlyDependencies();
    const { createGatewayApp } = await import('../src/app.factory.js');
    const { gatewayConfigSchema } = await import('../src/config.js');
    workDir = await mkdtemp(join(tmpdir(), 'lv-gateway-logs-'));
    const web = join(workDir, 'web');
    await mkdir(web, { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Legacy Vault</title>');
    redis = new Redis(REDIS_URL);
    const viewers = new TestViewerIssuer(redis);
    services = await NestNatsResponder.start(NATS_URL, STACK_ID);
    const grant = { session_id: randomUUID(), owner_id: OWNER_ID, scopes: ['letters' as const], viewer_token: 'vt', viewer_token_expires_at: 1, session_expires_at: '2026-12-31T00:00:00.000Z' };
    services
      .handle(AccessKeysRpc.redeem, () => ({ ...grant, session: SESSION_SECRET }))
      .handle(AccessKeysRpc.viewToken, () => grant)
      .handle(AccessKeysRpc.closeSession, () => ({ closed: true }))
      .handle(AccessKeysRpc.keyStatus, () => ({ status: 'active' as const, owner_name: 'Sam Taylor' }));
    await services.listen(['rpc.access-keys.>']);
    const config = gatewayConfigSchema.parse({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: generateTestKeys().publicKey, VIEWER_JWT_PUBLIC_KEY: viewers.publicKey, RPC_TIMEOUT_MS: '1500', WEB_DIST_DIR: web,
      HEALTH_SERVICES: 'access-keys', DEVICE_COOKIE_SECRET: 'log-spec-device-cookie-secret-0123456789', APP_ORIGINS: 'https://vault.example.com',
    });
    const sink = new Writable({ write(chunk: Buffer, _encoding, done) { logged += chunk.toString(); done(); } });
    app = await createGatewayApp(config, { logger: createLogger('gateway', 'info', {}, sink), statsProviders: [] });
    http = app.getHttpAdapter().getInstance();
  });

  afterAll(async () => {
    await app?.close();
    await services?.close();
    redis?.disconnect();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('logs the route of every request, never the key or the session secret it carried', async () => {
    const json = { 'content-type': 'application/json' };
    const answers = [
      await http.inject({ method: 'GET', url: `/access?k=${ACCESS_KEY}&owner=${OWNER_ID}` }),
      await http.inject({ method: 'GET', url: `/vault/view?session=${SESSION_SECRET}` }),
      await http.inject({ method: 'GET', url: `/redeem?key=${ACCESS_KEY}` }),
      await http.inject({ method: 'POST', url: '/api/view/redeem', headers: json, payload: { access_key: ACCESS_KEY, owner: OWNER_ID, consent: { version: CONSENT_VERSION, text_hash: 'a'.repeat(64) } } }),
      await http.inject({ method: 'POST', url: '/api/view/key-status', headers: json, payload: { access_key: ACCESS_KEY, owner: OWNER_ID } }),
      await http.inject({ method: 'POST', url: '/api/view/token', headers: json, payload: { session: SESSION_SECRET } }),
      await http.inject({ method: 'POST', url: `/api/view/close?session=${SESSION_SECRET}`, headers: json, payload: { session: SESSION_SECRET } }),
      await http.inject({ method: 'GET', url: '/api/view/session', headers: { authorization: `Bearer ${SESSION_SECRET}` } }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 201, 200, 200, 204, 401]);
    // The requests were logged (the spec proves nothing on an empty log), by route or path.
    expect(logged).toContain('"url":"/access"');
    expect(logged).toContain('"url":"/vault/view"');
    expect(logged).toContain('"url":"/api/view/token"');
    expect(logged.split(ACCESS_KEY).length - 1).toBe(0);
    expect(logged.split(SESSION_SECRET).length - 1).toBe(0);
  });
});
