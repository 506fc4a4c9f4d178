import { BillingEvents, published } from '@lv/contracts';
import { publishPolicyFor } from '@lv/platform/event-store';
import type { SubscriptionEvent } from './subscription.decider.js';

/**
 * What other services learn about a subscription: whose, which tier it leaves the owner on, and when.
 * Never a provider id, a customer or anything about a card (JetStream keeps what it is given).
 */
export const billingPublishPolicy = publishPolicyFor<SubscriptionEvent>((event) => {
  switch (event.type) {
    case 'CheckoutStarted': {
      const { ownerId, tier, startedAt } = event.data;
      return published(BillingEvents.CheckoutStarted, { ownerId, tier, startedAt });
    }
    case 'SubscriptionActivated': {
      const { ownerId, tier, periodEnd, activatedAt } = event.data;
      return published(BillingEvents.SubscriptionActivated, { ownerId, tier, periodEnd, activatedAt });
    }
    case 'SubscriptionRenewed': {
      const { ownerId, tier, periodEnd } = event.data;
      return published(BillingEvents.SubscriptionRenewed, { ownerId, tier, periodEnd });
    }
    case 'CancelRequested': {
      const { ownerId, tier, accessUntil, requestedAt } = event.data;
      return published(BillingEvents.CancelRequested, { ownerId, tier, accessUntil, requestedAt });
    }
    case 'SubscriptionEnded': {
      const { ownerId, tier, endedAt } = event.data;
      return published(BillingEvents.SubscriptionEnded, { ownerId, tier, endedAt });
    }
    default:
      return null;
  }
});
