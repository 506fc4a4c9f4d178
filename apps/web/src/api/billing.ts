import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type SubscriptionView = Schema<'SubscriptionViewDto'>;
export type CheckoutSession = Schema<'CheckoutSessionDto'>;
export type PaidTier = Schema<'StartCheckoutDto'>['plan'];
export type LocalCheckoutSession = Schema<'LocalCheckoutSessionDto'>;
export type FaqEntry = Schema<'FaqEntryDto'>;
export type SaveFaqRequest = Schema<'SaveFaqDto'>;

export const billingKeys = {
  subscription: ['billing', 'subscription'] as const,
  faq: ['billing', 'faq'] as const,
  faqAll: ['billing', 'faq', 'all'] as const,
  localSession: (id: string) => ['billing', 'local-session', id] as const,
};

/** The signed-in owner's subscription (Settings' Subscription Status). */
export function fetchSubscription(signal?: AbortSignal): Promise<SubscriptionView> {
  return http.get('/api/billing/subscription', { signal });
}

/** Opens the provider's hosted checkout for a plan (with a promo code when one is given): the browser then goes to `url`. */
export function startCheckout(plan: PaidTier, promoCode: string | null = null): Promise<CheckoutSession> {
  return http.post('/api/billing/checkout', { body: promoCode ? { plan, promo_code: promoCode } : { plan } });
}

/** Cancel Subscription: no renewal; the plan stays active until the period ends. */
export function cancelSubscription(): Promise<SubscriptionView> {
  return http.post('/api/billing/cancel');
}

/** Switches the active plan to another one (prorated by the provider); the reply is the subscription as billing has it now. */
export function changePlan(plan: PaidTier): Promise<SubscriptionView> {
  return http.post('/api/billing/change-plan', { body: { plan } });
}

export function fetchLocalSession(id: string, signal?: AbortSignal): Promise<LocalCheckoutSession> {
  return http.get('/api/billing/local/sessions/{id}', { path: { id }, signal });
}

export function payLocalSession(id: string): Promise<LocalCheckoutSession> {
  return http.post('/api/billing/local/sessions/{id}/pay', { path: { id } });
}

export function cancelLocalSession(id: string): Promise<LocalCheckoutSession> {
  return http.post('/api/billing/local/sessions/{id}/cancel', { path: { id } });
}

/** The pricing page's FAQ: active entries by display order (public). */
export function fetchFaq(signal?: AbortSignal): Promise<FaqEntry[]> {
  return http.get('/api/faq', { signal });
}

/** Every FAQ entry (admins). */
export function fetchAllFaq(signal?: AbortSignal): Promise<FaqEntry[]> {
  return http.get('/api/admin/faq', { signal });
}

/** Adds (no id) or edits (id) an FAQ entry (admins). */
export function saveFaq(entry: SaveFaqRequest): Promise<FaqEntry> {
  const { id, ...body } = entry;
  return id ? http.put('/api/admin/faq/{id}', { path: { id }, body }) : http.post('/api/admin/faq', { body });
}
