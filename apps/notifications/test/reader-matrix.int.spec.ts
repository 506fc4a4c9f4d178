import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AccessTokenSigner } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, createTestDatabase, generateTestKeys, runReaderMatrix, uniqueStackId, type TestDatabase } from '@lv/testing';
import { notificationsMigrations } from '../src/migrations.js';

// Every notifications handler against every kind of caller (libs/testing runReaderMatrix), on the running
// service's own handler registry. notifications holds no vault data: its handlers are operators' only.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('notifymx');
process.env.STACK_ID = STACK_ID;
const { notificationsService } = await import('../src/notifications.definition.js');
const { RpcHandlerRegistry, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');
const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const ownerId = randomUUID();
const anotherOwnerId = randomUUID();
const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('notifications reader matrix', () => {
  let db: TestDatabase;
  let running: Awaited<ReturnType<typeof startService>>;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;

  beforeAll(async () => {
    db = await createTestDatabase(notificationsMigrations.slice(1), 'notifymx');
    running = await startService(notificationsService, {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, SMTP_IGNORE_TLS: 'true',
      KEY_MAIL_SECRET: secret('key-mail-secret-of-the-matrix-'), LOG_LEVEL: 'silent',
    }, { logger: createLogger('access-matrix', 'silent') });
    viewers = new TestViewerIssuer(running.core.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await running?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    const jsm = await jetstreamManager(nc);
    for (const s of ['notifications'] as const) await jsm.streams.delete(scopedStreamName(s)).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('allows exactly what each handler declares: operators only', async () => {
    const result = await runReaderMatrix({
      handlers: running.app.get(RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: signer,
      viewers,
      ownerId,
      anotherOwnerId,
      payloads: { 'rpc.notifications.op.resend-key-email': { key_id: randomUUID() } },
      ownerSecrets: [secret('nothing-of-a-vault-here')],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    const subjects = new Set(result.rows.map((row) => row.subject));
    expect([...subjects]).toEqual(expect.arrayContaining(['rpc.notifications.op.resend-key-email', 'rpc.notifications.op.rebuild-projections']));
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    expect(result.unexpectedDenials).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);
  });
});
