import { jetstreamManager } from '@nats-io/jetstream';
import { createTestDatabase, uniqueStackId, type TestDatabase } from '@lv/testing';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import type { IdentityConfig } from '../../src/config.js';

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

export interface IdentityHarness {
  db: TestDatabase;
  identity: RunningService<IdentityConfig>;
  rpc: RpcClient;
  close(): Promise<void>;
}

/**
 * identity on a fresh database of its own and a stack id of its own (subjects and its JetStream stream),
 * migrated and started as in production, with an RPC client; close() removes all of it.
 */
export async function startIdentity(label: string, keys: { publicKey: string; privateKey: string }, env: Record<string, string> = {}): Promise<IdentityHarness> {
  // Subjects are fixed when the controller module loads: choose the stack first.
  process.env.STACK_ID = uniqueStackId(label);
  const { identityService } = await import('../../src/identity.definition.js');
  const { RpcClient, migrateService, startService } = await import('@lv/platform/nest');
  const { createLogger } = await import('@lv/platform/logging');
  const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');
  const db = await createTestDatabase([], label);
  await db.orm.close(); // the service opens its own connection with its migrations
  const config = {
    DATABASE_URL: db.url, NATS_URL, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', JWT_PUBLIC_KEY: keys.publicKey, JWT_PRIVATE_KEY: keys.privateKey, LOG_LEVEL: 'silent', ...env,
  };
  const logger = createLogger(`${label}-test`, 'silent');
  await migrateService(identityService, config, logger);
  const identity = await startService(identityService, config, { logger });
  const rpc = new RpcClient(NATS_URL, 5000);
  await rpc.connect();
  return {
    db, identity, rpc,
    async close() {
      await rpc.close();
      await identity.close();
      const nc = await connectNats(NATS_URL, 'cleanup');
      await (await jetstreamManager(nc)).streams.delete(scopedStreamName('identity')).catch(() => undefined);
      await nc.close();
      await db.drop();
    },
  };
}
