import { BillingMessages, checkoutPlanFromQuery, PLAN_CHARGES, planOf, planPriceLabel, PAID_TIERS, promoCodeFromQuery } from './billing.js';
import { startCheckoutBodySchema } from './billing.schemas.js';

describe('checkout plans', () => {
  it('reads /checkout?plan=: essentials by default, pro or legacy, the plans’ ids too, anything else named back', () => {
    expect(checkoutPlanFromQuery(null)).toEqual({ tier: 'essentials' });
    expect(checkoutPlanFromQuery('  ')).toEqual({ tier: 'essentials' });
    expect(checkoutPlanFromQuery('pro')).toEqual({ tier: 'pro' });
    expect(checkoutPlanFromQuery('Legacy')).toEqual({ tier: 'legacy' });
    expect(checkoutPlanFromQuery('vault-pro')).toEqual({ tier: 'pro' });
    expect(checkoutPlanFromQuery('gold')).toEqual({ unknown: 'gold' });
    expect(BillingMessages.unknownPlan('gold')).toBe('There is no plan called “gold”. Choose Essentials, Pro or Legacy.');
  });

  it('reads a promo code from a link (/pricing?promo=): upper-cased, and nothing for what no provider issues', () => {
    expect(promoCodeFromQuery(' spring-26 ')).toBe('SPRING-26');
    expect(promoCodeFromQuery('WELCOME_10')).toBe('WELCOME_10');
    expect(promoCodeFromQuery(null)).toBeNull();
    expect(promoCodeFromQuery('')).toBeNull();
    expect(promoCodeFromQuery('two words')).toBeNull();
    expect(promoCodeFromQuery('<script>')).toBeNull();
    expect(promoCodeFromQuery('A'.repeat(41))).toBeNull();
  });

  it('starts a checkout with a promo code or without one, and refuses one no provider issues', () => {
    expect(startCheckoutBodySchema.parse({ plan: 'pro', promo_code: 'SPRING-26' })).toEqual({ plan: 'pro', promo_code: 'SPRING-26' });
    expect(startCheckoutBodySchema.parse({ plan: 'pro' })).toEqual({ plan: 'pro' });
    expect(startCheckoutBodySchema.safeParse({ plan: 'pro', promo_code: 'spring 26' }).success).toBe(false);
    expect(startCheckoutBodySchema.safeParse({ plan: 'pro', promo_code: '' }).success).toBe(false);
  });

  it('charges the prices the plans show (spec 02, section 9)', () => {
    expect(PAID_TIERS.map((tier) => planPriceLabel(planOf(tier)))).toEqual(['£9.99/month', '£20.00/month', '£149/year']);
    expect(PAID_TIERS.map((tier) => PLAN_CHARGES[tier])).toEqual([
      { amount: 999, currency: 'gbp', interval: 'month' },
      { amount: 2000, currency: 'gbp', interval: 'month' },
      { amount: 14900, currency: 'gbp', interval: 'year' },
    ]);
  });
});
