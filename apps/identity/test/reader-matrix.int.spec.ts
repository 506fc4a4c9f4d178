import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AccessTokenSigner } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, createTestDatabase, generateTestKeys, runReaderMatrix, uniqueStackId, type TestDatabase } from '@lv/testing';
import { identityMigrations } from '../src/migrations.js';

// Every identity handler against every kind of caller (libs/testing runReaderMatrix), taken from the
// running service's handler registry: a handler added later is in the matrix without a list.

jest.setTimeout(120_000);

process.env.STACK_ID = uniqueStackId('identitymx');
const { identityService } = await import('../src/identity.definition.js');
const { RpcHandlerRegistry, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');
const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();

describe('identity reader matrix', () => {
  let db: TestDatabase;
  let running: Awaited<ReturnType<typeof startService>>;
  let rpc: RawRpc;

  beforeAll(async () => {
    db = await createTestDatabase([], 'identitymx');
    await db.orm.close();
    const env = {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, JWT_PRIVATE_KEY: keys.privateKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'silent',
    };
    const { createOrm, migrateUp } = await import('@lv/platform/database');
    const migrator = await createOrm({ databaseUrl: db.url, migrations: identityMigrations });
    await migrateUp(migrator);
    await migrator.close();
    running = await startService(identityService, env, { logger: createLogger('identity-matrix', 'silent') });
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await running?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('identity')).catch(() => undefined);
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('billing')).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('allows exactly what each handler declares, and never shows one account to another', async () => {
    const signUp = (email: string) => rpc.call<{ profile: { id: string } }>('rpc.identity.sign-up', { email, password: 'secret1' });
    const ownerEmail = `owner${randomBytes(6).toString('hex')}@example.com`;
    const owner = await signUp(ownerEmail);
    const another = await signUp(`other${randomBytes(6).toString('hex')}@example.com`);

    const result = await runReaderMatrix({
      handlers: running.app.get(RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: new AccessTokenSigner(keys.privateKey),
      viewers: new TestViewerIssuer(running.core.redis, viewerKeys),
      ownerId: owner.profile.id,
      anotherOwnerId: another.profile.id,
      ownerSecrets: [ownerEmail],
      ownerReads: ['rpc.identity.get-me'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    expect(result.rows.map((row) => row.subject)).toEqual(expect.arrayContaining(['rpc.identity.get-me', 'rpc.identity.update-me', 'rpc.identity.op.set-admin', 'rpc.identity.owner-display-name', 'rpc.identity.access-request-mail-to']));
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    expect(result.unexpectedDenials).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);
  });
});
