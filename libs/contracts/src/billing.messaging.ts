// billing's subjects: its RPC (subscriptions, checkout, webhooks, the FAQ) and its events.
import { z } from 'zod';
import {
  changePlanBodySchema, checkoutSessionSchema, faqEntrySchema, localSessionPayloadSchema, localSessionSchema, saveFaqBodySchema, startCheckoutBodySchema,
  subscriptionViewSchema, webhookPayloadSchema, webhookReplySchema,
} from './billing.schemas.js';
import { emptyPayload, healthRpc, rebuildRpc, rpc } from './rpc.js';
import { PAID_TIERS, type PaidTier } from './billing.js';
import { event } from './events.js';
import { SUBSCRIPTION_TIERS } from './tiers.js';

/**
 * Plans and billing (billing.ts): the owner's subscription, the provider's hosted checkout and its
 * signed webhooks, and the FAQ. Published payloads carry ids, the tier and times only.
 */
export const BillingRpc = {
  health: healthRpc('billing'),
  subscription: rpc('rpc.billing.subscription', { payload: emptyPayload, reply: subscriptionViewSchema }),
  startCheckout: rpc('rpc.billing.start-checkout', { payload: startCheckoutBodySchema, reply: checkoutSessionSchema }),
  cancel: rpc('rpc.billing.cancel', { payload: emptyPayload, reply: subscriptionViewSchema }),
  /**
   * Public on NATS (the gateway's public webhook route forwards here): the provider's signature over
   * the exact body is the authority, checked here against the webhook secret only billing holds.
   */
  webhook: rpc('rpc.billing.webhook', { payload: webhookPayloadSchema, reply: webhookReplySchema }),
  // The local development provider's hosted page (the owner who started the checkout only).
  localSession: rpc('rpc.billing.local.session', { payload: localSessionPayloadSchema, reply: localSessionSchema }),
  localPay: rpc('rpc.billing.local.pay', { payload: localSessionPayloadSchema, reply: localSessionSchema }),
  localCancel: rpc('rpc.billing.local.cancel', { payload: localSessionPayloadSchema, reply: localSessionSchema }),
  /** Public: the active FAQ entries by display order (the pricing page). */
  faq: rpc('rpc.billing.faq', { payload: emptyPayload, reply: z.array(faqEntrySchema) }),
  // Admins (ai_admin): every entry, and adding or editing one.
  faqAll: rpc('rpc.billing.faq.all', { payload: emptyPayload, reply: z.array(faqEntrySchema) }),
  faqSave: rpc('rpc.billing.faq.save', { payload: saveFaqBodySchema, reply: faqEntrySchema }),
  /** The owner's live subscription to another paid plan; the reply is the view as it stands (the tier moves on the provider's webhook). */
  changePlan: rpc('rpc.billing.change-plan', { payload: changePlanBodySchema, reply: subscriptionViewSchema }),
  // Operator command (ops CLI).
  rebuildProjections: rebuildRpc('billing'),
} as const;


/** `tier` is the owner's tier after the event: what identity sets on the profile ('none' once the subscription has ended). */
const tier = z.enum(SUBSCRIPTION_TIERS);

/** Published payloads carry ids, the tier and times, never a card, an address or a provider secret. */
export const BillingEvents = {
  CheckoutStarted: event('billing.subscription.checkout-started.v1', z.object({ ownerId: z.string(), tier: z.enum(PAID_TIERS as [PaidTier, ...PaidTier[]]), startedAt: z.string() })),
  SubscriptionActivated: event('billing.subscription.activated.v1', z.object({ ownerId: z.string(), tier, periodEnd: z.string().nullable(), activatedAt: z.string() })),
  SubscriptionRenewed: event('billing.subscription.renewed.v1', z.object({ ownerId: z.string(), tier, periodEnd: z.string().nullable() })),
  CancelRequested: event('billing.subscription.cancel-requested.v1', z.object({ ownerId: z.string(), tier, accessUntil: z.string().nullable(), requestedAt: z.string() })),
  SubscriptionEnded: event('billing.subscription.ended.v1', z.object({ ownerId: z.string(), tier, endedAt: z.string() })),
} as const;

