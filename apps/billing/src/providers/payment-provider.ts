import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { PLAN_CHARGES, planOf, type PaidTier } from '@lv/contracts';

/** What a checkout needs from the provider: who pays, for which plan, and where the browser comes back. */
export interface CheckoutRequest {
  ownerId: string;
  email: string;
  tier: PaidTier;
  /** A promo code to apply on the hosted page (the pricing link's), or null. */
  promoCode: string | null;
  successUrl: string;
  cancelUrl: string;
}

/**
 * The seam between billing and whoever takes the money. Both providers speak Stripe's shapes: a
 * hosted checkout page per session, events signed with the `Stripe-Signature` scheme and verified
 * by `Stripe.webhooks.constructEvent`, so the same verification, dedupe and ordering run for both.
 */
export interface PaymentProvider {
  readonly name: 'stripe' | 'local';
  /** Creates a hosted checkout session; the browser is sent to `url`. */
  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /**
   * Asks the provider to end the subscription when the paid period ends (access stays until then).
   * `tier` is the plan it is on now (after any change of plan), which the provider's event restates.
   */
  cancelAtPeriodEnd(subscriptionId: string, tier: PaidTier): Promise<void>;
  /**
   * Moves the subscription to another plan, prorated by the provider. Nothing changes here: the
   * provider's `customer.subscription.updated` (the new tier in its metadata) is what moves the tier.
   */
  changePlan(subscriptionId: string, change: PlanChange): Promise<void>;
  /** The event inside a webhook body whose signature is valid and recent; throws otherwise. */
  verifyWebhook(body: string, signature: string): unknown;
}

/** A change of plan asked of the provider: whose subscription, from which plan, to which. */
export interface PlanChange {
  ownerId: string;
  from: PaidTier;
  to: PaidTier;
}

/** Stripe's default tolerance: a signed body older than this is refused (a replay from long ago). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const productName = (tier: PaidTier) => `Legacy Vault ${planOf(tier).name}`;

/** Stripe: a hosted Checkout Session per plan (prices inline, from PLAN_CHARGES), webhooks signed by Stripe. */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  /** `api`: where Stripe's API answers (its own host by default; a stand-in such as stripe-mock in tests). */
  constructor(secretKey: string, private readonly webhookSecret: string, api: Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> = {}) {
    this.stripe = new Stripe(secretKey, api);
  }

  async createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    const charge = PLAN_CHARGES[request.tier];
    // Metadata on the session and on the subscription: every later event names the owner and the plan.
    const metadata = { ownerId: request.ownerId, tier: request.tier };
    const session = await this.stripe.checkout.sessions.create({
      ...(await this.promotion(request.promoCode)),
      mode: 'subscription',
      client_reference_id: request.ownerId,
      customer_email: request.email,
      line_items: [{
        quantity: 1,
        price_data: { currency: charge.currency, unit_amount: charge.amount, recurring: { interval: charge.interval }, product_data: { name: productName(request.tier) } },
      }],
      metadata,
      subscription_data: { metadata },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { sessionId: session.id, url: session.url };
  }

  /**
   * A code is applied through the promotion code Stripe knows it by; one Stripe does not know (or no
   * longer honours) leaves the page's own promo field open, so the customer can try another.
   */
  private async promotion(code: string | null): Promise<{ discounts?: { promotion_code: string }[]; allow_promotion_codes?: boolean }> {
    if (!code) return {};
    const found = await this.stripe.promotionCodes.list({ code, active: true, limit: 1 });
    return found.data[0] ? { discounts: [{ promotion_code: found.data[0].id }] } : { allow_promotion_codes: true };
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
  }

  async changePlan(subscriptionId: string, change: PlanChange): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no item to change`);
    const price = await this.priceOf(change.to);
    // The metadata moves with the plan: the subscription.updated event that follows names the new tier.
    await this.stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item.id, price }],
      proration_behavior: 'create_prorations',
      metadata: { ownerId: change.ownerId, tier: change.to },
    });
  }

  /**
   * A subscription item can only be moved to a Price object (checkout prices inline), so each plan's
   * charge has one, found by a lookup key naming the charge: a changed price gets a new key, and the
   * idempotency key keeps two simultaneous first changes from creating two.
   */
  private async priceOf(tier: PaidTier): Promise<string> {
    const charge = PLAN_CHARGES[tier];
    const lookupKey = `legacy-vault-${tier}-${charge.amount}-${charge.currency}-${charge.interval}`;
    const found = await this.stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const created = await this.stripe.prices.create(
      { currency: charge.currency, unit_amount: charge.amount, recurring: { interval: charge.interval }, product_data: { name: productName(tier) }, lookup_key: lookupKey },
      { idempotencyKey: `price-${lookupKey}` },
    );
    return created.id;
  }

  verifyWebhook(body: string, signature: string): unknown {
    return Stripe.webhooks.constructEvent(body, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  }
}

/** A session of the local provider's hosted page (billing's own table, local_checkout_sessions). */
export interface LocalSessionRow {
  id: string;
  owner_id: string;
  tier: PaidTier;
  status: 'open' | 'paid' | 'cancelled';
  subscription_id: string | null;
  /** The promo code the checkout was opened with: the local page shows it (nothing is charged either way). */
  promo_code: string | null;
  success_url: string;
  cancel_url: string;
}

export interface LocalSessionStore {
  insert(row: LocalSessionRow): Promise<void>;
  find(id: string): Promise<LocalSessionRow | null>;
  findBySubscription(subscriptionId: string): Promise<LocalSessionRow | null>;
  /** Moves an open session on; false when it was not open any more (a double click, two tabs). */
  close(id: string, status: 'paid' | 'cancelled', subscriptionId: string | null): Promise<boolean>;
}

/** Sends a signed webhook body to the public webhook route (over HTTP, as the provider would). */
export type WebhookDelivery = (body: string, signature: string) => Promise<void>;

const MONTH_MS = 30 * 24 * 3600 * 1000;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** The end of a period of the plan's interval starting at `now` (epoch ms), in epoch seconds. */
const periodEndFrom = (now: number, tier: PaidTier) => Math.floor((now + (PLAN_CHARGES[tier].interval === 'year' ? YEAR_MS : MONTH_MS)) / 1000);

/**
 * The local development provider: its hosted checkout is a page of the app (/checkout/local), and on
 * Pay it sends the events Stripe would (checkout.session.completed, customer.subscription.created),
 * signed with Stripe's scheme, to the same public webhook route. Nothing is charged; production
 * refuses to start with it (config.ts).
 */
export class LocalProvider implements PaymentProvider {
  readonly name = 'local';

  constructor(
    private readonly options: { webhookSecret: string; publicUrl: string; sessions: LocalSessionStore; deliver: WebhookDelivery; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    const sessionId = `cs_local_${randomBytes(16).toString('hex')}`;
    return this.options.sessions
      .insert({ id: sessionId, owner_id: request.ownerId, tier: request.tier, status: 'open', subscription_id: null, promo_code: request.promoCode, success_url: request.successUrl, cancel_url: request.cancelUrl })
      .then(() => ({ sessionId, url: new URL(`/checkout/local?session=${sessionId}`, this.options.publicUrl).toString() }));
  }

  /**
   * Pay on the hosted page: delivers the events Stripe would send, then marks the session paid. Ids
   * derive from the session, so a retry (a double click, a delivery that failed half-way) sends the
   * same events again, which billing recognises as replays.
   */
  async pay(session: LocalSessionRow): Promise<void> {
    const key = session.id.slice('cs_local_'.length);
    const subscriptionId = `sub_local_${key}`;
    const customer = `cus_local_${session.owner_id.replace(/-/g, '').slice(0, 16)}`;
    const metadata = { ownerId: session.owner_id, tier: session.tier };
    const now = this.now();
    const periodEnd = periodEndFrom(now, session.tier);
    const created = Math.floor(now / 1000);
    await this.send(`evt_local_${key}_completed`, 'checkout.session.completed', created, {
      id: session.id, object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: session.owner_id, customer, subscription: subscriptionId, metadata,
    });
    await this.send(`evt_local_${key}_created`, 'customer.subscription.created', created, this.subscriptionObject(subscriptionId, customer, metadata, periodEnd, false));
    await this.options.sessions.close(session.id, 'paid', subscriptionId);
  }

  async cancelAtPeriodEnd(subscriptionId: string, tier: PaidTier): Promise<void> {
    const session = await this.subscriptionSession(subscriptionId);
    // The period is not kept here; the event states the cancellation, billing keeps the period it knows.
    const metadata = { ownerId: session.owner_id, tier };
    await this.send(`evt_local_${subscriptionId.slice('sub_local_'.length)}_cancel`, 'customer.subscription.updated', Math.floor(this.now() / 1000), this.subscriptionObject(subscriptionId, null, metadata, null, true));
  }

  /**
   * As Stripe does: the new plan in the subscription's metadata, and a new period from now when the
   * billing interval changes (month to year); within the same interval the period stays as it is.
   */
  async changePlan(subscriptionId: string, change: PlanChange): Promise<void> {
    const session = await this.subscriptionSession(subscriptionId);
    const now = this.now();
    const periodEnd = PLAN_CHARGES[change.from].interval === PLAN_CHARGES[change.to].interval ? null : periodEndFrom(now, change.to);
    // Each change is its own provider event (a switch back and forth is two changes, not a replay).
    const eventId = `evt_local_${subscriptionId.slice('sub_local_'.length)}_plan_${randomBytes(8).toString('hex')}`;
    await this.send(eventId, 'customer.subscription.updated', Math.floor(now / 1000), this.subscriptionObject(subscriptionId, null, { ownerId: session.owner_id, tier: change.to }, periodEnd, false));
  }

  private async subscriptionSession(subscriptionId: string): Promise<LocalSessionRow> {
    const session = await this.options.sessions.findBySubscription(subscriptionId);
    if (!session) throw new Error(`the local provider has no subscription ${subscriptionId}`);
    return session;
  }

  verifyWebhook(body: string, signature: string): unknown {
    return Stripe.webhooks.constructEvent(body, signature, this.options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  }

  /** Signs an event body the way Stripe does (t=…,v1=HMAC-SHA256) and delivers it. */
  signed(eventId: string, type: string, created: number, object: Record<string, unknown>): { body: string; signature: string } {
    const body = JSON.stringify({ id: eventId, object: 'event', type, created, livemode: false, data: { object } });
    return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: this.options.webhookSecret }) };
  }

  private async send(eventId: string, type: string, created: number, object: Record<string, unknown>): Promise<void> {
    const { body, signature } = this.signed(eventId, type, created, object);
    await this.options.deliver(body, signature);
  }

  private subscriptionObject(id: string, customer: string | null, metadata: Record<string, string>, periodEnd: number | null, cancelAtPeriodEnd: boolean) {
    return {
      id, object: 'subscription', customer, status: 'active', cancel_at_period_end: cancelAtPeriodEnd, metadata,
      items: { object: 'list', data: periodEnd === null ? [] : [{ object: 'subscription_item', current_period_end: periodEnd }] },
    };
  }
}

/** Delivers to the gateway's public webhook route over HTTP, as a provider does (the local provider's default). */
export function httpWebhookDelivery(url: string): WebhookDelivery {
  return async (body, signature) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`webhook delivery to ${url} answered ${response.status}`);
  };
}
