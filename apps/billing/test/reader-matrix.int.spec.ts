import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { AccessTokenSigner } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, createTestDatabase, generateTestKeys, runReaderMatrix, uniqueStackId, type TestDatabase } from '@lv/testing';

// Every billing handler against every kind of caller (libs/testing runReaderMatrix), on the running
// service's own handler registry: a handler added later is in the matrix without anyone listing it.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('billingmx');
process.env.STACK_ID = STACK_ID;
const { billingServiceWith } = await import('../src/billing.definition.js');
const { RpcHandlerRegistry, migrateService, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');
const { connectNats, scopedStreamName } = await import('@lv/platform/messaging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const ownerId = randomUUID();
const anotherOwnerId = randomUUID();
const tokenOf = (userId: string, admin = false) => signer.sign({ sub: userId, sid: randomUUID(), email: `${userId}@example.com`, tier: 'none', admin, kind: 'user' }, 600).token;

/** FAQ administration: open to owners by declaration, then refused by billing unless the token's admin claim is set. */
const ADMIN_ONLY = ['rpc.billing.faq.all', 'rpc.billing.faq.save'];

describe('billing reader matrix', () => {
  let db: TestDatabase;
  let running: Awaited<ReturnType<typeof startService>>;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;

  beforeAll(async () => {
    db = await createTestDatabase([], 'billingmx');
    const env = {
      DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, LOG_LEVEL: 'silent',
      LOCAL_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
    };
    const logger = createLogger('billing-matrix', 'silent');
    // Pay's webhooks are dropped here: this spec is about who may call what, not about payments.
    const definition = billingServiceWith({ deliverWebhook: () => Promise.resolve() });
    await migrateService(definition, env, logger);
    running = await startService(definition, env, { logger });
    viewers = new TestViewerIssuer(running.core.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await running?.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('billing')).catch(() => undefined);
    await nc.close();
    await db?.drop();
  });

  it('allows exactly what each handler declares, and never shows one owner’s checkout to another', async () => {
    // The owner's checkout session: its id is what only the owner may see or pay.
    const checkout = await rpc.call<{ session_id: string }>('rpc.billing.start-checkout', { plan: 'pro' }, tokenOf(ownerId));
    await rpc.call('rpc.billing.start-checkout', { plan: 'legacy' }, tokenOf(anotherOwnerId));

    const result = await runReaderMatrix({
      handlers: running.app.get(RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: signer,
      viewers,
      ownerId,
      anotherOwnerId,
      payloads: {
        'rpc.billing.start-checkout': { plan: 'essentials' },
        'rpc.billing.change-plan': { plan: 'legacy' },
        'rpc.billing.local.session': { session_id: checkout.session_id },
        'rpc.billing.local.pay': { session_id: checkout.session_id },
        'rpc.billing.local.cancel': { session_id: checkout.session_id },
        'rpc.billing.faq.save': { question: 'Who may write here?', answer: 'Admins only.', is_active: false, display_order: 99 },
        'rpc.billing.webhook': { body: '{}', signature: 't=1,v1=0' },
      },
      ownerSecrets: [checkout.session_id],
      ownerReads: ['rpc.billing.local.session'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    const subjects = new Set(result.rows.map((row) => row.subject));
    expect([...subjects]).toEqual(expect.arrayContaining(['rpc.billing.subscription', 'rpc.billing.start-checkout', 'rpc.billing.cancel', 'rpc.billing.change-plan', 'rpc.billing.webhook', 'rpc.billing.faq']));
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    // The only denials beyond the declarations: a non-admin owner's FAQ administration.
    const denials = result.unexpectedDenials;
    expect(denials.filter((row) => !ADMIN_ONLY.includes(row.subject))).toEqual([]);
    expect(denials.every((row) => row.outcome === 'FORBIDDEN' && (row.caller === 'owner' || row.caller === 'another owner'))).toBe(true);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);

    // An admin's token passes the FAQ administration the matrix's owners were refused.
    await expect(rpc.call('rpc.billing.faq.all', {}, tokenOf(randomUUID(), true))).resolves.toEqual(expect.any(Array));
    // The other owner's checkout is not found by this one (an empty answer is not what keeps them out).
    await expect(rpc.call('rpc.billing.local.session', { session_id: checkout.session_id }, tokenOf(anotherOwnerId))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
