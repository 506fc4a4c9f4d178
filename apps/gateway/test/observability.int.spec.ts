// One request through the gateway (booted in-process) to a service started by the platform's own
// runService machinery (a tiny "letters" on a fresh database, the machine's NATS and Redis): its
// request id comes back in X-Request-Id, names the gateway's log lines and, as the correlation id,
// the service's log lines and the event it appended. Also: the service's ops listener (liveness,
// readiness, metrics) and the gateway's /api/metrics, which only an admin may read.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Controller } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { IdentityRpc, LettersRpc, type AdminBackups, type BackupRun } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { backupStatusKey, writeBackupStatus } from '@lv/platform/backup';
import { commonConfigSchema, databaseConfigSchema } from '@lv/platform/config';
import { EventStore, withEventStoreSchema } from '@lv/platform/event-store';
import { createLogger, type Logger } from '@lv/platform/logging';
import { Readers, RpcClient, RpcHandler, startService, type RunningService, type ServiceCore } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { createTestDatabase, freePort, type TestDatabase } from '@lv/testing';
import { bridgeEsmOnlyDependencies } from './support/esm-bridge.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwo${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signer = new AccessTokenSigner(keys.privateKey);
const tokenFor = (admin: boolean) => signer.sign({ sub: randomUUID(), sid: randomUUID(), email: 'dad@example.com', tier: 'none', admin, kind: 'user' }, 600).token;

type LogLine = Record<string, unknown> & { msg?: string };

/** A pino destination that keeps every JSON line. */
function captured(): { lines: LogLine[]; stream: Writable } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { lines, stream };
}

let serviceLogger: Logger;
let serviceCore: ServiceCore;
const store = new EventStore({ publish: () => null });

@Controller()
class TinyLettersController {
  @Readers('owner')
  @RpcHandler(LettersRpc.list)
  async list(): Promise<{ letters: never[]; nextCursor: null }> {
    serviceLogger.info('listing letters');
    await serviceCore.orm.em.fork().transactional((em) => store.appendToStream(em, `probe-${randomUUID()}`, 'probe', 'no_stream', [{ type: 'Listed', data: {} }]));
    return { letters: [], nextCursor: null };
  }
}

describe('gateway and services: request ids, correlation, metrics, health', () => {
  const gatewayLog = captured();
  const serviceLog = captured();
  let db: TestDatabase;
  let service: RunningService;
  let identity: NestNatsResponder;
  let app: NestFastifyApplication;
  let http: FastifyInstance;
  let workDir: string;
  let opsPort: number;
  const admins = new Set<string>();

  const ops = (path: string) => fetch(`http://127.0.0.1:${opsPort}${path}`);

  beforeAll(async () => {
    await bridgeEsmOnlyDependencies();
    const migrations = withEventStoreSchema([]);
    db = await createTestDatabase(migrations, 'gwobs');
    opsPort = await freePort();
    serviceLogger = createLogger('letters', 'info', {}, serviceLog.stream);
    service = await startService({
      name: 'letters',
      configSchema: commonConfigSchema.extend(databaseConfigSchema.shape),
      migrations,
      setup: ({ core }) => {
        serviceCore = core;
        return { controllers: [TinyLettersController] };
      },
    }, { DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, OPS_HTTP_PORT: String(opsPort) }, { logger: serviceLogger });

    // identity confirms the admin claim before /api/metrics answers.
    identity = await NestNatsResponder.start(NATS_URL, STACK_ID);
    identity.handle(IdentityRpc.getMe, ({ auth }) => ({ ai_admin: admins.has(auth.accessToken ?? '') }));
    await identity.listen(['rpc.identity.>']);

    const { createGatewayApp } = await import('../src/app.factory.js');
    const { gatewayConfigSchema } = await import('../src/config.js');
    workDir = await mkdtemp(join(tmpdir(), 'lv-gateway-obs-'));
    const web = join(workDir, 'web');
    await mkdir(web, { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>Legacy Vault</title>');
    const config = gatewayConfigSchema.parse({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '3000',
      DEVICE_COOKIE_SECRET: 'spec-device-cookie-secret-0123456789abcdef', WEB_DIST_DIR: web, HEALTH_SERVICES: 'letters',
    });
    app = await createGatewayApp(config, { logger: createLogger('gateway', 'info', {}, gatewayLog.stream), statsProviders: [] });
    http = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  });

  afterAll(async () => {
    await app?.close();
    await identity?.close();
    await service?.close();
    await db?.drop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("names one request by the same id in the gateway's answer, its log lines, the service's log lines and the event it appended", async () => {
    const requestId = `spec-${randomUUID()}`;
    const response = await http.inject({ method: 'GET', url: '/api/letters', headers: { authorization: `Bearer ${tokenFor(false)}`, 'x-request-id': requestId } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toBe(requestId);

    expect(gatewayLog.lines.filter((line) => line.requestId === requestId).length).toBeGreaterThan(0);
    // Written while the request's trace is current (AsyncLocalStorage): it carries the correlation id too.
    expect(gatewayLog.lines.find((line) => line.msg === 'request completed' && line.requestId === requestId)).toMatchObject({ correlationId: requestId });
    const handled = serviceLog.lines.find((line) => line.msg === 'listing letters');
    expect(handled).toMatchObject({ name: 'letters', correlationId: requestId, requestId });

    const rows = await db.orm.em.fork().execute<{ metadata: { correlationId?: string } }[]>(`select metadata from events where stream_type = 'probe'`);
    expect(rows.map((row) => row.metadata.correlationId)).toEqual([requestId]);
  });

  it('makes a fresh id when the caller sends none or a malformed one, and still carries it to the service', async () => {
    const response = await http.inject({ method: 'GET', url: '/api/letters', headers: { authorization: `Bearer ${tokenFor(false)}`, 'x-request-id': 'bad id\nforged' } });
    const requestId = response.headers['x-request-id'] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(serviceLog.lines.filter((line) => line.msg === 'listing letters').at(-1)).toMatchObject({ correlationId: requestId });
  });

  it("answers liveness and readiness on the service's ops listener, and counts its RPC handlers by subject and outcome", async () => {
    expect((await ops('/health/live')).status).toBe(200);
    const ready = await ops('/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'up', checks: { postgres: { status: 'up' }, nats: { status: 'up' }, redis: { status: 'up' }, migrations: { status: 'up' } } });

    // A caller without a token is refused by the service's guard, before the handler: counted by its code.
    const rpc = new RpcClient(NATS_URL, 3000, 'observability-spec');
    await rpc.connect();
    await expect(rpc.call(LettersRpc.list, {}, { meta: { requestId: 'no-token' } })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await rpc.close();
    const metrics = await (await ops('/metrics')).text();
    expect(metrics).toMatch(/lv_rpc_requests_total\{subject="rpc\.letters\.list",outcome="ok"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/lv_rpc_request_duration_seconds_count\{[^}]*subject="rpc\.letters\.list",outcome="ok"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/lv_rpc_requests_total\{subject="rpc\.letters\.list",outcome="UNAUTHENTICATED"[^}]*\} 1/);
    expect(metrics).toMatch(/lv_outbox_pending\{database="lv_test_gwobs_[0-9a-f]+"[^}]*\} 0/);
    expect(metrics).toContain('process_cpu_user_seconds_total');
    expect((await ops('/nothing')).status).toBe(404);
  });

  it('serves the gateway /api/metrics to admins only: 401 without a token, 403 for an owner, 403 for a revoked admin claim', async () => {
    expect((await http.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(401);
    const owner = await http.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${tokenFor(false)}` } });
    expect(owner.statusCode).toBe(403);
    expect(owner.body).not.toContain('lv_http_requests_total');
    // The token says admin, identity no longer does.
    expect((await http.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${tokenFor(true)}` } })).statusCode).toBe(403);

    const adminToken = tokenFor(true);
    admins.add(adminToken);
    const admin = await http.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${adminToken}` } });
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['content-type']).toContain('text/plain');
    expect(admin.body).toMatch(/lv_http_requests_total\{method="GET",route="\/api\/letters",status="200"[^}]*\} [1-9]/);
    expect(admin.body).toMatch(/lv_http_requests_total\{method="GET",route="\/api\/metrics",status="403"/);
  });

  it('serves the scheduled backup\'s record to admins only: none yet, then the last run as the worker wrote it, overdue once its success is 1.5 intervals old', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const read = (token?: string) => http.inject({ method: 'GET', url: '/api/admin/backups', headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect((await read()).statusCode).toBe(401);
      expect((await read(tokenFor(false))).statusCode).toBe(403);
      // The token says admin, identity no longer does: the gateway reads Redis itself, so it asks.
      expect((await read(tokenFor(true))).statusCode).toBe(403);
      const adminToken = tokenFor(true);
      admins.add(adminToken);
      expect((await read(adminToken)).json<AdminBackups>()).toEqual({ status: null, overdue: false });

      const day = 86_400_000;
      const finishedAt = new Date(Date.now() - day).toISOString();
      const run: BackupRun = { startedAt: finishedAt, finishedAt, durationMs: 4200, ok: true, snapshot: 'a'.repeat(64), sizeBytes: 123_456, removedSnapshots: 0, errorCode: null, error: null };
      await writeBackupStatus(redis, queuePrefix(), { everyMs: day, run, now: new Date(Date.now() - 2 * day) });
      const ok = (await read(adminToken)).json<AdminBackups>();
      expect(ok).toEqual({ status: { everyMs: day, since: expect.any(String), last: run, lastSuccess: run }, overdue: false });

      const failed: BackupRun = { ...run, ok: false, snapshot: null, sizeBytes: null, removedSnapshots: null, errorCode: 'BACKUP_WRONG_PASSWORD', error: 'refused' };
      await writeBackupStatus(redis, queuePrefix(), { everyMs: day / 2, run: failed });
      expect((await read(adminToken)).json<AdminBackups>()).toEqual({ status: expect.objectContaining({ last: failed, lastSuccess: run }), overdue: true });
    } finally {
      await redis.del(backupStatusKey(queuePrefix()));
      redis.disconnect();
    }
  });
});
