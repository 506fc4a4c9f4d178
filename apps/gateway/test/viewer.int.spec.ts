// The gateway's viewer side: GET /api/view/session through the passport 'viewer' strategy, with
// viewer tokens from the test issuer (its own key pair), against the machine's real NATS and Redis.
// identity is a stand-in speaking Nest's NATS wire format (for the owner route /api/me).
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AccessMessages, ErrorCodes, IdentityRpc, type UserProfile } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { TestViewerIssuer, generateTestKeys } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { createSpecGateway, specWorkDir } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwv${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const OWNER_ID = randomUUID();
const ownerToken = () => signer.sign({ sub: OWNER_ID, sid: randomUUID(), email: 'parent@example.com', tier: 'pro', admin: false, kind: 'user' }, 600).token;

describe('gateway viewer routes', () => {
  let app: NestFastifyApplication;
  let http: FastifyInstance;
  let identity: NestNatsResponder;
  let redis: Redis;
  let s3: RunningS3Server;
  let workDir: string;
  let viewers: TestViewerIssuer;

  const get = (url: string, token?: string) => http.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    let web: string;
    ({ workDir, web } = await specWorkDir('viewer'));
    s3 = await startS3Server({ port: 0, directory: join(workDir, 's3'), accessKey: 'spec-key', secretKey: 'spec-secret', silent: true });
    redis = new Redis(REDIS_URL);
    viewers = new TestViewerIssuer(redis);

    identity = await NestNatsResponder.start(NATS_URL, STACK_ID);
    identity.handle(IdentityRpc.getMe, (): UserProfile => ({
      id: OWNER_ID, email: 'parent@example.com', full_name: null, avatar_url: null, created_at: '2026-11-01T10:00:00.000Z', subscription_tier: 'pro', ai_admin: false, emailVerified: true,
    }));
    await identity.listen(['rpc.identity.>']);

    app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewers.publicKey, RPC_TIMEOUT_MS: '1500',
      S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, WEB_DIST_DIR: web, HEALTH_SERVICES: 'identity', DEVICE_COOKIE_SECRET: 'viewer-spec-device-cookie-secret-0123456789',
    }, { statsProviders: [] });
    http = app.getHttpAdapter().getInstance();
  });

  afterAll(async () => {
    await app?.close();
    await identity?.close();
    redis?.disconnect();
    await s3?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('tells a viewer which vault and scopes its session holds', async () => {
    const viewer = viewers.issue(OWNER_ID, ['timeline', 'letters']);
    const response = await get('/api/view/session', viewer.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ vaultOwnerId: OWNER_ID, viewSessionId: viewer.viewSessionId, scopes: ['timeline', 'letters'], expiresAt: viewer.expiresAt });
  });

  it('refuses an owner token on a viewer route, and a viewer token on owner routes', async () => {
    // The owner token itself is good: it reads the owner route.
    expect((await get('/api/me', ownerToken())).statusCode).toBe(200);
    const ownerOnViewer = await get('/api/view/session', ownerToken());
    expect(ownerOnViewer.statusCode).toBe(401);
    expect(ownerOnViewer.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: ErrorCodes.UNAUTHENTICATED.message });

    const viewer = viewers.issue(OWNER_ID);
    for (const url of ['/api/me', '/api/letters', '/api/vault/stats']) {
      const response = await get(url, viewer.token);
      expect({ url, status: response.statusCode, code: response.json<{ code: string }>().code }).toEqual({ url, status: 401, code: 'UNAUTHENTICATED' });
    }
    expect(identity.callsTo(IdentityRpc.getMe)).toHaveLength(1);
  });

  it('refuses a viewer without a token, with an expired token, a revoked session or a token of another key', async () => {
    const none = await get('/api/view/session');
    expect([none.statusCode, none.json<{ code: string }>().code]).toEqual([401, 'UNAUTHENTICATED']);

    const expired = await get('/api/view/session', viewers.expired(OWNER_ID).token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'SESSION_EXPIRED', message: AccessMessages.viewExpired });

    const live = viewers.issue(OWNER_ID);
    expect((await get('/api/view/session', live.token)).statusCode).toBe(200);
    await viewers.revoke(live.viewSessionId);
    const revoked = await get('/api/view/session', live.token);
    expect([revoked.statusCode, revoked.json<{ code: string }>().code]).toEqual([401, 'SESSION_EXPIRED']);

    // Signed with a key the gateway does not trust (not access-keys').
    const forged = new TestViewerIssuer(undefined).issue(OWNER_ID);
    expect((await get('/api/view/session', forged.token)).json<{ code: string }>().code).toBe('UNAUTHENTICATED');
  });
});
