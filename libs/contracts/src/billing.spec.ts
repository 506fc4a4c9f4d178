import { BillingMessages, checkoutPlanFromQuery, PLAN_CHARGES, planOf, planPriceLabel, PAID_TIERS } from './billing.js';

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

  it('charges the prices the plans show (spec 02, section 9)', () => {
    expect(PAID_TIERS.map((tier) => planPriceLabel(planOf(tier)))).toEqual(['£9.99/month', '£20.00/month', '£149/year']);
    expect(PAID_TIERS.map((tier) => PLAN_CHARGES[tier])).toEqual([
      { amount: 999, currency: 'gbp', interval: 'month' },
      { amount: 2000, currency: 'gbp', interval: 'month' },
      { amount: 14900, currency: 'gbp', interval: 'year' },
    ]);
  });
});
