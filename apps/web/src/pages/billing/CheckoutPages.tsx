import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX, Lock } from 'lucide-react';
import { BillingMessages, checkoutPlanFromQuery, planOf, planPriceLabel, promoCodeFromQuery, type PaidTier } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { billingKeys, cancelLocalSession, fetchLocalSession, fetchSubscription, payLocalSession, startCheckout } from '../../api/billing.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Card, CardContent, CardHeader } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';

/** How long the return page waits for the provider's webhook before saying it is still on its way. */
export const CONFIRM_WAIT_MS = 30_000;
const CONFIRM_POLL_MS = 1_000;

/** Leaves the app for the provider's hosted page (a seam the specs replace). */
export const browserNavigation = { assign: (url: string) => window.location.assign(url) };

function PlanSummary({ tier }: { tier: PaidTier }) {
  const plan = planOf(tier);
  return (
    <div className="rounded-xl border border-border p-4" data-testid="plan-summary">
      <p className="font-serif text-xl font-semibold">{plan.name}</p>
      <p className="text-2xl font-semibold">{planPriceLabel(plan)}</p>
      <ul aria-label={`${plan.name} includes`} className="mt-3 list-disc pl-5 text-sm text-muted-foreground">
        {plan.features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
    </div>
  );
}

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="font-serif text-2xl font-semibold">{title}</h1>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">{children}</CardContent>
      </Card>
    </div>
  );
}

/**
 * The chosen plan and the way to the payment provider's secure page: the checkout page's body, and the
 * pricing page's checkout dialog (spec 02: "a promo code is prefilled in the dialog variant"). With
 * `promo` (the link's code), a promo code field holds it, to be changed or cleared before paying.
 */
export function CheckoutPanel({ tier, promo, otherActions }: { tier: PaidTier; promo: string | null; otherActions?: ReactNode }) {
  const promoId = useId();
  const promoErrorId = useId();
  const [promoText, setPromoText] = useState(promo ?? '');
  const [promoInvalid, setPromoInvalid] = useState(false);
  const start = useMutation({
    mutationFn: (code: string | null) => startCheckout(tier, code),
    onSuccess: (session) => browserNavigation.assign(session.url),
  });
  const submit = () => {
    const code = promoText.trim() ? promoCodeFromQuery(promoText) : null;
    setPromoInvalid(promoText.trim() !== '' && code === null);
    if (promoText.trim() !== '' && code === null) return;
    start.mutate(code);
  };
  const alreadyActive = start.error instanceof ApiError && start.error.code === 'CONFLICT';
  return (
    <>
      <PlanSummary tier={tier} />
      {promo !== null ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={promoId}>Promo code</Label>
          <Input
            id={promoId}
            name="promo"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={promoText}
            onChange={(event) => setPromoText(event.target.value)}
            aria-invalid={promoInvalid || undefined}
            aria-describedby={promoInvalid ? promoErrorId : undefined}
          />
          {promoInvalid ? (
            <p id={promoErrorId} className="text-sm text-destructive">
              {BillingMessages.promoCodeInvalid}
            </p>
          ) : null}
        </div>
      ) : null}
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Lock aria-hidden="true" className="h-4 w-4" />
        You pay on our card-payment provider’s secure page. Legacy Vault never sees your card.
      </p>
      {start.isError ? (
        <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm">
          {alreadyActive ? errorMessage(start.error, BillingMessages.checkoutFailed) : BillingMessages.checkoutFailed}
          {alreadyActive ? (
            <>
              {' '}
              <Link to="/pricing" className="underline">
                Switch plan
              </Link>{' '}
              ·{' '}
              <Link to="/settings" className="underline">
                See your subscription
              </Link>
            </>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button onClick={submit} disabled={start.isPending || start.isSuccess}>
          {start.isPending || start.isSuccess ? 'Opening the secure payment page…' : 'Continue to Payment'}
        </Button>
        {otherActions}
      </div>
    </>
  );
}

/**
 * /checkout?plan=essentials|pro|legacy (essentials when none is given), and ?promo= from a pricing link
 * followed while signed out: the chosen plan, and the way to the payment provider's secure page. An
 * unknown plan is named back with the plans there are.
 */
export function CheckoutPage() {
  usePageTitle('Checkout');
  const [params] = useSearchParams();
  const choice = checkoutPlanFromQuery(params.get('plan'));
  if ('unknown' in choice) {
    return (
      <Page title="Checkout">
        <p role="alert">{BillingMessages.unknownPlan(choice.unknown)}</p>
        <Link to="/pricing" className={buttonClasses({ variant: 'outline' })}>
          See the plans
        </Link>
      </Page>
    );
  }
  return (
    <Page title="Checkout">
      <CheckoutPanel
        tier={choice.tier}
        promo={promoCodeFromQuery(params.get('promo'))}
        otherActions={
          <Link to="/pricing" className={buttonClasses({ variant: 'ghost' })}>
            Choose another plan
          </Link>
        }
      />
    </Page>
  );
}

/**
 * /checkout/local?session=…: the local development provider's hosted page (what Stripe's Checkout is
 * in production). Pay makes the provider send its signed webhooks to the app's public webhook route.
 */
export function LocalCheckoutPage() {
  usePageTitle('Test Checkout');
  const [params] = useSearchParams();
  const sessionId = params.get('session') ?? '';
  const session = useQuery({ queryKey: billingKeys.localSession(sessionId), queryFn: ({ signal }) => fetchLocalSession(sessionId, signal), enabled: sessionId !== '' });
  const pay = useMutation({ mutationFn: () => payLocalSession(sessionId), onSuccess: (done) => browserNavigation.assign(done.success_url) });
  const cancel = useMutation({ mutationFn: () => cancelLocalSession(sessionId), onSuccess: (done) => browserNavigation.assign(done.cancel_url) });
  if (!sessionId || session.isError) {
    return (
      <Page title="Test Checkout">
        <p role="alert">{BillingMessages.sessionNotFound}</p>
        <Link to="/pricing" className={buttonClasses({ variant: 'outline' })}>
          See the plans
        </Link>
      </Page>
    );
  }
  if (session.isPending) return <Spinner label="Loading the checkout…" />;
  const plan = planOf(session.data.tier);
  const busy = pay.isPending || cancel.isPending || pay.isSuccess || cancel.isSuccess;
  return (
    <Page title="Test Checkout">
      <p className="rounded-lg bg-muted p-3 text-sm">The development payment provider: no card is asked for and nothing is charged.</p>
      <PlanSummary tier={session.data.tier} />
      {session.data.promo_code ? <p>Promo code: {session.data.promo_code}</p> : null}
      {session.data.status !== 'open' ? (
        <p role="alert">{BillingMessages.sessionClosed}</p>
      ) : (
        <>
          {pay.isError || cancel.isError ? <p role="alert">{errorMessage(pay.error ?? cancel.error, BillingMessages.checkoutFailed)}</p> : null}
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => pay.mutate()} disabled={busy}>
              Pay {plan.price}
            </Button>
            <Button variant="outline" onClick={() => cancel.mutate()} disabled={busy}>
              Cancel
            </Button>
          </div>
        </>
      )}
    </Page>
  );
}

/**
 * /checkout/success?plan=…: back from the provider. The plan is active once the provider's webhook
 * has arrived: the page waits for that, then renews the session so the new plan opens its features.
 */
export function CheckoutSuccessPage() {
  usePageTitle('Payment received');
  const queryClient = useQueryClient();
  const auth = useAuth();
  const [params] = useSearchParams();
  const choice = checkoutPlanFromQuery(params.get('plan'));
  const [waitedOut, setWaitedOut] = useState(false);
  const [sessionRenewed, setSessionRenewed] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setWaitedOut(true), CONFIRM_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, []);
  // Every second until the webhook has been applied; after the wait, every 10 s (the page says why).
  const subscription = useQuery({
    queryKey: billingKeys.subscription,
    queryFn: ({ signal }) => fetchSubscription(signal),
    refetchInterval: (query) => (query.state.data?.status === 'active' ? false : waitedOut ? 10 * CONFIRM_POLL_MS : CONFIRM_POLL_MS),
  });
  const active = subscription.data?.status === 'active';
  useEffect(() => {
    if (!active || sessionRenewed) return;
    // The access token carries the tier: a new one opens the plan's features without signing in again.
    void auth.refresh().finally(() => {
      setSessionRenewed(true);
      void queryClient.invalidateQueries();
    });
  }, [active, sessionRenewed, queryClient, auth]);
  const activeTier = subscription.data?.tier;
  const name = active && activeTier && activeTier !== 'none' ? planOf(activeTier).name : 'tier' in choice ? planOf(choice.tier).name : 'new';
  return (
    <Page title="Payment received">
      {active && sessionRenewed ? (
        <>
          <p role="status" className="flex items-center gap-2">
            <CircleCheck aria-hidden="true" className="h-5 w-5 text-primary" />
            Your {name} plan is active.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link to="/vault" className={buttonClasses()}>
              Go to your vault
            </Link>
            <Link to="/settings" className={buttonClasses({ variant: 'outline' })}>
              See your subscription
            </Link>
          </div>
        </>
      ) : waitedOut ? (
        <p role="status">Your payment is being confirmed. This can take a minute; your plan shows in Settings as soon as it is.</p>
      ) : (
        <Spinner label="Confirming your payment…" />
      )}
    </Page>
  );
}

/** /checkout/cancel: back from the provider without paying. */
export function CheckoutCancelledPage() {
  usePageTitle('Checkout cancelled');
  return (
    <Page title="Checkout cancelled">
      <p className="flex items-center gap-2">
        <CircleX aria-hidden="true" className="h-5 w-5 text-muted-foreground" />
        Nothing was charged. You can choose a plan whenever you are ready.
      </p>
      <Link to="/pricing" className={buttonClasses({ variant: 'outline' })}>
        Back to the plans
      </Link>
    </Page>
  );
}

