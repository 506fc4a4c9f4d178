import { BillingMessages, planOf, type PaidTier, type SubscriptionStatus, type SubscriptionTier } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A fact the payment provider reported in a verified webhook, reduced to what the rules need.
 * `eventId` is the provider's event id (dedupe), `created` its creation time in epoch seconds (order).
 */
export type ProviderFact =
  | { kind: 'checkout-completed'; eventId: string; created: number; sessionId: string; subscriptionId: string; customerId: string | null; tier: PaidTier }
  | {
    kind: 'subscription-state'; eventId: string; created: number; subscriptionId: string; customerId: string | null; tier: PaidTier;
    status: ProviderSubscriptionStatus; periodEnd: string | null; cancelAtPeriodEnd: boolean;
  }
  | { kind: 'subscription-deleted'; eventId: string; created: number; subscriptionId: string };

/** Stripe's subscription statuses. */
export type ProviderSubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'incomplete' | 'incomplete_expired' | 'unpaid' | 'canceled' | 'paused';

/** Where a provider event came from, carried by every event it caused (dedupe and ordering). */
interface FromProvider { providerEventId: string; providerCreated: number }

export type SubscriptionEvent =
  | { type: 'CheckoutStarted'; data: { ownerId: string; tier: PaidTier; sessionId: string; provider: 'stripe' | 'local'; startedAt: string } }
  | { type: 'SubscriptionActivated'; data: FromProvider & { ownerId: string; tier: PaidTier; subscriptionId: string; customerId: string | null; periodEnd: string | null; activatedAt: string } }
  | { type: 'SubscriptionRenewed'; data: FromProvider & { ownerId: string; tier: PaidTier; subscriptionId: string; periodEnd: string | null } }
  /** The owner asked the provider to move the subscription to another plan; the tier moves when the provider's event says so. */
  | { type: 'PlanChangeRequested'; data: { ownerId: string; fromTier: PaidTier; toTier: PaidTier; subscriptionId: string; requestedAt: string } }
  | { type: 'CancelRequested'; data: Partial<FromProvider> & { ownerId: string; tier: SubscriptionTier; subscriptionId: string; accessUntil: string | null; requestedAt: string } }
  | { type: 'SubscriptionEnded'; data: FromProvider & { ownerId: string; tier: SubscriptionTier; subscriptionId: string; endedAt: string } };

export interface SubscriptionState {
  ownerId: string | null;
  status: SubscriptionStatus;
  tier: SubscriptionTier;
  subscriptionId: string | null;
  customerId: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  pendingSessionId: string | null;
  /** The provider's creation time of the newest event applied to the current subscription. */
  lastProviderCreated: number;
  /** Provider event ids already applied: a replayed webhook changes nothing. */
  seenProviderEvents: readonly string[];
  /** Provider subscriptions that ended: nothing that arrives later brings one back. */
  endedSubscriptions: readonly string[];
}

export type SubscriptionCommand =
  | { type: 'StartCheckout'; ownerId: string; tier: PaidTier; sessionId: string; provider: 'stripe' | 'local'; now: string }
  | { type: 'ApplyProviderFact'; ownerId: string; fact: ProviderFact }
  /** The provider accepted "cancel at period end" for the current subscription. */
  | { type: 'RequestCancel'; ownerId: string; now: string }
  /** Another paid plan for the live subscription (the provider prorates it). */
  | { type: 'ChangePlan'; ownerId: string; tier: PaidTier; now: string };

export const SUBSCRIPTION_STREAM_TYPE = 'subscription';
export const subscriptionStreamId = (ownerId: string) => `subscription-${ownerId}`;

/** Access continues while the provider still collects: a failed renewal is retried by the provider (past_due) before it ends the subscription. */
const LIVE_STATUSES: readonly ProviderSubscriptionStatus[] = ['active', 'trialing', 'past_due'];
/** States after which the provider will not charge again: the subscription is over. */
const OVER_STATUSES: readonly ProviderSubscriptionStatus[] = ['canceled', 'incomplete_expired', 'unpaid'];

const isoOf = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const hasAccess = (state: SubscriptionState) => state.status === 'active' || state.status === 'cancelling';

/**
 * The rules for applying a provider's fact, in order (README, "Webhook ordering"):
 * 1. An event id already applied is a replay: nothing happens.
 * 2. A subscription that ended stays ended: any later-arriving event about it is older news.
 * 3. For the current subscription, an event created before the newest one applied is stale (the
 *    provider sends no order guarantee; its `created` time is the order). Equal times are applied:
 *    the provider stamps seconds, and each rule below is idempotent for the same state.
 * 4. Activation comes from whichever arrives first, checkout.session.completed or a live
 *    subscription state; the other then only updates the period.
 * 5. A new subscription replaces the current one (a plan bought after the old one ended or while
 *    pending); ending a subscription that is not the current one leaves the tier alone.
 */
function applyFact(state: SubscriptionState, ownerId: string, fact: ProviderFact): SubscriptionEvent[] {
  if (state.seenProviderEvents.includes(fact.eventId)) return [];
  if (state.endedSubscriptions.includes(fact.subscriptionId)) return [];
  const current = state.subscriptionId === fact.subscriptionId;
  if (current && fact.created < state.lastProviderCreated) return [];
  const from: FromProvider = { providerEventId: fact.eventId, providerCreated: fact.created };

  if (fact.kind === 'subscription-deleted') {
    const tier: SubscriptionTier = current || state.subscriptionId === null ? 'none' : state.tier;
    return [{ type: 'SubscriptionEnded', data: { ...from, ownerId, tier, subscriptionId: fact.subscriptionId, endedAt: isoOf(fact.created) } }];
  }

  if (fact.kind === 'checkout-completed') {
    if (current) return [];
    return [{
      type: 'SubscriptionActivated',
      data: { ...from, ownerId, tier: fact.tier, subscriptionId: fact.subscriptionId, customerId: fact.customerId, periodEnd: null, activatedAt: isoOf(fact.created) },
    }];
  }

  // A subscription's state (created or updated).
  if (OVER_STATUSES.includes(fact.status)) {
    const tier: SubscriptionTier = current || state.subscriptionId === null ? 'none' : state.tier;
    return [{ type: 'SubscriptionEnded', data: { ...from, ownerId, tier, subscriptionId: fact.subscriptionId, endedAt: isoOf(fact.created) } }];
  }
  if (!LIVE_STATUSES.includes(fact.status)) return []; // incomplete or paused: not paid (yet), nothing changes
  const events: SubscriptionEvent[] = [];
  if (!current) {
    events.push({
      type: 'SubscriptionActivated',
      data: { ...from, ownerId, tier: fact.tier, subscriptionId: fact.subscriptionId, customerId: fact.customerId, periodEnd: fact.periodEnd, activatedAt: isoOf(fact.created) },
    });
  } else if ((fact.periodEnd !== null && fact.periodEnd !== state.periodEnd) || fact.tier !== state.tier) {
    // A state without a period (the local provider's cancellation) says nothing about the period.
    events.push({ type: 'SubscriptionRenewed', data: { ...from, ownerId, tier: fact.tier, subscriptionId: fact.subscriptionId, periodEnd: fact.periodEnd } });
  }
  const cancelling = current ? state.cancelAtPeriodEnd : false;
  if (fact.cancelAtPeriodEnd && !cancelling) {
    events.push({
      type: 'CancelRequested',
      data: { ...from, ownerId, tier: fact.tier, subscriptionId: fact.subscriptionId, accessUntil: fact.periodEnd ?? state.periodEnd, requestedAt: isoOf(fact.created) },
    });
  }
  // A fact that changes nothing leaves no trace; its replay is harmless for the same reason.
  return events;
}

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({
    ownerId: null, status: 'none', tier: 'none', subscriptionId: null, customerId: null, periodEnd: null, cancelAtPeriodEnd: false, pendingSessionId: null,
    lastProviderCreated: 0, seenProviderEvents: [], endedSubscriptions: [],
  }),

  decide(command, state) {
    // Cannot happen through the service (the stream is named after the owner): refuse rather than write.
    if (state.ownerId !== null && state.ownerId !== command.ownerId) throw new DomainError('NOT_FOUND');
    switch (command.type) {
      case 'StartCheckout': {
        // A cancelled plan runs to its period end; a new one can be chosen once it has ended.
        if (state.status === 'cancelling') throw new DomainError('CONFLICT', BillingMessages.alreadyCancelling);
        if (hasAccess(state)) {
          const name = planOf(state.tier as PaidTier).name;
          throw new DomainError('CONFLICT', state.tier === command.tier ? BillingMessages.alreadySubscribed(name) : BillingMessages.changeWhileActive(name));
        }
        return [{ type: 'CheckoutStarted', data: { ownerId: command.ownerId, tier: command.tier, sessionId: command.sessionId, provider: command.provider, startedAt: command.now } }];
      }
      case 'RequestCancel': {
        if (!hasAccess(state) || !state.subscriptionId) throw new DomainError('CONFLICT', BillingMessages.nothingToCancel);
        if (state.cancelAtPeriodEnd) return [];
        return [{ type: 'CancelRequested', data: { ownerId: command.ownerId, tier: state.tier, subscriptionId: state.subscriptionId, accessUntil: state.periodEnd, requestedAt: command.now } }];
      }
      case 'ChangePlan': {
        // A cancelled plan is not revived by choosing another: the owner chose to stop paying, and
        // only an explicit new checkout (once it has ended) starts charging again.
        if (state.status === 'cancelling') throw new DomainError('CONFLICT', BillingMessages.changeWhileCancelling);
        if (state.status !== 'active' || !state.subscriptionId || state.tier === 'none') throw new DomainError('CONFLICT', BillingMessages.noPlanToChange);
        if (state.tier === command.tier) throw new DomainError('CONFLICT', BillingMessages.alreadySubscribed(planOf(state.tier).name));
        return [{ type: 'PlanChangeRequested', data: { ownerId: command.ownerId, fromTier: state.tier, toTier: command.tier, subscriptionId: state.subscriptionId, requestedAt: command.now } }];
      }
      case 'ApplyProviderFact':
        return applyFact(state, command.ownerId, command.fact);
    }
  },

  evolve(state, event) {
    const seen = 'providerEventId' in event.data && event.data.providerEventId ? [...state.seenProviderEvents, event.data.providerEventId] : state.seenProviderEvents;
    const created = 'providerCreated' in event.data && event.data.providerCreated !== undefined ? event.data.providerCreated : state.lastProviderCreated;
    const base = { ...state, ownerId: event.data.ownerId, seenProviderEvents: seen };
    switch (event.type) {
      case 'CheckoutStarted':
        // A checkout does not touch a live subscription (the decider refuses one while it lasts).
        return { ...base, status: hasAccess(state) ? state.status : 'pending', pendingSessionId: event.data.sessionId };
      case 'SubscriptionActivated':
        return {
          ...base, status: 'active', tier: event.data.tier, subscriptionId: event.data.subscriptionId, customerId: event.data.customerId, periodEnd: event.data.periodEnd,
          cancelAtPeriodEnd: false, pendingSessionId: null, lastProviderCreated: event.data.providerCreated,
        };
      case 'PlanChangeRequested':
        // Nothing moves until the provider confirms: its subscription.updated carries the new tier.
        return base;
      case 'SubscriptionRenewed':
        return { ...base, tier: event.data.tier, periodEnd: event.data.periodEnd ?? state.periodEnd, lastProviderCreated: Math.max(state.lastProviderCreated, created) };
      case 'CancelRequested':
        return {
          ...base, status: 'cancelling', cancelAtPeriodEnd: true, periodEnd: event.data.accessUntil ?? state.periodEnd,
          lastProviderCreated: Math.max(state.lastProviderCreated, created),
        };
      case 'SubscriptionEnded': {
        const ended = [...state.endedSubscriptions, event.data.subscriptionId];
        if (state.subscriptionId !== null && state.subscriptionId !== event.data.subscriptionId) return { ...base, endedSubscriptions: ended };
        return {
          ...base, status: 'ended', tier: 'none', subscriptionId: event.data.subscriptionId, cancelAtPeriodEnd: false, pendingSessionId: null,
          lastProviderCreated: Math.max(state.lastProviderCreated, created), endedSubscriptions: ended,
        };
      }
    }
  },
};
