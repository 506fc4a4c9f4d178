import {
  BillingEvents, type CancelRequestedV1, type CheckoutStartedV1, type SubscriptionActivatedV1, type SubscriptionEndedV1, type SubscriptionRenewedV1,
} from '@lv/contracts';
import type { PublishPolicy, StoredEvent } from '@lv/platform/event-store';
import type { SubscriptionEvent } from './subscription.decider.js';

/**
 * What other services learn about a subscription: whose, which tier it leaves the owner on, and when.
 * Never a provider id, a customer or anything about a card (JetStream keeps what it is given).
 */
export const billingPublishPolicy: PublishPolicy = (stored) => {
  const event = stored as unknown as StoredEvent<SubscriptionEvent>;
  switch (event.type) {
    case 'CheckoutStarted': {
      const { ownerId, tier, startedAt } = event.data;
      return { subject: BillingEvents.CheckoutStarted, data: { ownerId, tier, startedAt } satisfies CheckoutStartedV1 };
    }
    case 'SubscriptionActivated': {
      const { ownerId, tier, periodEnd, activatedAt } = event.data;
      return { subject: BillingEvents.SubscriptionActivated, data: { ownerId, tier, periodEnd, activatedAt } satisfies SubscriptionActivatedV1 };
    }
    case 'SubscriptionRenewed': {
      const { ownerId, tier, periodEnd } = event.data;
      return { subject: BillingEvents.SubscriptionRenewed, data: { ownerId, tier, periodEnd } satisfies SubscriptionRenewedV1 };
    }
    case 'CancelRequested': {
      const { ownerId, tier, accessUntil, requestedAt } = event.data;
      return { subject: BillingEvents.CancelRequested, data: { ownerId, tier, accessUntil, requestedAt } satisfies CancelRequestedV1 };
    }
    case 'SubscriptionEnded': {
      const { ownerId, tier, endedAt } = event.data;
      return { subject: BillingEvents.SubscriptionEnded, data: { ownerId, tier, endedAt } satisfies SubscriptionEndedV1 };
    }
    default:
      return null;
  }
};
