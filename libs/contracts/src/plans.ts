import { SUBSCRIPTION_TIERS, type SubscriptionTier } from './tiers.js';

// ---------------------------------------------------------------------------------------------
// What each plan includes: ONE table, read by the pricing page (its feature lists), the services'
// gates (vault-media, timeline, letters' community) and the SPA's (menu, recorder, timeline,
// community, final messages). plan-gates.spec.ts fails when any of them disagree.
//
// Where the two spec documents differ, the plans (spec 02, section 9: what is sold) decide:
// - "Pro £20.00 per month: adds video and audio saving": saving a video or an audio recording is Pro
//   and Legacy, both on the Record page and as final messages (spec 02, section 6: vault-pro or
//   vault-legacy). The owner-core gate that opened audio to Essentials no longer applies.
// - The timeline stays Essentials and above (owner-core spec, section 5: feature gate); Essentials'
//   card says so.
// - The Parent Circle community is Pro and Legacy (spec 02, section 6); Pro's card says so.
// - Everything else (letters, Who I Am, If I'm Not There, access keys, the court journal) is open to
//   any signed-in owner (owner-core spec, section 5: "All other features are open to any signed-in
//   user"); the Essentials card still lists what it includes in the spec's words.

/** Tiers from the least to the most: a tier includes everything of the tiers before it. */
export const TIER_ORDER: readonly SubscriptionTier[] = SUBSCRIPTION_TIERS;

export type PlanFeature =
  | 'letters'
  | 'who-i-am'
  | 'if-im-gone'
  | 'access-keys'
  | 'court-journal'
  | 'timeline'
  | 'video-saving'
  | 'audio-saving'
  | 'final-messages'
  | 'community'
  | 'priority-support'
  | 'bonus-access-key-slots';

/** Kept for the gates' signatures: a feature a plan may or may not include. */
export type GatedFeature = PlanFeature;

export interface PlanFeatureRow {
  /** The lowest tier that includes it ('none': any signed-in owner). */
  from: SubscriptionTier;
  /** The line on the pricing page, on the card of `listedOn` (rows sharing a line show it once), or null: not listed. */
  pricing: string | null;
  listedOn: Exclude<SubscriptionTier, 'none'> | null;
  /** What a refusal calls it ("Saving video messages is part of the Pro and Legacy plans."). */
  name: string;
  plural?: boolean;
  /** 'app': the services and the SPA refuse it below `from`; 'service': a promise of the people running it (support). */
  enforced: 'app' | 'service';
}

/** THE table. Its order is the order of the pricing cards' lines. */
export const PLAN_FEATURE_TABLE: Readonly<Record<PlanFeature, PlanFeatureRow>> = {
  letters: { from: 'none', pricing: 'Letters', listedOn: 'essentials', name: 'Letters', plural: true, enforced: 'app' },
  'who-i-am': { from: 'none', pricing: 'Who I Am', listedOn: 'essentials', name: 'Who I Am', enforced: 'app' },
  'if-im-gone': { from: 'none', pricing: "If I'm Gone message", listedOn: 'essentials', name: "The If I'm Gone message", enforced: 'app' },
  'access-keys': { from: 'none', pricing: 'Access Key request management', listedOn: 'essentials', name: 'Access Key request management', enforced: 'app' },
  'court-journal': { from: 'none', pricing: null, listedOn: null, name: 'The Court Journal', enforced: 'app' },
  timeline: { from: 'essentials', pricing: 'Timeline', listedOn: 'essentials', name: 'The timeline', enforced: 'app' },
  'video-saving': { from: 'pro', pricing: 'Video and audio saving', listedOn: 'pro', name: 'Saving video messages', enforced: 'app' },
  'audio-saving': { from: 'pro', pricing: 'Video and audio saving', listedOn: 'pro', name: 'Saving audio messages', enforced: 'app' },
  'final-messages': { from: 'pro', pricing: 'Final messages', listedOn: 'pro', name: 'Final messages', plural: true, enforced: 'app' },
  community: { from: 'pro', pricing: 'Parent Circle community', listedOn: 'pro', name: 'The Parent Circle community', enforced: 'app' },
  'priority-support': { from: 'legacy', pricing: 'Priority support', listedOn: 'legacy', name: 'Priority support', enforced: 'service' },
  'bonus-access-key-slots': { from: 'legacy', pricing: '2 bonus Access Key slots', listedOn: 'legacy', name: 'Bonus Access Key slots', plural: true, enforced: 'service' },
};

export const PLAN_FEATURES = Object.keys(PLAN_FEATURE_TABLE) as PlanFeature[];

export function isPlanFeature(value: unknown): value is PlanFeature {
  return typeof value === 'string' && Object.hasOwn(PLAN_FEATURE_TABLE, value);
}

const rank = (tier: SubscriptionTier): number => TIER_ORDER.indexOf(tier);

/** Whether a tier includes a feature, by the table alone (no admin rule). */
export function tierIncludes(tier: SubscriptionTier, feature: PlanFeature): boolean {
  return rank(tier) >= rank(PLAN_FEATURE_TABLE[feature].from);
}

/** Every feature a tier includes, in the table's order. */
export const featuresOfTier = (tier: SubscriptionTier): PlanFeature[] => PLAN_FEATURES.filter((feature) => tierIncludes(tier, feature));

/** The three plans (spec 02, section 9: business constants). */
export interface Plan {
  /** The checkout's plan query parameter (spec 02: Checkout takes the plan query parameter). */
  id: 'vault-essentials' | 'vault-pro' | 'vault-legacy';
  tier: Exclude<SubscriptionTier, 'none'>;
  name: string;
  price: string;
  period: 'month' | 'year';
  /** The card's lines: "Everything in {the plan before}", then the table's lines listed on this plan. */
  features: readonly string[];
}

const PLAN_PRICES: readonly Omit<Plan, 'features'>[] = [
  { id: 'vault-essentials', tier: 'essentials', name: 'Essentials', price: '£9.99', period: 'month' },
  { id: 'vault-pro', tier: 'pro', name: 'Pro', price: '£20.00', period: 'month' },
  { id: 'vault-legacy', tier: 'legacy', name: 'Legacy', price: '£149', period: 'year' },
];

/** A plan's pricing lines, derived from the table (a line shared by two rows is shown once). */
function pricingLinesOf(tier: Plan['tier'], before: Omit<Plan, 'features'> | undefined): string[] {
  const lines = before ? [`Everything in ${before.name}`] : [];
  for (const feature of PLAN_FEATURES) {
    const row = PLAN_FEATURE_TABLE[feature];
    if (row.listedOn === tier && row.pricing && !lines.includes(row.pricing)) lines.push(row.pricing);
  }
  return lines;
}

export const PLANS: readonly Plan[] = PLAN_PRICES.map((plan, i) => ({ ...plan, features: pricingLinesOf(plan.tier, PLAN_PRICES[i - 1]) }));

/** The plans that include a feature, by name ("Pro and Legacy"). */
export function planNamesWith(feature: PlanFeature): string[] {
  return PLAN_PRICES.filter((plan) => tierIncludes(plan.tier, feature)).map((plan) => plan.name);
}

const joinNames = (names: readonly string[]): string => (names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** The plans that include a feature, as a phrase ("Pro and Legacy"). */
export const planNamesText = (feature: PlanFeature): string => joinNames(planNamesWith(feature));

/** What a refusal says: "Saving video messages is part of the Pro and Legacy plans." */
export function planRequiredMessage(feature: PlanFeature): string {
  const row = PLAN_FEATURE_TABLE[feature];
  return `${row.name} ${row.plural ? 'are' : 'is'} part of the ${planNamesText(feature)} plans.`;
}

/** What the recorder saves a recording of a type as: video or audio saving. */
export const recordingFeature = (type: 'video' | 'audio'): 'video-saving' | 'audio-saving' => (type === 'video' ? 'video-saving' : 'audio-saving');

/** Whether the user's plan includes the feature; admins have every feature; no user has none. */
export function canUseFeature(user: { subscription_tier: SubscriptionTier; ai_admin: boolean } | null, feature: PlanFeature): boolean {
  if (!user) return false;
  if (user.ai_admin) return true;
  return tierIncludes(user.subscription_tier, feature);
}

/** canUseFeature as a rule over a verified account (its token's plan and admin claims), for the platform's requireFeature. */
export const allowsFeature = (feature: PlanFeature) => (account: { tier: SubscriptionTier; isAdmin: boolean }): boolean =>
  canUseFeature({ subscription_tier: account.tier, ai_admin: account.isAdmin }, feature);
