import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { BillingRpc, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { RpcClient, type RunningService } from '@lv/platform/nest';
import {
  createTestDatabase, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, publishAccountErased, uniqueStackId, waitFor, waitForIdentityConsumer, type TestDatabase,
} from '@lv/testing';
import type { BillingConfig } from '../src/config.js';

// Issue 32, "Delete my account", billing's part: identity's AccountErased, consumed from JetStream,
// cancels the owner's subscription at the provider as his Cancel Subscription would (no charge for a
// vault that is gone), once; another owner's plan is untouched. billing keeps no name or address.

jest.setTimeout(90_000);

const STACK_ID = uniqueStackId('billacct');
process.env.STACK_ID = STACK_ID;
const { billingServiceWith } = await import('../src/billing.definition.js');
const { migrateService, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const WEBHOOK_SECRET = randomBytes(32).toString('hex');
const meta = { requestId: 'billing-erasure-spec' };

describe('billing: an erased account', () => {
  let db: TestDatabase;
  let billing: RunningService<BillingConfig>;
  let rpc: RpcClient;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string) => rpc.callUnchecked(declaration, payload, { accessToken, meta });
  const parent = () => {
    const id = randomUUID();
    return { id, accessToken: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, kind: 'user' }, 600).token };
  };
  const subscription = (who: { accessToken: string }) => call(BillingRpc.subscription, {}, who.accessToken) as Promise<{ status: string; tier: string; cancel_at_period_end: boolean }>;
  const buy = async (who: { accessToken: string }, plan: string) => {
    const checkout = (await call(BillingRpc.startCheckout, { plan }, who.accessToken)) as { session_id: string };
    await call(BillingRpc.localPay, { session_id: checkout.session_id }, who.accessToken);
  };

  beforeAll(async () => {
    const logger = createLogger('billing-erasure-spec', 'silent');
    db = await createTestDatabase([], 'billacct');
    // identity owns its stream; the spec stands in for it and publishes as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    const env = { DATABASE_URL: db.url, NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:3000' };
    // The local provider's signed webhooks go to billing over NATS, as the gateway's public route forwards them.
    const definition = billingServiceWith({ deliverWebhook: async (body, signature) => void (await rpc.call(BillingRpc.webhook, { body, signature }, { meta })) });
    await migrateService(definition, env, logger);
    billing = await startService(definition, env, { logger });
    rpc = new RpcClient(NATS_URL, 10_000);
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await billing?.close();
    await deleteStackStreams(NATS_URL, ['identity', 'billing'], STACK_ID);
    await db?.drop();
  });

  it('cancels the owner\'s subscription, once, and not another owner\'s', async () => {
    const dad = parent();
    const mum = parent();
    await buy(dad, 'pro');
    await buy(mum, 'pro');
    await waitFor(async () => (await subscription(dad)).status === 'active' && (await subscription(mum)).status === 'active', 10_000, 'both plans to be active');

    const nats = billing.core.nats;
    const eventId = await publishAccountErased(nats, dad.id, STACK_ID);
    // The same event again (a relay that lost its ack, past JetStream's duplicate window): the inbox keeps it once.
    await publishAccountErased(nats, dad.id, STACK_ID, { eventId, messageId: randomUUID() });
    await waitForIdentityConsumer(nats, 'billing-account-erasures', STACK_ID, 2);

    expect(await subscription(dad)).toMatchObject({ cancel_at_period_end: true });
    const cancels = await db.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where stream_id = ? and type = 'CancelRequested'`, [`subscription-${dad.id}`]);
    expect(cancels).toEqual([{ n: 1 }]);
    expect(await db.orm.em.fork().execute('select consumer from inbox where event_id = ?', [eventId])).toEqual([{ consumer: 'billing-account-erasures' }]);
    expect(await subscription(mum)).toMatchObject({ status: 'active', cancel_at_period_end: false });

    // An account with no plan is erased with nothing to cancel: handled, and nothing recorded.
    const stranger = randomUUID();
    const second = await publishAccountErased(nats, stranger, STACK_ID);
    await waitFor(async () => (await db.orm.em.fork().execute('select 1 from inbox where event_id = ?', [second])).length === 1, 20_000, 'the second erasure to be handled');
    expect(await db.orm.em.fork().execute('select 1 from events where stream_id = ?', [`subscription-${stranger}`])).toEqual([]);
  });
});
