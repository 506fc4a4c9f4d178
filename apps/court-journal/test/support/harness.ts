// court-journal booted in-process (its Nest NATS microservice and its HTTP listener for bytes) against
// the machine's real PostgreSQL, NATS (JetStream) and Redis and the embedded S3-protocol server.
// Each spec file gets its own STACK_ID, database and bucket directory.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import type { AccessTokenClaims } from '@lv/contracts';
import { generateEvidenceKey } from '@lv/evidence';
import { AccessTokenSigner } from '@lv/platform/auth';
import { createTestDatabase, generateTestKeys, uniqueStackId, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../../tools/dev/s3-server.mjs';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const COURT_LINK_SECRET = 'spec-court-link-secret-0123456789abcdef';

/** What the specs need of the S3 stand-in, in this process or in a child of its own. */
type S3 = Pick<RunningS3Server, 'endpoint' | 'accessKey' | 'secretKey' | 'close'>;

const freePort = () => new Promise<number>((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

/**
 * The S3 stand-in as a child process (tools/dev/s3-server.mjs), for specs that measure this
 * process's memory: the stand-in's own copies of the parts it receives then do not count.
 */
async function startS3Child(directory: string): Promise<S3> {
  const port = await freePort();
  const child = spawn(process.execPath, ['tools/dev/s3-server.mjs', '--port', String(port), '--dir', directory, '--access-key', 'spec-key', '--secret-key', 'spec-secret'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the S3 stand-in exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('S3-protocol server on')) resolve(); });
  });
  child.removeAllListeners('exit');
  return {
    endpoint: `http://127.0.0.1:${port}`, accessKey: 'spec-key', secretKey: 'spec-secret',
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
    },
  };
}

export interface CourtHarness {
  stackId: string;
  db: TestDatabase;
  s3: S3;
  s3Dir: string;
  app: INestMicroservice;
  keys: { privateKey: string; publicKey: string };
  evidenceKey: ReturnType<typeof generateEvidenceKey>;
  httpUrl: string;
  service: import('../../src/court-journal.service.js').CourtJournalService;
  orm: import('@lv/platform/database').MikroORM;
  redis: import('ioredis').Redis;
  nats: import('@nats-io/transport-node').NatsConnection;
  storage: import('@lv/platform/storage').ObjectStorage;
  rpc: import('@lv/platform/nest').RpcClient;
  /** A user's access token (a fresh session each call unless given). */
  tokenFor(userId: string, sessionId?: string): string;
  close(): Promise<void>;
}

export async function startCourtJournal(label: string, overrides: Record<string, string> = {}, options: { s3InChildProcess?: boolean } = {}): Promise<CourtHarness> {
  // Subjects are fixed when the controller module loads: choose this spec's stack first.
  const stackId = uniqueStackId(label);
  process.env.STACK_ID = stackId;
  const { courtJournalService, COURT_OBJECT_STORAGE } = await import('../../src/court-journal.definition.js');
  const { CourtJournalService } = await import('../../src/court-journal.service.js');
  const { CourtHttpServer } = await import('../../src/http/court-http.server.js');
  const { createLogger } = await import('@lv/platform/logging');
  const { RpcClient, migrateService, startService } = await import('@lv/platform/nest');

  const keys = generateTestKeys();
  const evidenceKey = generateEvidenceKey();
  const db = await createTestDatabase([], label);
  await db.orm.close();
  const s3Dir = await mkdtemp(join(tmpdir(), `lv-${label}-`));
  const s3 = options.s3InChildProcess ? await startS3Child(s3Dir) : await startS3Server({ port: 0, directory: s3Dir, accessKey: 'spec-key', secretKey: 'spec-secret' });

  const env = {
    DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
    COURT_JOURNAL_HTTP_PORT: '0', COURT_LINK_SECRET, EVIDENCE_SIGNING_KEY: evidenceKey.privateKeyPem,
    COURT_SWEEP_INTERVAL_SECONDS: '3600', RPC_TIMEOUT_MS: '3000',
    ...overrides,
  };
  const logger = createLogger(`${label}-spec`, env.LOG_LEVEL);
  await migrateService(courtJournalService, env, logger);
  const running = await startService(courtJournalService, env, { logger });
  const { app } = running;
  const rpc = new RpcClient(NATS_URL, 5000, `${label}-spec`);
  await rpc.connect();
  const signer = new AccessTokenSigner(keys.privateKey);

  return {
    stackId, db, s3, s3Dir, app, keys, evidenceKey, rpc,
    service: app.get(CourtJournalService),
    orm: running.core.orm,
    redis: running.core.redis,
    nats: running.core.nats,
    storage: app.get(COURT_OBJECT_STORAGE),
    httpUrl: app.get(CourtHttpServer).url,
    tokenFor(userId, sessionId = randomUUID()) {
      const claims: AccessTokenClaims = { sub: userId, sid: sessionId, email: `${userId.slice(0, 8)}@example.com`, tier: 'pro', admin: false, kind: 'user' };
      return signer.sign(claims, 900).token;
    },
    async close() {
      await rpc.close().catch(() => undefined);
      await running.close().catch(() => undefined);
      const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');
      const nc = await connectNats(NATS_URL, 'cleanup');
      await (await jetstreamManager(nc)).streams.delete(scopedStreamName('court-journal', stackId)).catch(() => undefined);
      await nc.close();
      await s3.close();
      await rm(s3Dir, { recursive: true, force: true });
      await db.drop();
    },
  };
}
