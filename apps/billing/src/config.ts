import { commonConfigSchema, databaseConfigSchema, markSecret, z } from '@lv/platform/config';

/**
 * Billing: its database, and one payment provider. With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET
 * it is Stripe (hosted Checkout, signed webhooks); without them it is the local development provider,
 * whose hosted page the SPA serves and whose webhooks are signed the same way with
 * LOCAL_WEBHOOK_SECRET. The local provider lets anyone "pay" without a card, so production refuses it
 * unless ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION=true says, in its name, that nobody pays on this machine.
 */
export const billingConfigSchema = commonConfigSchema.extend(databaseConfigSchema.shape).extend({
  /** Which provider takes payments; by default Stripe when its keys are set, else the local one (never by default in production). */
  PAYMENT_PROVIDER: z.enum(['stripe', 'local']).optional(),
  /** Production with the local provider (every plan free): only a demonstration machine sets this to true. */
  ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION: z.enum(['true', 'false']).default('false'),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)').optional(),
  /** The signing secret of the webhook endpoint (whsec_…), from the provider's dashboard. */
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)').optional(),
  /** The local provider's signing secret (development and tests). At least 32 characters. */
  LOCAL_WEBHOOK_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters').optional()),
  /** The address people open the app at: the provider sends them back here after paying or cancelling. */
  PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
  /** Where the local provider delivers its webhooks: the gateway's public webhook route (default PUBLIC_URL/api/billing/webhook). */
  BILLING_WEBHOOK_URL: z.url().optional(),
}).superRefine((config, ctx) => {
  const provider = paymentProviderOf(config);
  if (provider === 'stripe') {
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: config.NODE_ENV === 'production' && !config.PAYMENT_PROVIDER ? 'production takes payments through Stripe: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or PAYMENT_PROVIDER=local with ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION=true on a machine nobody pays on)' : 'Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET' });
    }
  } else {
    if (!config.LOCAL_WEBHOOK_SECRET) ctx.addIssue({ code: 'custom', path: ['LOCAL_WEBHOOK_SECRET'], message: 'the local payment provider needs LOCAL_WEBHOOK_SECRET' });
    if (config.NODE_ENV === 'production' && config.ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION !== 'true') {
      ctx.addIssue({ code: 'custom', path: ['PAYMENT_PROVIDER'], message: 'the local provider gives every plan away without a card: production takes Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET), or set ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION=true on a machine nobody pays on' });
    }
  }
});

/** The provider in use: the one PAYMENT_PROVIDER names; else Stripe when a key is set or in production; else the local one. */
export function paymentProviderOf(config: { PAYMENT_PROVIDER?: 'stripe' | 'local'; STRIPE_SECRET_KEY?: string; STRIPE_WEBHOOK_SECRET?: string; NODE_ENV: string }): 'stripe' | 'local' {
  if (config.PAYMENT_PROVIDER) return config.PAYMENT_PROVIDER;
  return config.STRIPE_SECRET_KEY || config.STRIPE_WEBHOOK_SECRET || config.NODE_ENV === 'production' ? 'stripe' : 'local';
}

export type BillingConfig = z.infer<typeof billingConfigSchema>;
