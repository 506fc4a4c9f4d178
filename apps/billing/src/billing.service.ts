import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import {
  BillingMessages, isPaidTier, type CheckoutSession, type FaqEntry, type LocalCheckoutSession, type PaidTier, type RequestMeta, type SaveFaqRequest, type SubscriptionView,
  type WebhookReply,
} from '@lv/contracts';
import { accountOf, ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { aggregateStream, EventStore, handleCommand, rebuildProjections, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { FaqRepository } from './faq/faq.repository.js';
import type { LocalProvider, LocalSessionRow, LocalSessionStore, PaymentProvider } from './providers/payment-provider.js';
import { webhookFact } from './providers/webhook-facts.js';
import { billingPublishPolicy } from './subscription/publish-policy.js';
import {
  SUBSCRIPTION_STREAM_TYPE, subscriptionDecider, subscriptionStreamId, type SubscriptionCommand, type SubscriptionState,
} from './subscription/subscription.decider.js';
import { findOwnerOfSubscription, findSubscription, subscriptionsProjection } from './subscription/subscriptions.projection.js';

export interface BillingServiceDeps {
  orm: MikroORM;
  provider: PaymentProvider;
  /** The local provider's sessions (its hosted page); null with Stripe. */
  local: { provider: LocalProvider; sessions: LocalSessionStore } | null;
  /** Where people come back to after the provider's page (PUBLIC_URL). */
  publicUrl: string;
  logger: Pick<Logger, 'info' | 'warn'>;
}

const systemMetadata = (requestId?: string): EventMetadata => ({ actor: { kind: 'system', id: 'billing' }, ...(requestId ? { correlationId: requestId } : {}) });
const ownerMetadata = (ownerId: string, requestId?: string): EventMetadata => ({ actor: { kind: 'user', id: ownerId }, ...(requestId ? { correlationId: requestId } : {}) });

/**
 * Billing's use cases: the owner's subscription (checkout, cancel, status), the provider's webhooks
 * and the FAQ. Transport-free: the NATS controller and the tests call these directly. Whose
 * subscription is read or changed is decided from the verified caller alone, or, for a webhook, from
 * the provider's signed event.
 */
export class BillingService {
  readonly store = new EventStore({ publish: billingPublishPolicy, inlineProjections: [subscriptionsProjection] });
  private readonly faqRows = new FaqRepository();

  constructor(private readonly deps: BillingServiceDeps) {}

  private get em() {
    return this.deps.orm.em.fork();
  }

  async subscription(caller: Caller): Promise<SubscriptionView> {
    const row = await findSubscription(this.em, ownerOf(caller).userId);
    return {
      status: row?.status ?? 'none',
      tier: row?.tier ?? 'none',
      current_period_end: row?.current_period_end ?? null,
      cancel_at_period_end: row?.cancel_at_period_end ?? false,
      provider: this.deps.provider.name,
    };
  }

  /**
   * Opens the provider's hosted checkout for a plan. The rules are asked first (no provider session
   * for an owner whose plan is active), then asked again when the start is recorded. A promo code
   * (the pricing link's) goes on to the provider, whose page applies it.
   */
  async startCheckout(caller: Caller, plan: PaidTier, meta?: RequestMeta, promoCode: string | null = null): Promise<CheckoutSession> {
    const owner = ownerOf(caller);
    const command = (sessionId: string): SubscriptionCommand => ({ type: 'StartCheckout', ownerId: owner.userId, tier: plan, sessionId, provider: this.deps.provider.name, now: new Date().toISOString() });
    subscriptionDecider.decide(command('check'), await this.state(owner.userId));
    const back = (page: 'success' | 'cancel') => new URL(`/checkout/${page}?plan=${plan}`, this.deps.publicUrl).toString();
    const session = await this.deps.provider.createCheckout({ ownerId: owner.userId, email: owner.email, tier: plan, promoCode, successUrl: back('success'), cancelUrl: back('cancel') });
    await this.execute(owner.userId, command(session.sessionId), ownerMetadata(owner.userId, meta?.requestId));
    return { session_id: session.sessionId, url: session.url };
  }

  /** Cancel Subscription: the provider stops renewing; access stays until the period ends (spec 02, data-retention note). */
  async cancel(caller: Caller, meta?: RequestMeta): Promise<SubscriptionView> {
    const owner = ownerOf(caller);
    await this.cancelFor(owner.userId, ownerMetadata(owner.userId, meta?.requestId));
    return this.subscription(caller);
  }

  /**
   * The owner's account is erased (identity's AccountErased): his subscription is cancelled as his
   * Cancel Subscription would (the provider renews it no more, so nobody is charged for a vault that
   * is gone). The subscription's row and stream stay: owner id, plan, status and provider ids, no name
   * or address (those are the provider's, with its invoices, which the law makes it keep). True when
   * there was one to cancel.
   */
  async cancelForErasedAccount(ownerId: string, eventId: string): Promise<boolean> {
    try {
      return await this.cancelFor(ownerId, { actor: { kind: 'system', id: 'account-erasure' }, correlationId: eventId });
    } catch (error) {
      // No plan to cancel (never one, or it ended): nothing to do for an erased account.
      if (error instanceof DomainError && error.code === 'CONFLICT') return false;
      throw error;
    }
  }

  private async cancelFor(ownerId: string, metadata: EventMetadata): Promise<boolean> {
    const state = await this.state(ownerId);
    const command: SubscriptionCommand = { type: 'RequestCancel', ownerId, now: new Date().toISOString() };
    // The rules first: no plan is CONFLICT (nothingToCancel), one already cancelled decides nothing.
    const decided = subscriptionDecider.decide(command, state);
    if (!decided.length || !state.subscriptionId || !isPaidTier(state.tier)) return false;
    await this.deps.provider.cancelAtPeriodEnd(state.subscriptionId, state.tier);
    await this.execute(ownerId, command, metadata);
    return true;
  }

  /**
   * Switch to another plan while one is active: the rules are asked, the provider moves the
   * subscription (prorated), then the request is recorded. The tier itself moves only when the
   * provider's verified `customer.subscription.updated` arrives, through the same dedupe and order
   * as every webhook; with the local provider that has happened by the time this returns.
   */
  async changePlan(caller: Caller, plan: PaidTier, meta?: RequestMeta): Promise<SubscriptionView> {
    const owner = ownerOf(caller);
    const state = await this.state(owner.userId);
    const command: SubscriptionCommand = { type: 'ChangePlan', ownerId: owner.userId, tier: plan, now: new Date().toISOString() };
    subscriptionDecider.decide(command, state);
    if (!state.subscriptionId || !isPaidTier(state.tier)) throw new DomainError('CONFLICT', BillingMessages.noPlanToChange); // the decider refused this already
    await this.execute(owner.userId, command, ownerMetadata(owner.userId, meta?.requestId));
    await this.deps.provider.changePlan(state.subscriptionId, { ownerId: owner.userId, from: state.tier, to: plan });
    return this.subscription(caller);
  }

  /**
   * A provider's webhook: the signature over the exact body is checked first (a forged or stale one is
   * refused, VALIDATION_FAILED), then the event is applied to its owner's subscription by the rules
   * of the decider (a replay changes nothing, an older event never undoes a newer one).
   */
  async receiveWebhook(body: string, signature: string, meta?: RequestMeta): Promise<WebhookReply> {
    let event: unknown;
    try {
      event = this.deps.provider.verifyWebhook(body, signature);
    } catch {
      throw new DomainError('VALIDATION_FAILED', BillingMessages.signatureInvalid);
    }
    let found;
    try {
      found = webhookFact(event);
    } catch {
      throw new DomainError('VALIDATION_FAILED', 'The webhook event is not in the shape expected for its type.');
    }
    if (!found) return { received: true, outcome: 'ignored' };
    const ownerId = found.ownerId ?? (await findOwnerOfSubscription(this.em, found.fact.subscriptionId));
    if (!ownerId) {
      this.deps.logger.warn({ eventId: found.fact.eventId, kind: found.fact.kind }, 'webhook names no owner billing knows: ignored');
      return { received: true, outcome: 'ignored' };
    }
    const result = await this.execute(ownerId, { type: 'ApplyProviderFact', ownerId, fact: found.fact }, systemMetadata(meta?.requestId));
    if (result.events.length) return { received: true, outcome: 'applied' };
    return { received: true, outcome: result.state.seenProviderEvents.includes(found.fact.eventId) ? 'duplicate' : 'ignored' };
  }

  // The local provider's hosted page: only the owner who started the checkout sees or pays it.

  async localSession(caller: Caller, sessionId: string): Promise<LocalCheckoutSession> {
    return localView(await this.ownLocalSession(caller, sessionId));
  }

  async localPay(caller: Caller, sessionId: string): Promise<LocalCheckoutSession> {
    const session = await this.ownLocalSession(caller, sessionId);
    if (session.status === 'cancelled') throw new DomainError('CONFLICT', BillingMessages.sessionClosed);
    if (session.status === 'open') await this.deps.local!.provider.pay(session);
    return localView((await this.deps.local!.sessions.find(session.id)) ?? session);
  }

  async localCancel(caller: Caller, sessionId: string): Promise<LocalCheckoutSession> {
    const session = await this.ownLocalSession(caller, sessionId);
    await this.deps.local!.sessions.close(session.id, 'cancelled', null);
    return localView((await this.deps.local!.sessions.find(session.id)) ?? session);
  }

  private async ownLocalSession(caller: Caller, sessionId: string): Promise<LocalSessionRow> {
    const owner = ownerOf(caller);
    const session = this.deps.local ? await this.deps.local.sessions.find(sessionId) : null;
    if (!session || session.owner_id !== owner.userId) throw new DomainError('NOT_FOUND', BillingMessages.sessionNotFound);
    return session;
  }

  // FAQ.

  faq(): Promise<FaqEntry[]> {
    return this.faqRows.listActive(this.em);
  }

  faqAll(caller: Caller): Promise<FaqEntry[]> {
    requireAdmin(caller);
    return this.faqRows.listAll(this.em);
  }

  faqSave(caller: Caller, entry: SaveFaqRequest): Promise<FaqEntry> {
    requireAdmin(caller);
    return this.faqRows.save(this.em, { ...entry, question: entry.question.trim(), answer: entry.answer.trim() });
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }

  private async state(ownerId: string): Promise<SubscriptionState> {
    return (await aggregateStream(this.em, this.store, subscriptionDecider, subscriptionStreamId(ownerId))).state;
  }

  private execute(ownerId: string, command: SubscriptionCommand, metadata: EventMetadata) {
    return handleCommand(this.deps.orm.em, this.store, subscriptionDecider, command, { streamId: subscriptionStreamId(ownerId), streamType: SUBSCRIPTION_STREAM_TYPE, metadata });
  }
}

/** FAQ edits are for admins (the ai_admin flag of their token) and operators. */
function requireAdmin(caller: Caller): void {
  if (!accountOf(caller).isAdmin) throw new DomainError('FORBIDDEN');
}

const localView = (row: LocalSessionRow): LocalCheckoutSession => ({ session_id: row.id, tier: row.tier, status: row.status, promo_code: row.promo_code, success_url: row.success_url, cancel_url: row.cancel_url });
