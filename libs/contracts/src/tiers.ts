export const SUBSCRIPTION_TIERS = ['none', 'essentials', 'pro', 'legacy'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

export function isSubscriptionTier(value: unknown): value is SubscriptionTier {
  return typeof value === 'string' && (SUBSCRIPTION_TIERS as readonly string[]).includes(value);
}

/**
 * Features that a tier unlocks: the timeline and audio uploads (owner-core spec, section 5: feature
 * gate), final messages and the Parent Circle community (spec 02, section 6: Pro and Legacy).
 */
export type GatedFeature = 'timeline' | 'audio-uploads' | 'final-messages' | 'community';

const TIERS_OF: Record<GatedFeature, readonly SubscriptionTier[]> = {
  timeline: ['essentials', 'pro', 'legacy'],
  'audio-uploads': ['essentials', 'pro', 'legacy'],
  // The original kept the plan in the browser (default vault-essentials); here it is the account's tier.
  'final-messages': ['pro', 'legacy'],
  // Spec 02, section 6: "access to 'community' or subscription tier pro or legacy". The code has no
  // separate community grant, so it is the tier (and admins, who have every feature).
  community: ['pro', 'legacy'],
};

/** Whether the user's plan includes the feature; admins have every feature. */
export function canUseFeature(user: { subscription_tier: SubscriptionTier; ai_admin: boolean } | null, feature: GatedFeature): boolean {
  if (!user) return false;
  if (user.ai_admin) return true;
  return TIERS_OF[feature].includes(user.subscription_tier);
}

/** canUseFeature as a rule over a verified account (its token's plan and admin claims), for the platform's requireFeature. */
export const allowsFeature = (feature: GatedFeature) => (account: { tier: SubscriptionTier; isAdmin: boolean }): boolean =>
  canUseFeature({ subscription_tier: account.tier, ai_admin: account.isAdmin }, feature);
