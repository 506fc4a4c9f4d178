import { z } from 'zod';
import { isPaidTier, isUuid, type PaidTier } from '@lv/contracts';
import type { ProviderFact, ProviderSubscriptionStatus } from '../subscription/subscription.decider.js';

/**
 * A verified webhook event, reduced to what billing needs. Only the fields read here are checked: the
 * provider adds fields over time, and an event of a type billing does not handle is acknowledged and
 * ignored. Stripe's shapes (API 2026-10-28): a subscription's period end lives on its items.
 */
const idOf = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);
const metadataSchema = z.record(z.string(), z.string()).nullish().transform((m) => m ?? {});

const eventSchema = z.object({ id: z.string().min(1), type: z.string(), created: z.number().int(), data: z.object({ object: z.record(z.string(), z.unknown()) }) });

const checkoutSessionSchema = z.object({
  id: z.string(),
  mode: z.string().optional(),
  client_reference_id: z.string().nullish(),
  customer: idOf.nullish(),
  subscription: idOf.nullish(),
  payment_status: z.string().optional(),
  metadata: metadataSchema,
});

const subscriptionSchema = z.object({
  id: z.string(),
  customer: idOf.nullish(),
  status: z.enum(['active', 'trialing', 'past_due', 'incomplete', 'incomplete_expired', 'unpaid', 'canceled', 'paused']),
  cancel_at_period_end: z.boolean().default(false),
  current_period_end: z.number().int().nullish(),
  items: z.object({ data: z.array(z.object({ current_period_end: z.number().int().nullish() })) }).nullish(),
  metadata: metadataSchema,
});

export interface WebhookFact {
  /** The owner the provider event names (our metadata), or null: then it is found by the subscription id. */
  ownerId: string | null;
  fact: ProviderFact;
}

const ownerIdIn = (...candidates: (string | null | undefined)[]) => candidates.find((c): c is string => isUuid(c))?.toLowerCase() ?? null;
const tierIn = (metadata: Record<string, string>): PaidTier | null => (isPaidTier(metadata.tier) ? metadata.tier : null);

function periodEndOf(subscription: z.infer<typeof subscriptionSchema>): string | null {
  const ends = (subscription.items?.data ?? []).map((item) => item.current_period_end).filter((end): end is number => typeof end === 'number');
  const end = ends.length ? Math.min(...ends) : subscription.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000).toISOString() : null;
}

/**
 * The fact a provider event states, or null for an event billing does not act on (other types, a
 * checkout that is not a subscription's, one without our metadata). Throws on a handled type whose
 * object is malformed: the caller answers 400 and the provider retries or shows it in its dashboard.
 */
export function webhookFact(body: unknown): WebhookFact | null {
  const event = eventSchema.parse(body);
  const base = { eventId: event.id, created: event.created };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = checkoutSessionSchema.parse(event.data.object);
      const tier = tierIn(session.metadata);
      if (session.mode !== 'subscription' || !session.subscription || !tier) return null;
      return {
        ownerId: ownerIdIn(session.client_reference_id, session.metadata.ownerId),
        fact: { kind: 'checkout-completed', ...base, sessionId: session.id, subscriptionId: session.subscription, customerId: session.customer ?? null, tier },
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated': {
      const subscription = subscriptionSchema.parse(event.data.object);
      const tier = tierIn(subscription.metadata);
      if (!tier) return null;
      return {
        ownerId: ownerIdIn(subscription.metadata.ownerId),
        fact: {
          kind: 'subscription-state', ...base, subscriptionId: subscription.id, customerId: subscription.customer ?? null, tier,
          status: subscription.status satisfies ProviderSubscriptionStatus, periodEnd: periodEndOf(subscription), cancelAtPeriodEnd: subscription.cancel_at_period_end,
        },
      };
    }
    case 'customer.subscription.deleted': {
      const subscription = subscriptionSchema.parse(event.data.object);
      return { ownerId: ownerIdIn(subscription.metadata.ownerId), fact: { kind: 'subscription-deleted', ...base, subscriptionId: subscription.id } };
    }
    default:
      return null;
  }
}
