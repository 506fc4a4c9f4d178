// vault-media booted in-process (its Nest NATS microservice and its HTTP listener for bytes) against
// the machine's real PostgreSQL, NATS (JetStream) and Redis and the embedded S3-protocol server.
// Each spec file gets its own STACK_ID, database, bucket directory and queue prefix.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import type { AccessTokenClaims, SubscriptionTier } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { createTestDatabase, deleteStackStreams, generateTestKeys, uniqueStackId, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../../tools/dev/s3-server.mjs';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const MEDIA_LINK_SECRET = 'spec-media-link-secret-0123456789abcdef';

/** A WebM-looking body: the EBML magic and then `size - 4` random bytes (unique per call). */
export function webmBody(size: number): Buffer {
  const body = randomBytes(size);
  body.set([0x1a, 0x45, 0xdf, 0xa3], 0);
  return body;
}

export { sendHttp, type HttpAnswer } from '@lv/testing';

export interface Harness {
  stackId: string;
  db: TestDatabase;
  s3: RunningS3Server;
  s3Dir: string;
  app: INestMicroservice;
  keys: { privateKey: string; publicKey: string };
  mediaUrl: string;
  service: import('../../src/media.service.js').MediaService;
  /** What specs reach beside the RPC API: the core connections, the object storage and the hashing and transcoding queues. */
  resources: {
    orm: import('@lv/platform/database').MikroORM;
    redis: import('ioredis').Redis;
    storage: import('@lv/platform/storage').ObjectStorage;
    hashingQueue: import('@lv/platform/queues').TypedQueue<import('@lv/contracts').HashMediaJob>;
    transcodingQueue: import('@lv/platform/queues').TypedQueue<import('@lv/contracts').TranscodeMediaJob>;
  };
  rpc: import('@lv/platform/nest').RpcClient;
  config: import('../../src/config.js').VaultMediaConfig;
  /** A user's access token, with the tier and admin claims services gate on. */
  tokenFor(userId: string, tier?: SubscriptionTier, admin?: boolean): string;
  close(): Promise<void>;
}

export async function startVaultMedia(label: string, overrides: Record<string, string> = {}): Promise<Harness> {
  // Subjects are fixed when the controller module loads: choose this spec's stack first.
  const stackId = uniqueStackId(label);
  process.env.STACK_ID = stackId;
  const { vaultMediaService, OBJECT_STORAGE, MEDIA_HASHING_QUEUE, MEDIA_TRANSCODING_QUEUE } = await import('../../src/vault-media.definition.js');
  const { MediaService } = await import('../../src/media.service.js');
  const { MediaHttpServer } = await import('../../src/http/media-http.server.js');
  const { createLogger } = await import('@lv/platform/logging');
  const { RpcClient, migrateService, startService } = await import('@lv/platform/nest');

  const keys = generateTestKeys();
  const db = await createTestDatabase([], label);
  await db.orm.close();
  const s3Dir = await mkdtemp(join(tmpdir(), `lv-${label}-`));
  const s3 = await startS3Server({ port: 0, directory: s3Dir, accessKey: 'spec-key', secretKey: 'spec-secret' });

  const env = {
    DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
    MEDIA_HTTP_PORT: '0', MEDIA_LINK_SECRET, MEDIA_PART_SIZE_MB: '5', MEDIA_MAX_UPLOAD_BYTES: String(12 * 1024 * 1024),
    MEDIA_SWEEP_INTERVAL_SECONDS: '3600', RPC_TIMEOUT_MS: '3000',
    ...overrides,
  };
  const logger = createLogger(`${label}-spec`, env.LOG_LEVEL);
  await migrateService(vaultMediaService, env, logger);
  const running = await startService(vaultMediaService, env, { logger });
  const { app, config } = running;
  const resources = { orm: running.core.orm, redis: running.core.redis, storage: app.get(OBJECT_STORAGE), hashingQueue: app.get(MEDIA_HASHING_QUEUE), transcodingQueue: app.get(MEDIA_TRANSCODING_QUEUE) };
  const rpc = new RpcClient(NATS_URL, 5000, `${label}-spec`);
  await rpc.connect();
  const signer = new AccessTokenSigner(keys.privateKey);
  const service = app.get(MediaService);
  const http = app.get(MediaHttpServer);

  return {
    stackId, db, s3, s3Dir, app, keys, config, resources, rpc, service,
    mediaUrl: http.url,
    tokenFor(userId, tier = 'pro', admin = false) {
      const claims: AccessTokenClaims = { sub: userId, sid: userId.replace(/^.{4}/, 'aaaa'), email: `${userId.slice(0, 8)}@example.com`, tier, admin, kind: 'user' };
      return signer.sign(claims, 900).token;
    },
    async close() {
      // Every saved video or audio item queues a transcoding job; most specs run no worker to take it.
      await resources.transcodingQueue.obliterate({ force: true }).catch(() => undefined);
      await rpc.close().catch(() => undefined);
      await running.close().catch(() => undefined);
      await deleteStackStreams(NATS_URL, ['vault-media', 'letters'], stackId);
      await s3.close();
      await rm(s3Dir, { recursive: true, force: true });
      await db.drop();
    },
  };
}
