import type { CheckoutSession, FaqEntry, LocalCheckoutSession, PaidTier, SaveFaqRequest, SubscriptionView } from '@lv/contracts';
import { api } from './api.js';

export const billingKeys = {
  subscription: ['billing', 'subscription'] as const,
  faq: ['billing', 'faq'] as const,
  faqAll: ['billing', 'faq', 'all'] as const,
  localSession: (id: string) => ['billing', 'local-session', id] as const,
};

/** The signed-in owner's subscription (Settings' Subscription Status). */
export function fetchSubscription(signal?: AbortSignal): Promise<SubscriptionView> {
  return api.get<SubscriptionView>('/api/billing/subscription', { signal });
}

/** Opens the provider's hosted checkout for a plan (with a promo code when one is given): the browser then goes to `url`. */
export function startCheckout(plan: PaidTier, promoCode: string | null = null): Promise<CheckoutSession> {
  return api.request<CheckoutSession>('/api/billing/checkout', { method: 'POST', body: promoCode ? { plan, promo_code: promoCode } : { plan } });
}

/** Cancel Subscription: no renewal; the plan stays active until the period ends. */
export function cancelSubscription(): Promise<SubscriptionView> {
  return api.request<SubscriptionView>('/api/billing/cancel', { method: 'POST' });
}

/** Switches the active plan to another one (prorated by the provider); the reply is the subscription as billing has it now. */
export function changePlan(plan: PaidTier): Promise<SubscriptionView> {
  return api.request<SubscriptionView>('/api/billing/change-plan', { method: 'POST', body: { plan } });
}

export function fetchLocalSession(id: string, signal?: AbortSignal): Promise<LocalCheckoutSession> {
  return api.get<LocalCheckoutSession>(`/api/billing/local/sessions/${encodeURIComponent(id)}`, { signal });
}

export function payLocalSession(id: string): Promise<LocalCheckoutSession> {
  return api.request<LocalCheckoutSession>(`/api/billing/local/sessions/${encodeURIComponent(id)}/pay`, { method: 'POST' });
}

export function cancelLocalSession(id: string): Promise<LocalCheckoutSession> {
  return api.request<LocalCheckoutSession>(`/api/billing/local/sessions/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
}

/** The pricing page's FAQ: active entries by display order (public). */
export function fetchFaq(signal?: AbortSignal): Promise<FaqEntry[]> {
  return api.get<FaqEntry[]>('/api/faq', { signal });
}

/** Every FAQ entry (admins). */
export function fetchAllFaq(signal?: AbortSignal): Promise<FaqEntry[]> {
  return api.get<FaqEntry[]>('/api/admin/faq', { signal });
}

/** Adds (no id) or edits (id) an FAQ entry (admins). */
export function saveFaq(entry: SaveFaqRequest): Promise<FaqEntry> {
  const { id, ...body } = entry;
  return id ? api.request<FaqEntry>(`/api/admin/faq/${id}`, { method: 'PUT', body }) : api.request<FaqEntry>('/api/admin/faq', { method: 'POST', body });
}
