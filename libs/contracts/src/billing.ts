import { PLANS, type Plan } from './plans.js';
import type { SubscriptionTier } from './tiers.js';

// ---------------------------------------------------------------------------------------------
// Plans and billing (spec 02: Pricing, Subscription Plans, Checkout; Settings' Subscription Status;
// FAQ). Kept by the billing service: one subscription per owner (stream `subscription-{ownerId}`),
// paid through a provider's hosted checkout (Stripe's API shape), whose signed webhooks billing
// verifies. identity follows billing's events and sets the profile's subscription_tier.

/** A paid tier: what /checkout?plan= names (spec 02: essentials (default), pro or legacy). */
export type PaidTier = Exclude<SubscriptionTier, 'none'>;
export const PAID_TIERS: readonly PaidTier[] = ['essentials', 'pro', 'legacy'];
export const DEFAULT_CHECKOUT_PLAN: PaidTier = 'essentials';

export const isPaidTier = (value: unknown): value is PaidTier => typeof value === 'string' && (PAID_TIERS as readonly string[]).includes(value);

/** What the provider charges for each plan, in minor units (pence): the prices of spec 02, section 9. */
export const PLAN_CHARGES: Record<PaidTier, { amount: number; currency: 'gbp'; interval: 'month' | 'year' }> = {
  essentials: { amount: 999, currency: 'gbp', interval: 'month' },
  pro: { amount: 2000, currency: 'gbp', interval: 'month' },
  legacy: { amount: 14900, currency: 'gbp', interval: 'year' },
};

export function planOf(tier: PaidTier): Plan {
  const plan = PLANS.find((p) => p.tier === tier);
  if (!plan) throw new Error(`no plan for tier ${tier}`);
  return plan;
}

/**
 * A promo code as a link carries it (/pricing?promo=CODE, spec 02: prefilled in the checkout dialog):
 * letters, digits, '-' and '_', as payment providers issue them. Upper-cased, as they are
 * case-insensitive; anything else in the link is ignored rather than sent on.
 */
export const PROMO_CODE_PATTERN = /^[A-Z0-9_-]{1,40}$/;

export function promoCodeFromQuery(value: string | null): string | null {
  const given = (value ?? '').trim().toUpperCase();
  return PROMO_CODE_PATTERN.test(given) ? given : null;
}

/** "£20.00/month", as the Settings card and the checkout page show a plan's price. */
export const planPriceLabel = (plan: Plan): string => `${plan.price}/${plan.period}`;

export const BillingMessages = {
  unknownPlan: (value: string) => `There is no plan called “${value}”. Choose Essentials, Pro or Legacy.`,
  alreadySubscribed: (name: string) => `Your ${name} plan is already active.`,
  changeWhileActive: (name: string) => `Your ${name} plan is active. To move to another plan, switch it on the pricing page.`,
  /** Changing plan (rpc.billing.change-plan): only a live, uncancelled subscription moves to another paid plan. */
  noPlanToChange: 'You have no active subscription to change. Choose a plan to subscribe.',
  changeWhileCancelling: 'Your subscription is cancelled; it stays active until the end of the billing period. Choose a new plan once it has ended.',
  changePlanFailed: 'Could not change your plan. Please try again.',
  planChangeRequested: (name: string) => `Switching to ${name}. Your plan changes as soon as the payment provider confirms it.`,
  planChanged: (name: string) => `You are now on the ${name} plan.`,
  nothingToCancel: 'You have no active subscription to cancel.',
  alreadyCancelling: 'Your subscription is already cancelled; it stays active until the end of the billing period.',
  checkoutFailed: 'Could not start the checkout. Please try again.',
  promoCodeInvalid: 'A promo code has only letters, digits, - and _ (up to 40).',
  cancelFailed: 'Could not cancel your subscription. Please try again.',
  cancelled: 'Your subscription is cancelled. Your vault stays fully accessible until the end of the billing period.',
  sessionNotFound: 'This checkout has expired or does not exist. Start again from the pricing page.',
  sessionClosed: 'This checkout is already finished.',
  signatureInvalid: 'The webhook signature is not valid.',
  faqQuestionRequired: 'Please enter a question.',
  faqAnswerRequired: 'Please enter an answer.',
  faqSaved: 'FAQ saved',
  faqSaveFailed: 'Could not save the FAQ entry.',
  dataRetention: 'If you cancel, your content stays accessible until the end of the billing period.',
} as const;

/** The subscription's life as the owner sees it. */
export const SUBSCRIPTION_STATUSES = ['none', 'pending', 'active', 'cancelling', 'ended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  none: 'Not subscribed',
  pending: 'Payment pending',
  active: 'Active',
  cancelling: 'Cancelled, active until the period ends',
  ended: 'Ended',
};

export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 4000;

// Events of the stream `subscription-{ownerId}`: what leaves on JetStream is BillingEvents
// (billing.messaging.ts): ids, the tier the owner is left on, and times.

/**
 * The plan a /checkout?plan= names: essentials (the default when none is given), pro or legacy. The
 * plans' ids (vault-pro...) are accepted too, as the final-messages dialog links with them.
 */
export function checkoutPlanFromQuery(value: string | null): { tier: PaidTier } | { unknown: string } {
  const given = (value ?? '').trim();
  if (!given) return { tier: DEFAULT_CHECKOUT_PLAN };
  const name = given.toLowerCase().replace(/^vault-/, '');
  return isPaidTier(name) ? { tier: name } : { unknown: given.slice(0, 60) };
}
