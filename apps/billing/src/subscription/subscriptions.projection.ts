import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubscriptionStatus, SubscriptionTier } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { SubscriptionEvent } from './subscription.decider.js';

// PlanChangeRequested changes nothing here (the change shows once Stripe renews or activates).
const HANDLES = ['CheckoutStarted', 'SubscriptionActivated', 'SubscriptionRenewed', 'CancelRequested', 'SubscriptionEnded'] as const;
/** The events apply() is given: the store hands a projection only the types it handles. */
type HandledEvent = Extract<SubscriptionEvent, { type: (typeof HANDLES)[number] }>;

/**
 * `subscriptions`: each owner's subscription as Settings shows it, in step with the decider's evolve
 * (applied in order inside each append; a rebuild replays every stream in order).
 */
export const subscriptionsProjection = projectionFor<HandledEvent>({
  name: 'subscriptions',
  handles: HANDLES,
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,

  async apply(em, events) {
    for (const event of events) {
      const at = event.occurredAt;
      switch (event.type) {
        case 'CheckoutStarted':
          await em.execute(
            `insert into subscriptions (owner_id, status, tier, updated_at) values (?, 'pending', 'none', ?)
             on conflict (owner_id) do update set status = case when subscriptions.status in ('active', 'cancelling') then subscriptions.status else 'pending' end, updated_at = excluded.updated_at`,
            [event.data.ownerId, at],
          );
          break;
        case 'SubscriptionActivated': {
          const d = event.data;
          await em.execute(
            `insert into subscriptions (owner_id, status, tier, subscription_id, customer_id, current_period_end, cancel_at_period_end, updated_at) values (?, 'active', ?, ?, ?, ?, false, ?)
             on conflict (owner_id) do update set status = 'active', tier = excluded.tier, subscription_id = excluded.subscription_id, customer_id = excluded.customer_id,
               current_period_end = excluded.current_period_end, cancel_at_period_end = false, updated_at = excluded.updated_at`,
            [d.ownerId, d.tier, d.subscriptionId, d.customerId, d.periodEnd, at],
          );
          break;
        }
        case 'SubscriptionRenewed':
          await em.execute('update subscriptions set tier = ?, current_period_end = coalesce(?, current_period_end), updated_at = ? where owner_id = ?', [event.data.tier, event.data.periodEnd, at, event.data.ownerId]);
          break;
        case 'CancelRequested':
          await em.execute(
            `update subscriptions set status = 'cancelling', cancel_at_period_end = true, current_period_end = coalesce(?, current_period_end), updated_at = ? where owner_id = ?`,
            [event.data.accessUntil, at, event.data.ownerId],
          );
          break;
        case 'SubscriptionEnded':
          // Ending a subscription that is not the owner's current one changes nothing he sees.
          await em.execute(
            `insert into subscriptions (owner_id, status, tier, subscription_id, updated_at) values (?, 'ended', 'none', ?, ?)
             on conflict (owner_id) do update set status = 'ended', tier = 'none', subscription_id = excluded.subscription_id, cancel_at_period_end = false, updated_at = excluded.updated_at
             where subscriptions.subscription_id is null or subscriptions.subscription_id = excluded.subscription_id`,
            [event.data.ownerId, event.data.subscriptionId, at],
          );
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from subscriptions');
  },
});

export interface SubscriptionRow {
  status: SubscriptionStatus;
  tier: SubscriptionTier;
  subscription_id: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

export async function findSubscription(em: EntityManager, ownerId: string): Promise<SubscriptionRow | null> {
  const [row] = await em.execute<SubscriptionRow[]>(
    `select status, tier, subscription_id, to_char(current_period_end at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as current_period_end, cancel_at_period_end
     from subscriptions where owner_id = ?`,
    [ownerId],
  );
  return row ?? null;
}

/** The owner of a provider subscription, for an event that does not name one. */
export async function findOwnerOfSubscription(em: EntityManager, subscriptionId: string): Promise<string | null> {
  const [row] = await em.execute<{ owner_id: string }[]>('select owner_id from subscriptions where subscription_id = ? limit 1', [subscriptionId]);
  return row?.owner_id ?? null;
}
