import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AccessTokenSigner } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, createTestDatabase, generateTestKeys, runReaderMatrix, uniqueStackId, type TestDatabase } from '@lv/testing';
import { accessKeysMigrations } from '../src/migrations.js';

// Every access-keys handler against every kind of caller (libs/testing runReaderMatrix), on the running
// service's own handler registry. Public handlers (request form, redemption, session exchange) let
// everyone past the guard by design; what they do with a caller is the service spec's subject.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('accessmx');
process.env.STACK_ID = STACK_ID;
const { accessKeysService } = await import('../src/access-keys.definition.js');
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

describe('access-keys reader matrix', () => {
  let db: TestDatabase;
  let running: Awaited<ReturnType<typeof startService>>;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;

  beforeAll(async () => {
    db = await createTestDatabase(accessKeysMigrations.slice(1), 'accessmx');
    running = await startService(accessKeysService, {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey,
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
    for (const s of ['access-keys', 'notifications'] as const) await jsm.streams.delete(scopedStreamName(s)).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('allows exactly what each handler declares, and never shows one vault’s requests to another', async () => {
    const ownerWords = secret('ownerrequest');
    const submit = (owner: string, message: string) =>
      rpc.call('rpc.access-keys.submit-request', { user_id: owner, requester_email: 'sam@example.com', relationship: 'Son', message }, undefined);
    await submit(ownerId, ownerWords);
    await submit(anotherOwnerId, secret('otherrequest'));
    // If I'm Not There: a contact and final thoughts only the owner may read.
    const tokenOf = (userId: string) => signer.sign({ sub: userId, sid: randomUUID(), email: `${userId}@example.com`, tier: 'none', admin: false, kind: 'user' }, 600).token;
    const contactName = secret('ownercontact');
    const finalThoughts = secret('ownerthoughts');
    await rpc.call('rpc.access-keys.contacts.add', { id: randomUUID(), name: contactName, label: 'My Friend', email: 'friend@example.com' }, tokenOf(ownerId));
    const settings = { delivery_timing: 'immediately', require_legal_verification: false, allow_preview: false, notify_trustee: false, final_thoughts: finalThoughts };
    await rpc.call('rpc.access-keys.delivery-settings.save', settings, tokenOf(ownerId));

    const result = await runReaderMatrix({
      handlers: running.app.get(RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: signer,
      viewers,
      ownerId,
      anotherOwnerId,
      payloads: {
        'rpc.access-keys.op.list-pending': { owner_id: ownerId },
        'rpc.access-keys.contacts.add': { id: randomUUID(), name: 'Matrix contact', label: 'Other', email: 'matrix@example.com' },
        'rpc.access-keys.delivery-settings.save': { ...settings, final_thoughts: 'whoever saves' },
        'rpc.access-keys.inactivity.save': { period_days: 90 },
        'rpc.access-keys.inactivity.check-in-link': { w: randomUUID(), u: ownerId, exp: '9999999999', sig: 'forged' },
        'rpc.access-keys.inactivity.warning-state': { owner_id: ownerId, warning_id: randomUUID() },
        'rpc.access-keys.request-setting.save': { open: true },
        'rpc.access-keys.request-notice-state': { owner_id: ownerId, request_id: randomUUID() },
      },
      ownerSecrets: [ownerWords, contactName, finalThoughts],
      // Not delivery-settings.get: the matrix's own save (as the owner, in no fixed order) replaces the secret.
      ownerReads: ['rpc.access-keys.list-requests', 'rpc.access-keys.contacts.list'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    const subjects = new Set(result.rows.map((row) => row.subject));
    expect([...subjects]).toEqual(expect.arrayContaining([
      'rpc.access-keys.list-requests', 'rpc.access-keys.approve-request', 'rpc.access-keys.redeem', 'rpc.access-keys.key-status', 'rpc.access-keys.record-view',
      'rpc.access-keys.request-setting.get', 'rpc.access-keys.request-setting.save', 'rpc.access-keys.request-form', 'rpc.access-keys.request-notice-state',
    ]));
    // The request link's switch: owners only (each his own), never a viewer or an anonymous caller.
    const outcome = (subject: string, caller: string) => result.rows.find((r) => r.subject === subject && r.caller === caller)?.outcome;
    for (const subject of ['rpc.access-keys.request-setting.get', 'rpc.access-keys.request-setting.save']) {
      expect({ subject, anonymous: outcome(subject, 'anonymous'), viewer: outcome(subject, 'viewer of this vault'), other: outcome(subject, 'another owner') })
        .toEqual({ subject, anonymous: 'UNAUTHENTICATED', viewer: 'FORBIDDEN', other: 'OK' });
    }
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    expect(result.unexpectedDenials).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);
  });
});
