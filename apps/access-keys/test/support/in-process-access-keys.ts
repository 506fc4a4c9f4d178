import { connect, type NatsConnection } from '@nats-io/transport-node';
import { IdentityRpc, type ServiceName } from '@lv/contracts';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import { answerAsService, createTestDatabase, deleteStackStreams, generateTestKeys, type TestDatabase, type TestKeys } from '@lv/testing';
import type { AccessKeysConfig } from '../../src/config.js';
import { accessKeysMigrations } from '../../src/migrations.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface InProcessAccessKeys {
  db: TestDatabase;
  service: RunningService<AccessKeysConfig>;
  /** Calls as the gateway does (no stack scoping needed: the spec's STACK_ID is the process's). */
  rpc: RpcClient;
  close(): Promise<void>;
}

/**
 * access-keys in-process over the shared NATS and Redis and a fresh database, on the spec's STACK_ID
 * (set it before calling: subjects are fixed when the service's modules load). `close` deletes
 * `streams` of the stack too.
 */
export async function startInProcessAccessKeys(
  label: string,
  options: { jwtPublicKey: string; viewerKeys?: TestKeys; keyMailSecret?: string; streams?: readonly ServiceName[] },
): Promise<InProcessAccessKeys> {
  const stackId = process.env.STACK_ID;
  const { accessKeysService } = await import('../../src/access-keys.definition.js');
  const { createLogger } = await import('@lv/platform/logging');
  const viewerKeys = options.viewerKeys ?? generateTestKeys();
  const db = await createTestDatabase(accessKeysMigrations.slice(1), label.replace(/-/g, ''));
  let service: RunningService<AccessKeysConfig>;
  try {
    service = await startService(accessKeysService, {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: options.jwtPublicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey,
      KEY_MAIL_SECRET: options.keyMailSecret ?? `${label}-spec-mail-secret-`.padEnd(48, 'x'), LOG_LEVEL: 'silent',
    }, { logger: createLogger(`${label}-spec`, 'silent') });
  } catch (error) {
    await db.drop();
    throw error;
  }
  const rpc = new RpcClient(NATS_URL, 10_000);
  await rpc.connect();
  return {
    db, service, rpc,
    close: async () => {
      await rpc.close();
      await deleteStackStreams(NATS_URL, options.streams ?? ['access-keys', 'notifications'], stackId);
      await service.close();
      await db.drop();
    },
  };
}

/**
 * identity's stand-in for an owner's display name, in Nest's NATS reply format: `names` answers by
 * user id (null for anyone else); every id asked about is pushed to `asked`.
 */
export async function standInOwnerNames(names: Record<string, string>, asked: string[] = []): Promise<NatsConnection> {
  const identity = await connect({ servers: NATS_URL, name: 'identity-stand-in' });
  answerAsService<{ user_id: string }>(identity, IdentityRpc.ownerDisplayName, ({ user_id }) => {
    asked.push(user_id);
    return { full_name: names[user_id] ?? null };
  });
  await identity.flush();
  return identity;
}
