import { z } from 'zod';
import { FAQ_ANSWER_MAX, FAQ_QUESTION_MAX, PAID_TIERS, PROMO_CODE_PATTERN, SUBSCRIPTION_STATUSES, type PaidTier } from './billing.js';
import { safeText } from './text.schemas.js';
import { SUBSCRIPTION_TIERS } from './tiers.js';

// Billing on the wire, as zod schemas (kept apart from billing.ts so the SPA never bundles zod).

/** The caller's subscription (Settings' Subscription Status). */
export const subscriptionViewSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  tier: z.enum(SUBSCRIPTION_TIERS),
  current_period_end: z.iso.datetime().nullable().meta({ description: 'Next billing date, or when access ends after a cancellation.' }),
  cancel_at_period_end: z.boolean(),
  provider: z.enum(['stripe', 'local']),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const startCheckoutBodySchema = z.object({
  plan: z.enum(PAID_TIERS as [PaidTier, ...PaidTier[]]),
  promo_code: z.string().regex(PROMO_CODE_PATTERN).optional().meta({ description: 'A promo code for the provider’s checkout (upper case: letters, digits, - and _).' }),
});

/** Another paid plan for the owner's live subscription (the provider prorates; the tier moves when its webhook arrives). */
export const changePlanBodySchema = z.object({ plan: z.enum(PAID_TIERS as [PaidTier, ...PaidTier[]]).meta({ description: 'The paid plan to switch to.' }) });

export const checkoutSessionSchema = z.object({
  session_id: z.string(),
  url: z.string().meta({ description: 'The provider’s hosted checkout page: the browser goes there.' }),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** A webhook as the gateway received it: the body's exact bytes (UTF-8) and the signature header. */
export const webhookPayloadSchema = z.object({
  body: z.string().max(256 * 1024),
  signature: z.string().max(2048),
});
export const webhookReplySchema = z.object({ received: z.literal(true), outcome: z.enum(['applied', 'duplicate', 'ignored']) });
export type WebhookReply = z.infer<typeof webhookReplySchema>;

/** The local development provider's hosted page. */
export const localSessionPayloadSchema = z.object({ session_id: z.string().regex(/^cs_local_[0-9a-f]{32}$/) });
export const localSessionSchema = z.object({
  session_id: z.string(),
  tier: z.enum(PAID_TIERS as [PaidTier, ...PaidTier[]]),
  status: z.enum(['open', 'paid', 'cancelled']),
  promo_code: z.string().nullable().meta({ description: 'The promo code the checkout was opened with, if any.' }),
  success_url: z.string(),
  cancel_url: z.string(),
});
export type LocalCheckoutSession = z.infer<typeof localSessionSchema>;

export const faqEntrySchema = z.object({
  id: z.uuid(),
  question: z.string(),
  answer: z.string(),
  is_active: z.boolean(),
  display_order: z.number().int(),
});
export type FaqEntry = z.infer<typeof faqEntrySchema>;

/** Add (no id) or edit (id) an FAQ entry; deactivate with is_active false, reorder with display_order. */
export const saveFaqBodySchema = z.object({
  id: z.uuid().optional(),
  // safeText: U+0000 or a lone surrogate would reach Postgres and fail there (a 500, not a 400).
  question: safeText().trim().min(1).max(FAQ_QUESTION_MAX),
  answer: safeText().trim().min(1).max(FAQ_ANSWER_MAX),
  is_active: z.boolean(),
  display_order: z.number().int().min(0).max(10_000),
});
export type SaveFaqRequest = z.input<typeof saveFaqBodySchema>;
