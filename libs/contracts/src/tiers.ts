export const SUBSCRIPTION_TIERS = ['none', 'essentials', 'pro', 'legacy'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

export function isSubscriptionTier(value: unknown): value is SubscriptionTier {
  return typeof value === 'string' && (SUBSCRIPTION_TIERS as readonly string[]).includes(value);
}

// What each tier includes, and the gates that read it: plans.ts (PLAN_FEATURE_TABLE, canUseFeature).
