import type { SubscriptionTier } from './tiers.js';

/** The three plans (spec 02, section 9: business constants). */
export interface Plan {
  /** The checkout's plan query parameter (spec 02: Checkout takes the plan query parameter). */
  id: 'vault-essentials' | 'vault-pro' | 'vault-legacy';
  tier: Exclude<SubscriptionTier, 'none'>;
  name: string;
  price: string;
  period: 'month' | 'year';
  features: readonly string[];
}

export const PLANS: readonly Plan[] = [
  { id: 'vault-essentials', tier: 'essentials', name: 'Essentials', price: '£9.99', period: 'month', features: ['Letters', 'Who I Am', "If I'm Gone message", 'Access Key request management'] },
  { id: 'vault-pro', tier: 'pro', name: 'Pro', price: '£20.00', period: 'month', features: ['Everything in Essentials', 'Video and audio saving', 'Final messages'] },
  { id: 'vault-legacy', tier: 'legacy', name: 'Legacy', price: '£149', period: 'year', features: ['Everything in Pro', 'Priority support', '2 bonus Access Key slots'] },
];
