import Stripe from 'stripe';
import { StripeProvider } from './payment-provider.js';
import { webhookFact } from './webhook-facts.js';

const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const event = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', object: 'event', type, created: 1_795_000_000, data: { object } });

describe('webhookFact (a verified provider event -> what the decider applies)', () => {
  it('reads a completed subscription checkout: owner from client_reference_id, plan from metadata', () => {
    expect(webhookFact(event('checkout.session.completed', {
      id: 'cs_1', mode: 'subscription', client_reference_id: owner.toUpperCase(), customer: 'cus_1', subscription: { id: 'sub_1' }, metadata: { ownerId: owner, tier: 'pro' },
    }))).toEqual({ ownerId: owner, fact: { kind: 'checkout-completed', eventId: 'evt_1', created: 1_795_000_000, sessionId: 'cs_1', subscriptionId: 'sub_1', customerId: 'cus_1', tier: 'pro' } });
  });

  it('takes the period end from the subscription’s items (API 2026), else the subscription', () => {
    const state = (extra: Record<string, unknown>) => webhookFact(event('customer.subscription.updated', { id: 'sub_1', status: 'active', cancel_at_period_end: true, metadata: { ownerId: owner, tier: 'legacy' }, ...extra }));
    expect(state({ items: { data: [{ current_period_end: 1_800_000_000 }] } })?.fact).toMatchObject({ kind: 'subscription-state', tier: 'legacy', periodEnd: new Date(1_800_000_000_000).toISOString(), cancelAtPeriodEnd: true });
    expect(state({ current_period_end: 1_790_000_000 })?.fact).toMatchObject({ periodEnd: new Date(1_790_000_000_000).toISOString() });
    expect(state({})?.fact).toMatchObject({ periodEnd: null });
  });

  it('ignores what billing does not act on: other types, one-off payments, subscriptions it did not start', () => {
    expect(webhookFact(event('invoice.paid', { id: 'in_1' }))).toBeNull();
    expect(webhookFact(event('checkout.session.completed', { id: 'cs_1', mode: 'payment', metadata: { tier: 'pro' } }))).toBeNull();
    expect(webhookFact(event('customer.subscription.created', { id: 'sub_9', status: 'active', metadata: {} }))).toBeNull();
  });

  it('finds the owner of a deletion by the subscription when the event names none', () => {
    expect(webhookFact(event('customer.subscription.deleted', { id: 'sub_1', status: 'canceled', metadata: null }))).toEqual({ ownerId: null, fact: { kind: 'subscription-deleted', eventId: 'evt_1', created: 1_795_000_000, subscriptionId: 'sub_1' } });
    expect(webhookFact(event('customer.subscription.deleted', { id: 'sub_1', status: 'canceled', metadata: { ownerId: 'not-a-uuid' } }))?.ownerId).toBeNull();
  });

  it('refuses a handled type whose object is malformed', () => {
    expect(() => webhookFact(event('customer.subscription.updated', { id: 'sub_1', status: 'exploded', metadata: { tier: 'pro' } }))).toThrow();
    expect(() => webhookFact({ type: 'customer.subscription.updated' })).toThrow();
  });
});

describe('StripeProvider.verifyWebhook', () => {
  const provider = new StripeProvider('sk_test_unused', 'whsec_spec');
  const body = JSON.stringify(event('customer.subscription.deleted', { id: 'sub_1', status: 'canceled', metadata: {} }));

  it('accepts the exact body signed with the endpoint’s secret, and nothing else', () => {
    expect(provider.verifyWebhook(body, Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_spec' }))).toMatchObject({ id: 'evt_1' });
    expect(() => provider.verifyWebhook(body, Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' }))).toThrow();
    expect(() => provider.verifyWebhook(`${body} `, Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_spec' }))).toThrow();
    expect(() => provider.verifyWebhook(body, Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_spec', timestamp: Math.floor(Date.now() / 1000) - 301 }))).toThrow();
  });
});
