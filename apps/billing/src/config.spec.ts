import { billingConfigSchema, paymentProviderOf } from './config.js';

const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/lv_billing', JWT_PUBLIC_KEY: 'pem' };
const secret = 'a'.repeat(32);
const issues = (env: Record<string, string>) => {
  const result = billingConfigSchema.safeParse({ ...base, ...env });
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('billing config: which provider takes payments', () => {
  it('uses the local provider in development, Stripe when its keys are set', () => {
    expect(paymentProviderOf(billingConfigSchema.parse({ ...base, LOCAL_WEBHOOK_SECRET: secret }))).toBe('local');
    expect(paymentProviderOf(billingConfigSchema.parse({ ...base, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }))).toBe('stripe');
  });

  it('never lets anyone pay without a card in production unless ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION=true says so', () => {
    expect(issues({ NODE_ENV: 'production', LOCAL_WEBHOOK_SECRET: secret })).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY: production takes payments through Stripe/), expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: production takes payments through Stripe/),
    ]);
    // PAYMENT_PROVIDER=local alone (what docker-compose once shipped with NODE_ENV=production) is refused.
    expect(issues({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'local', LOCAL_WEBHOOK_SECRET: secret })).toEqual([expect.stringMatching(/^PAYMENT_PROVIDER: the local provider gives every plan away/)]);
    expect(issues({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'local', ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION: 'false', LOCAL_WEBHOOK_SECRET: secret })).toHaveLength(1);
    expect(paymentProviderOf(billingConfigSchema.parse({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'local', ALLOW_LOCAL_PAYMENTS_IN_PRODUCTION: 'true', LOCAL_WEBHOOK_SECRET: secret }))).toBe('local');
  });

  it('names what is missing: half of Stripe’s keys, or the local provider’s secret', () => {
    expect(issues({ STRIPE_SECRET_KEY: 'sk_test_x' })).toEqual(['STRIPE_WEBHOOK_SECRET: Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET']);
    expect(issues({})).toEqual(['LOCAL_WEBHOOK_SECRET: the local payment provider needs LOCAL_WEBHOOK_SECRET']);
    expect(issues({ STRIPE_SECRET_KEY: 'pk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })[0]).toMatch(/^STRIPE_SECRET_KEY: must be a Stripe secret key/);
  });
});
