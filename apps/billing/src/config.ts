import { commonConfigSchema, databaseConfigSchema, z } from '@lv/platform/config';

/**
 * Billing: its database, and one payment provider. With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET
 * it is Stripe (hosted Checkout, signed webhooks); without them it is the local development provider,
 * whose hosted page the SPA serves and whose webhooks are signed the same way with
 * LOCAL_WEBHOOK_SECRET. The local provider lets anyone "pay" without a card, so production refuses it.
 */
export const billingConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)').optional(),
  /** The signing secret of the webhook endpoint (whsec_…), from the provider's dashboard. */
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)').optional(),
  /** The local provider's signing secret (development and tests). At least 32 characters. */
  LOCAL_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The address people open the app at: the provider sends them back here after paying or cancelling. */
  PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
  /** Where the local provider delivers its webhooks: the gateway's public webhook route (default PUBLIC_URL/api/billing/webhook). */
  BILLING_WEBHOOK_URL: z.url().optional(),
}).superRefine((config, ctx) => {
  const stripe = [config.STRIPE_SECRET_KEY, config.STRIPE_WEBHOOK_SECRET].filter(Boolean).length;
  if (stripe === 1) ctx.addIssue({ code: 'custom', path: [config.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'], message: 'Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET' });
  if (stripe === 0 && config.NODE_ENV === 'production') ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'production takes payments through Stripe: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET' });
  if (stripe === 0 && !config.LOCAL_WEBHOOK_SECRET) ctx.addIssue({ code: 'custom', path: ['LOCAL_WEBHOOK_SECRET'], message: 'without Stripe, the local provider needs LOCAL_WEBHOOK_SECRET' });
});

export type BillingConfig = z.infer<typeof billingConfigSchema>;
