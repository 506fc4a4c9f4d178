import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import Stripe from 'stripe';
import { BillingEvents, BillingMessages, BillingRpc, type PublishedEvent, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { scopedStreamName } from '@lv/platform/messaging';
import { RpcClient, type RunningService } from '@lv/platform/nest';
import { createTestDatabase, generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import type { BillingConfig } from '../src/config.js';
import { PLAN_FAQ_ANSWER } from '../src/migrations.js';

// billing in-process over the shared NATS (a STACK_ID of its own) on a fresh PostgreSQL database,
// called the way the gateway calls it with users' access tokens. The local provider's signed webhooks
// go to billing over NATS as the gateway's public route forwards them, so the real verification runs.
// A durable consumer reads billing's published events the way identity does (identity's own spec
// proves it turns them into the profile's tier; the e2e spec runs the whole chain).

jest.setTimeout(90_000);

const STACK_ID = uniqueStackId('billing');
process.env.STACK_ID = STACK_ID;
const { billingServiceWith } = await import('../src/billing.definition.js');
const { DurableConsumer } = await import('@lv/platform/event-store');
const { LocalProvider } = await import('../src/providers/payment-provider.js');
const { migrateService, startService } = await import('@lv/platform/nest');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const WEBHOOK_SECRET = randomBytes(32).toString('hex');
const meta = { requestId: 'billing-spec' };

interface Parent { id: string; accessToken: string }

describe('billing service over NATS', () => {
  let billingDb: TestDatabase;
  let consumerDb: TestDatabase;
  let billing: RunningService<BillingConfig>;
  let consumer: InstanceType<typeof DurableConsumer>;
  /** billing's published events, as a consumer receives them. */
  const published: { subject: string; event: PublishedEvent<{ ownerId: string; tier: string }> }[] = [];
  let rpc: RpcClient;
  /** Every webhook the local provider delivered, as signed. */
  const delivered: { body: string; signature: string }[] = [];
  /** Signs provider events the way the local provider does, for the out-of-order cases. */
  const provider = new LocalProvider({ webhookSecret: WEBHOOK_SECRET, publicUrl: 'http://127.0.0.1:3000', sessions: null as never, deliver: () => Promise.resolve() });

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string) => rpc.callUnchecked(declaration, payload, { accessToken, meta });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const webhook = (body: string, signature: string) => call(BillingRpc.webhook, { body, signature }) as Promise<{ outcome: string }>;
  const eventCount = async () => Number((await billingDb.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from events'))[0]!.n);
  /** A signed-in parent (tier none), with the access token identity would issue. */
  const signUp = (admin = false): Parent => {
    const id = randomUUID();
    return { id, accessToken: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin, kind: 'user' }, 600).token };
  };
  /** The tier billing's latest published event leaves the parent on (what identity sets), or 'none'. */
  const tierOf = (parent: Parent) => published.filter((p) => p.event.data.ownerId === parent.id && !p.subject.endsWith('checkout-started.v1')).at(-1)?.event.data.tier ?? 'none';
  const subscription = (parent: Parent) => call(BillingRpc.subscription, {}, parent.accessToken) as Promise<{ status: string; tier: string; current_period_end: string | null }>;

  /** Buys a plan through the local provider's hosted page: checkout, then Pay. */
  async function buy(session: Parent, plan: string) {
    const checkout = (await call(BillingRpc.startCheckout, { plan }, session.accessToken)) as { session_id: string; url: string };
    await call(BillingRpc.localPay, { session_id: checkout.session_id }, session.accessToken);
    return checkout;
  }

  beforeAll(async () => {
    const logger = createLogger('billing-spec', 'silent');
    billingDb = await createTestDatabase([], 'billing');
    const billingEnv = { DATABASE_URL: billingDb.url, NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:3000' };
    const definition = billingServiceWith({
      deliverWebhook: async (body, signature) => {
        delivered.push({ body, signature });
        await rpc.call(BillingRpc.webhook, { body, signature }, { meta });
      },
    });
    await migrateService(definition, billingEnv, logger);
    billing = await startService(definition, billingEnv, { logger });
    rpc = new RpcClient(NATS_URL, 10_000);
    await rpc.connect();
    consumerDb = await createTestDatabase([], 'billingcons');
    consumer = new DurableConsumer({
      name: 'billing-spec-tiers', source: 'billing', events: Object.values(BillingEvents), orm: consumerDb.orm, nats: billing.core.nats, logger, stackId: STACK_ID,
      handle: (_em, event) => {
        published.push({ subject: event.subject, event });
        return Promise.resolve();
      },
    });
    await consumer.start();
  });

  afterAll(async () => {
    await consumer?.stop();
    await rpc?.close();
    await billing?.close();
    const { connectNats } = await import('@lv/platform/messaging');
    const nc = await connectNats(NATS_URL, 'cleanup');
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(scopedStreamName('billing')).catch(() => undefined);
    await nc.close();
    await billingDb?.drop();
    await consumerDb?.drop();
  });

  describe('webhook signatures', () => {
    const body = () => JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'customer.subscription.deleted', created: Math.floor(Date.now() / 1000), data: { object: { id: 'sub_x', status: 'canceled', metadata: { ownerId: randomUUID(), tier: 'pro' } } } });

    it('refuses a body signed with another secret, a changed byte, a missing signature and a stale signature; nothing is recorded', async () => {
      const before = await eventCount();
      const forged = body();
      expect(await codeOf(webhook(forged, Stripe.webhooks.generateTestHeaderString({ payload: forged, secret: 'whsec_not_ours' })))).toBe('VALIDATION_FAILED');
      const genuine = body();
      const signature = Stripe.webhooks.generateTestHeaderString({ payload: genuine, secret: WEBHOOK_SECRET });
      expect(await codeOf(webhook(genuine.replace('"pro"', '"legacy"'), signature))).toBe('VALIDATION_FAILED');
      expect(await codeOf(webhook(genuine, ''))).toBe('VALIDATION_FAILED');
      // Replayed long after it was signed (beyond the 5-minute tolerance): refused even though the bytes are genuine.
      const old = Stripe.webhooks.generateTestHeaderString({ payload: genuine, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
      await expect(webhook(genuine, old)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: BillingMessages.signatureInvalid });
      expect(await eventCount()).toBe(before);
    });

    it('acknowledges a genuine event of a type billing does not act on, and one naming no owner it knows', async () => {
      const other = JSON.stringify({ id: 'evt_other', object: 'event', type: 'invoice.created', created: 1, data: { object: { id: 'in_1' } } });
      expect(await webhook(other, Stripe.webhooks.generateTestHeaderString({ payload: other, secret: WEBHOOK_SECRET }))).toEqual({ received: true, outcome: 'ignored' });
      const nobody = JSON.stringify({ id: 'evt_nobody', object: 'event', type: 'customer.subscription.deleted', created: 1, data: { object: { id: 'sub_unknown', status: 'canceled', metadata: {} } } });
      expect(await webhook(nobody, Stripe.webhooks.generateTestHeaderString({ payload: nobody, secret: WEBHOOK_SECRET }))).toEqual({ received: true, outcome: 'ignored' });
    });
  });

  it('buys Pro through the hosted checkout: the activation is published with the tier, and a replayed webhook changes nothing', async () => {
    const parent = signUp();
    const checkout = (await call(BillingRpc.startCheckout, { plan: 'pro' }, parent.accessToken)) as { session_id: string; url: string };
    expect(checkout.url).toBe(`http://127.0.0.1:3000/checkout/local?session=${checkout.session_id}`);
    expect(await subscription(parent)).toMatchObject({ status: 'pending', tier: 'none' });
    // Another owner cannot see or pay this session.
    const stranger = signUp();
    expect(await codeOf(call(BillingRpc.localSession, { session_id: checkout.session_id }, stranger.accessToken))).toBe('NOT_FOUND');
    expect(await codeOf(call(BillingRpc.localPay, { session_id: checkout.session_id }, stranger.accessToken))).toBe('NOT_FOUND');

    const sent = delivered.length;
    expect(await call(BillingRpc.localPay, { session_id: checkout.session_id }, parent.accessToken)).toMatchObject({ status: 'paid', tier: 'pro' });
    expect(delivered.slice(sent).map((d) => (JSON.parse(d.body) as { type: string }).type)).toEqual(['checkout.session.completed', 'customer.subscription.created']);
    const view = await subscription(parent);
    expect(view).toMatchObject({ status: 'active', tier: 'pro' });
    expect(Date.parse(view.current_period_end!)).toBeGreaterThan(Date.now() + 27 * 24 * 3600 * 1000);
    const kindsPublished = () => published.filter((p) => p.event.data.ownerId === parent.id).map((p) => p.subject.split('.').slice(-2, -1)[0]);
    await waitFor(() => tierOf(parent) === 'pro', 10_000, 'the activation with tier pro to be published');
    // The relay publishes in batches: the period's start (renewed) may follow the activation a moment later.
    await waitFor(() => kindsPublished().length >= 3, 10_000, 'the three events to be published');
    expect(kindsPublished()).toEqual(['checkout-started', 'activated', 'renewed']);
    // Published payloads carry no provider id, customer or card.
    expect(JSON.stringify(published.filter((p) => p.event.data.ownerId === parent.id))).not.toMatch(/sub_local|cus_local|cs_local/);

    // The provider delivers the same events again (its retry after a lost answer): no second effect.
    const before = await eventCount();
    for (const { body, signature } of delivered.slice(sent)) expect(await webhook(body, signature)).toEqual({ received: true, outcome: 'duplicate' });
    // Pay pressed again: the same events, recognised as replays.
    await call(BillingRpc.localPay, { session_id: checkout.session_id }, parent.accessToken);
    expect(await eventCount()).toBe(before);
    // A second checkout while the plan is active is refused, naming the plan.
    await expect(call(BillingRpc.startCheckout, { plan: 'legacy' }, parent.accessToken)).rejects.toMatchObject({ code: 'CONFLICT', message: BillingMessages.changeWhileActive('Pro') });
  });

  it('passes a promo code on to the provider: its checkout page has it; a checkout without one has none', async () => {
    const parent = signUp();
    const withCode = (await call(BillingRpc.startCheckout, { plan: 'legacy', promo_code: 'SPRING-26' }, parent.accessToken)) as { session_id: string };
    expect(await call(BillingRpc.localSession, { session_id: withCode.session_id }, parent.accessToken)).toMatchObject({ tier: 'legacy', status: 'open', promo_code: 'SPRING-26' });
    const without = (await call(BillingRpc.startCheckout, { plan: 'pro' }, parent.accessToken)) as { session_id: string };
    expect(await call(BillingRpc.localSession, { session_id: without.session_id }, parent.accessToken)).toMatchObject({ tier: 'pro', promo_code: null });
    // A code no provider issues is refused at the door, before any checkout starts.
    expect(await codeOf(call(BillingRpc.startCheckout, { plan: 'pro', promo_code: 'spring 26; drop' }, parent.accessToken))).toBe('VALIDATION_FAILED');
  });

  it('cancels at the period end: the tier stays until the provider ends the subscription, then it is none', async () => {
    const parent = signUp();
    await buy(parent, 'essentials');
    await waitFor(() => tierOf(parent) === 'essentials', 10_000, 'the tier essentials');
    const periodEnd = (await subscription(parent)).current_period_end;

    const cancelled = (await call(BillingRpc.cancel, {}, parent.accessToken)) as { status: string; tier: string; current_period_end: string };
    expect(cancelled).toMatchObject({ status: 'cancelling', tier: 'essentials', current_period_end: periodEnd, cancel_at_period_end: true });
    // The provider's own confirmation of the cancellation (its customer.subscription.updated) arrived and changed nothing more.
    expect(JSON.parse(delivered.at(-1)!.body)).toMatchObject({ type: 'customer.subscription.updated', data: { object: { cancel_at_period_end: true } } });
    // The cancellation is published (the sentinel) and leaves the owner on his tier until the period ends.
    await waitFor(() => published.some((p) => p.event.data.ownerId === parent.id && p.subject.endsWith('cancel-requested.v1')), 10_000, 'the cancellation to be published');
    expect(tierOf(parent)).toBe('essentials');
    expect(await codeOf(call(BillingRpc.cancel, {}, parent.accessToken))).toBe('OK');

    // At the period end the provider deletes the subscription.
    const { subscription: subscriptionId } = JSON.parse(delivered.find((d) => d.body.includes(parent.id) && d.body.includes('checkout.session.completed'))!.body).data.object as { subscription: string };
    const ended = provider.signed(`evt_end_${randomUUID()}`, 'customer.subscription.deleted', Math.floor(Date.now() / 1000) + 5, { id: subscriptionId, status: 'canceled', metadata: { ownerId: parent.id, tier: 'essentials' } });
    expect(await webhook(ended.body, ended.signature)).toEqual({ received: true, outcome: 'applied' });
    expect(await subscription(parent)).toMatchObject({ status: 'ended', tier: 'none' });
    await waitFor(() => published.some((p) => p.event.data.ownerId === parent.id && p.subject.endsWith('ended.v1')), 10_000, 'the end to be published');
    expect(tierOf(parent)).toBe('none');
    expect(await codeOf(call(BillingRpc.cancel, {}, parent.accessToken))).toBe('CONFLICT');
  });

  it('changes plan while active: the tier moves when the provider’s signed update arrives; the same plan, no plan, a replay and a cancelled plan change nothing', async () => {
    const nobody = signUp();
    await expect(call(BillingRpc.changePlan, { plan: 'legacy' }, nobody.accessToken)).rejects.toMatchObject({ code: 'CONFLICT', message: BillingMessages.noPlanToChange });
    expect(await codeOf(call(BillingRpc.changePlan, { plan: 'gold' }, nobody.accessToken))).toBe('VALIDATION_FAILED');
    expect(await codeOf(call(BillingRpc.changePlan, { plan: 'legacy' }))).toBe('UNAUTHENTICATED');

    const parent = signUp();
    await buy(parent, 'pro');
    await waitFor(() => tierOf(parent) === 'pro', 10_000, 'the tier pro');
    await expect(call(BillingRpc.changePlan, { plan: 'pro' }, parent.accessToken)).rejects.toMatchObject({ code: 'CONFLICT', message: BillingMessages.alreadySubscribed('Pro') });

    const sent = delivered.length;
    const changed = (await call(BillingRpc.changePlan, { plan: 'legacy' }, parent.accessToken)) as { status: string; tier: string; current_period_end: string };
    // The local provider's customer.subscription.updated, signed, went through the webhook route before the answer.
    const update = delivered.slice(sent);
    expect(update.map((d) => JSON.parse(d.body) as unknown)).toEqual([expect.objectContaining({ type: 'customer.subscription.updated', data: { object: expect.objectContaining({ metadata: { ownerId: parent.id, tier: 'legacy' } }) } })]);
    expect(changed).toMatchObject({ status: 'active', tier: 'legacy' });
    // Monthly to yearly: a new period of a year starts, as Stripe bills it.
    expect(Date.parse(changed.current_period_end)).toBeGreaterThan(Date.now() + 360 * 24 * 3600 * 1000);
    await waitFor(() => tierOf(parent) === 'legacy', 10_000, 'the tier legacy to be published');

    // The provider's retry of the same update: a duplicate, nothing recorded.
    const before = await eventCount();
    expect(await webhook(update[0]!.body, update[0]!.signature)).toEqual({ received: true, outcome: 'duplicate' });
    expect(await eventCount()).toBe(before);
    expect(await subscription(parent)).toMatchObject({ tier: 'legacy' });

    // Cancelling afterwards keeps the new plan until the period ends; no change of plan while it runs out.
    expect(await call(BillingRpc.cancel, {}, parent.accessToken)).toMatchObject({ status: 'cancelling', tier: 'legacy' });
    await expect(call(BillingRpc.changePlan, { plan: 'essentials' }, parent.accessToken)).rejects.toMatchObject({ code: 'CONFLICT', message: BillingMessages.changeWhileCancelling });
    expect(await subscription(parent)).toMatchObject({ status: 'cancelling', tier: 'legacy' });
  });

  it('handles events out of order: a deletion before the checkout completes keeps it ended; an older update never undoes a newer one', async () => {
    const parent = signUp();
    const ownerId = parent.id;
    const metadata = { ownerId, tier: 'pro' };
    const now = Math.floor(Date.now() / 1000);
    const send = (type: string, created: number, object: Record<string, unknown>) => {
      const { body, signature } = provider.signed(`evt_${randomUUID()}`, type, created, object);
      return webhook(body, signature);
    };
    expect(await send('customer.subscription.deleted', now + 10, { id: 'sub_gone', status: 'canceled', metadata })).toMatchObject({ outcome: 'applied' });
    expect(await send('checkout.session.completed', now, { id: 'cs_gone', mode: 'subscription', client_reference_id: ownerId, subscription: 'sub_gone', metadata })).toMatchObject({ outcome: 'ignored' });
    expect(await subscription(parent)).toMatchObject({ status: 'ended', tier: 'none' });

    // A new subscription, then its updates arriving newest first.
    const item = (days: number) => ({ data: [{ current_period_end: now + days * 24 * 3600 }] });
    await send('customer.subscription.created', now + 20, { id: 'sub_new', status: 'active', items: item(30), metadata });
    expect(await send('customer.subscription.updated', now + 40, { id: 'sub_new', status: 'active', items: item(60), metadata })).toMatchObject({ outcome: 'applied' });
    expect(await send('customer.subscription.updated', now + 30, { id: 'sub_new', status: 'active', items: item(45), metadata })).toMatchObject({ outcome: 'ignored' });
    const view = await subscription(parent);
    expect(view).toMatchObject({ status: 'active', tier: 'pro', current_period_end: new Date((now + 60 * 24 * 3600) * 1000).toISOString() });
    await waitFor(() => tierOf(parent) === 'pro', 10_000, 'the tier pro');
  });

  describe('FAQ', () => {
    const adminToken = () => signUp(true).accessToken;

    it('lists the seeded entries to anyone, active only, by display order', async () => {
      const faq = (await call(BillingRpc.faq, {})) as { question: string; answer: string; display_order: number }[];
      expect(faq.map((f) => f.question)).toEqual(['What does each plan include?', 'How do access keys work?', 'Can I cancel at any time?', 'What happens to my vault if I cancel?', 'How is my payment taken?']);
      // The plans answer says what the plans table gives (no audio with Essentials).
      expect(faq[0]!.answer).toBe(PLAN_FAQ_ANSWER);
    });

    it('lets an admin add, edit, deactivate and reorder entries; nobody else', async () => {
      const parent = signUp();
      expect(await codeOf(call(BillingRpc.faqSave, { question: 'Q?', answer: 'A.', is_active: true, display_order: 0 }, parent.accessToken))).toBe('FORBIDDEN');
      expect(await codeOf(call(BillingRpc.faqAll, {}, parent.accessToken))).toBe('FORBIDDEN');
      expect(await codeOf(call(BillingRpc.faqSave, { question: 'Q?', answer: 'A.', is_active: true, display_order: 0 }))).toBe('UNAUTHENTICATED');
      expect(await codeOf(call(BillingRpc.faqSave, { question: '   ', answer: 'A.', is_active: true, display_order: 0 }, adminToken()))).toBe('VALIDATION_FAILED');

      const added = (await call(BillingRpc.faqSave, { question: '  Is there a family discount? ', answer: 'Not yet.', is_active: true, display_order: 0 }, adminToken())) as { id: string; question: string };
      expect(added.question).toBe('Is there a family discount?');
      expect(((await call(BillingRpc.faq, {})) as { id: string }[])[0]!.id).toBe(added.id);
      await call(BillingRpc.faqSave, { id: added.id, question: added.question, answer: 'Not yet.', is_active: false, display_order: 0 }, adminToken());
      expect(((await call(BillingRpc.faq, {})) as { id: string }[]).map((f) => f.id)).not.toContain(added.id);
      expect(((await call(BillingRpc.faqAll, {}, adminToken())) as { id: string }[]).map((f) => f.id)).toContain(added.id);
      expect(await codeOf(call(BillingRpc.faqSave, { id: randomUUID(), question: 'Q?', answer: 'A.', is_active: true, display_order: 1 }, adminToken()))).toBe('NOT_FOUND');
    });
  });
});
