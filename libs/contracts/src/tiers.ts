export const SUBSCRIPTION_TIERS = ['none', 'essentials', 'pro', 'legacy'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

export function isSubscriptionTier(value: unknown): value is SubscriptionTier {
  return typeof value === 'string' && (SUBSCRIPTION_TIERS as readonly string[]).includes(value);
}

/** Features that a tier unlocks (owner-core spec, section 5: feature gate). */
export type GatedFeature = 'timeline' | 'audio-uploads';

/** The timeline and audio uploads are for essentials, pro and legacy, and for admins. */
export function canUseFeature(user: { subscription_tier: SubscriptionTier; ai_admin: boolean } | null, _feature: GatedFeature): boolean {
  if (!user) return false;
  if (user.ai_admin) return true;
  return user.subscription_tier === 'essentials' || user.subscription_tier === 'pro' || user.subscription_tier === 'legacy';
}
