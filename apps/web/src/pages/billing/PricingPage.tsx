import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { promoCodeFromQuery, type PaidTier } from '@lv/contracts';
import { billingKeys, fetchFaq, fetchSubscription } from '../../api/billing.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { useHydrated } from '../../lib/use-hydrated.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { CheckoutDialog } from './CheckoutDialog.js';
import { FaqEditor } from './FaqEditor.js';
import { PlanCards } from './PlanCards.js';
import { SwitchPlanDialog } from './SwitchPlanDialog.js';

/** The pricing page's FAQ (spec 02: faq entries, active only, by display order). */
export function FaqSection() {
  const faq = useQuery({ queryKey: billingKeys.faq, queryFn: ({ signal }) => fetchFaq(signal) });
  return (
    <section aria-labelledby="faq-heading" className="mx-auto mt-16 max-w-3xl">
      <h2 id="faq-heading" className="text-center font-serif text-3xl font-semibold">
        Frequently Asked Questions
      </h2>
      <div className="mt-6">
        {faq.isPending ? (
          <Spinner label="Loading the questions…" />
        ) : faq.isError ? (
          <LoadFailed message="Could not load the questions." onRetry={() => void faq.refetch()} />
        ) : faq.data.length === 0 ? (
          <p className="text-center text-muted-foreground">No questions yet.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {faq.data.map((entry) => (
              <li key={entry.id}>
                <details className="group rounded-xl border border-border bg-card p-4">
                  <summary className="cursor-pointer font-medium">{entry.question}</summary>
                  <p className="mt-3 whitespace-pre-line text-muted-foreground">{entry.answer}</p>
                </details>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/**
 * /pricing: the three plans and the FAQ; admins also edit the FAQ here. /subscribe shows the plans
 * alone. A link with a promo code (/pricing?promo=CODE) checks out in a dialog with the code filled in
 * (signed out, the code goes along to /checkout, past the sign-in).
 */
export function PricingPage({ variant = 'pricing' }: { variant?: 'pricing' | 'subscribe' }) {
  const title = variant === 'pricing' ? 'Choose Your Plan' : 'Subscription Plans';
  usePageTitle(variant === 'pricing' ? 'Pricing' : 'Subscription Plans');
  const { user } = useAuth();
  const [switchTo, setSwitchTo] = useState<PaidTier | null>(null);
  const [checkoutTier, setCheckoutTier] = useState<PaidTier | null>(null);
  // The page is prerendered without a query: the code joins once React owns the page.
  const [params] = useSearchParams();
  const promo = useHydrated() ? promoCodeFromQuery(params.get('promo')) : null;
  // billing knows whether the plan is active (the token's tier may be minutes old, or cancelled).
  const subscription = useQuery({ queryKey: billingKeys.subscription, queryFn: ({ signal }) => fetchSubscription(signal), enabled: Boolean(user) });
  const activeTier = subscription.data?.status === 'active' && subscription.data.tier !== 'none' ? subscription.data.tier : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="font-serif text-4xl font-semibold">{title}</h1>
        <p className="mt-3 text-muted-foreground">Keep your vault alive for the people you love. Every plan keeps what you save private to you and the family you let in.</p>
      </header>
      <div className="mt-10">
        <PlanCards
          currentTier={activeTier ?? (user ? user.subscription_tier : null)}
          onSwitch={activeTier ? setSwitchTo : undefined}
          onChoose={promo && user ? setCheckoutTier : undefined}
          promo={promo}
        />
      </div>
      {activeTier ? <SwitchPlanDialog from={activeTier} to={switchTo} onClose={() => setSwitchTo(null)} /> : null}
      {promo && user ? <CheckoutDialog tier={checkoutTier} promo={promo} onClose={() => setCheckoutTier(null)} /> : null}
      {variant === 'pricing' ? <FaqSection /> : null}
      {variant === 'pricing' && user?.ai_admin ? <FaqEditor /> : null}
    </div>
  );
}

export function SubscribePage() {
  return <PricingPage variant="subscribe" />;
}
