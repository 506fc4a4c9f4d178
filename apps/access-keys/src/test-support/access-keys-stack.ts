import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { IdentityRpc, type ServiceName } from '@lv/contracts';
import { createLogger } from '@lv/platform/logging';
import { scopedSubject } from '@lv/platform/messaging';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import { createQueue, queuePrefix, type DeclaredQueue, type TypedQueue } from '@lv/platform/queues';
import { createTestDatabase, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, type TestDatabase, type TestKeys } from '@lv/testing';
import type { AccessKeysConfig } from '../config.js';
import { accessKeysMigrations } from '../migrations.js';

export interface AccessKeysStackOptions {
  /** The spec's STACK_ID, already in process.env (a controller's subjects are fixed when it loads). */
  stackId: string;
  /** Names the spec's database. */
  label: string;
  /** The access token keys the spec signs its owners' tokens with. */
  keys: TestKeys;
  keyMailSecret: string;
  env?: Record<string, string>;
  /** identity as a stand-in answering `owner-display-name` with this name (none: nobody answers). */
  ownerName?: string;
  /** Streams the spec publishes into as their owning service would (identity's events). */
  ownStreams?: readonly ServiceName[];
}

export interface AccessKeysStack {
  db: TestDatabase;
  service: RunningService<AccessKeysConfig>;
  /** Calls the service as the gateway does. */
  rpc: RpcClient;
  redis: Redis;
  /** A queue of this stack (its own key prefix), obliterated at close. */
  queue<P>(declaration: DeclaredQueue<P>): TypedQueue<P>;
  /** Stops everything and removes the stack's queues, streams and database. */
  close(): Promise<void>;
}

/** access-keys for an integration spec, on the machine's PostgreSQL, NATS and Redis: a stack, a database and queues of its own. */
export async function startAccessKeysStack(options: AccessKeysStackOptions): Promise<AccessKeysStack> {
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const { accessKeysService } = await import('../access-keys.definition.js');
  const db = await createTestDatabase(accessKeysMigrations.slice(1), options.label);
  let identity: NatsConnection | null = null;
  if (options.ownerName !== undefined) {
    const name = options.ownerName;
    identity = await connect({ servers: natsUrl, name: 'identity-stand-in' });
    identity.subscribe(scopedSubject(IdentityRpc.ownerDisplayName, options.stackId), {
      callback: (_err, msg) => {
        msg.respond(JSON.stringify({ id: msg.json<{ id: string }>().id, isDisposed: true, response: { full_name: name } }));
      },
    });
    await identity.flush();
  }
  if (options.ownStreams?.length) await makeStreamsAsOwners(natsUrl, options.ownStreams, options.stackId);
  const viewerKeys = generateTestKeys();
  const service = await startService(accessKeysService, {
    DATABASE_URL: db.url, NATS_URL: natsUrl, REDIS_URL: redisUrl, JWT_PUBLIC_KEY: options.keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey,
    VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey, KEY_MAIL_SECRET: options.keyMailSecret, LOG_LEVEL: 'silent', ...options.env,
  }, { logger: createLogger(`${options.label}-spec`, 'silent') });
  const rpc = new RpcClient(natsUrl, 10_000);
  await rpc.connect();
  const redis = new Redis(redisUrl);
  const queues: Pick<TypedQueue<unknown>, 'obliterate' | 'close'>[] = [];
  return {
    db, service, rpc, redis,
    queue(declaration) {
      const created = createQueue(declaration, redis, { prefix: queuePrefix(options.stackId) });
      queues.push(created);
      return created;
    },
    async close() {
      for (const q of queues) {
        await q.obliterate({ force: true }).catch(() => undefined);
        await q.close();
      }
      await rpc.close();
      await deleteStackStreams(natsUrl, ['access-keys', 'notifications', 'identity'], options.stackId);
      await service.close();
      await identity?.close();
      redis.disconnect();
      await db.drop();
    },
  };
}
