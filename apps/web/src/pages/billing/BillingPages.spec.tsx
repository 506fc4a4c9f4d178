import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { Toaster } from 'sonner';
import { BillingMessages, type FaqEntry, type SubscriptionView } from '@lv/contracts';
import { createQueryClient } from '../../queries/query-client.js';
import { jsonResponse as json, quietConsole, renderApp, resetApp, sam } from '../../test/app-harness.js';
import { browserNavigation } from './CheckoutPages.js';
import { faqDraftError } from './FaqEditor.js';
import { periodLine, SubscriptionStatusCard } from './SubscriptionStatusCard.js';

// The plans and checkout screens in the whole app, the gateway replaced by a stand-in behind fetch.

const FAQ: FaqEntry[] = [
  { id: '7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a01', question: 'What does each plan include?', answer: 'Essentials keeps your letters.', is_active: true, display_order: 1 },
  { id: '7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a03', question: 'Can I cancel at any time?', answer: 'Yes.', is_active: true, display_order: 3 },
];
const HIDDEN: FaqEntry = { id: '7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a09', question: 'Hidden question?', answer: 'Not shown.', is_active: false, display_order: 9 };
const ACTIVE_PRO: SubscriptionView = { status: 'active', tier: 'pro', current_period_end: '2026-12-26T10:00:00.000Z', cancel_at_period_end: false, provider: 'local' };
const LOCAL_SESSION = 'cs_local_0123456789abcdef0123456789abcdef';

interface Call { method: string; path: string; body?: unknown }

function fakeGateway() {
  const calls: Call[] = [];
  let subscription: SubscriptionView = { status: 'none', tier: 'none', current_period_end: null, cancel_at_period_end: false, provider: 'local' };
  let checkoutAnswer: { status: number; body: unknown } = { status: 201, body: { session_id: LOCAL_SESSION, url: `http://vault.test/checkout/local?session=${LOCAL_SESSION}` } };
  const handler = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://vault.test');
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/api/auth/session') return json(200, { session: null });
    if (url.pathname === '/api/faq') return json(200, FAQ);
    if (url.pathname === '/api/admin/faq' && method === 'GET') return json(200, [...FAQ, HIDDEN]);
    if (url.pathname === '/api/admin/faq' && method === 'POST') return json(201, { id: '7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a10', ...(body as object) });
    if (url.pathname === '/api/billing/subscription') return json(200, subscription);
    if (url.pathname === '/api/billing/checkout') return json(checkoutAnswer.status, checkoutAnswer.body);
    if (url.pathname === '/api/billing/change-plan') {
      subscription = { ...subscription, tier: (body as { plan: SubscriptionView['tier'] }).plan };
      return json(200, subscription);
    }
    if (url.pathname === '/api/billing/cancel') {
      subscription = { ...subscription, status: 'cancelling', cancel_at_period_end: true };
      return json(200, subscription);
    }
    if (url.pathname === `/api/billing/local/sessions/${LOCAL_SESSION}`) return json(200, { session_id: LOCAL_SESSION, tier: 'pro', status: 'open', promo_code: 'SPRING-26', success_url: 'http://vault.test/checkout/success?plan=pro', cancel_url: 'http://vault.test/checkout/cancel?plan=pro' });
    if (url.pathname === `/api/billing/local/sessions/${LOCAL_SESSION}/pay`) return json(200, { session_id: LOCAL_SESSION, tier: 'pro', status: 'paid', promo_code: 'SPRING-26', success_url: 'http://vault.test/checkout/success?plan=pro', cancel_url: 'http://vault.test/checkout/cancel?plan=pro' });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  return {
    calls,
    fetch: jest.fn(handler),
    setSubscription(view: SubscriptionView) {
      subscription = view;
    },
    failCheckout(status: number, body: unknown) {
      checkoutAnswer = { status, body };
    },
  };
}

let gateway: ReturnType<typeof fakeGateway>;
let navigatedTo: string[];

beforeEach(() => {
  gateway = fakeGateway();
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  navigatedTo = [];
  jest.spyOn(browserNavigation, 'assign').mockImplementation((url: string) => void navigatedTo.push(url));
  quietConsole();
});

afterEach(resetApp);

describe('Pricing (/pricing)', () => {
  it('shows the three plans with their prices and the FAQ to a visitor, each plan leading to its checkout', async () => {
    renderApp('/pricing', null);
    await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' });
    const plans = within(screen.getByRole('list', { name: 'Plans' }));
    expect(plans.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Essentials', 'Pro', 'Legacy']);
    expect(plans.getByText('£9.99')).toBeTruthy();
    expect(plans.getByText('£20.00')).toBeTruthy();
    expect(plans.getByText('£149')).toBeTruthy();
    expect(plans.getByRole('link', { name: 'Choose Pro' }).getAttribute('href')).toBe('/checkout?plan=pro');
    expect(plans.getByRole('link', { name: 'Choose Essentials' }).getAttribute('href')).toBe('/checkout?plan=essentials');
    const faq = await screen.findByRole('heading', { name: 'Frequently Asked Questions' });
    expect(faq).toBeTruthy();
    await screen.findByText('What does each plan include?');
    expect(screen.getAllByText(/\?$/).map((q) => q.textContent)).toEqual(['What does each plan include?', 'Can I cancel at any time?']);
    expect(screen.queryByRole('heading', { name: 'Manage FAQ' })).toBeNull();
  });

  it('marks the signed-in owner’s current plan instead of offering it again', async () => {
    renderApp('/pricing', { ...sam, subscription_tier: 'pro' });
    const plans = within(await screen.findByRole('list', { name: 'Plans' }));
    expect(plans.getByText('Your current plan')).toBeTruthy();
    expect(plans.queryByRole('link', { name: 'Choose Pro' })).toBeNull();
  });

  it('offers an owner whose plan is active a switch to each other plan, confirmed in a dialog, then changes it', async () => {
    gateway.setSubscription(ACTIVE_PRO);
    renderApp('/pricing', { ...sam, subscription_tier: 'pro' });
    const plans = within(await screen.findByRole('list', { name: 'Plans' }));
    await plans.findByRole('button', { name: 'Switch to Legacy' });
    expect(plans.getByRole('button', { name: 'Switch to Essentials' })).toBeTruthy();
    expect(plans.getByText('Your current plan')).toBeTruthy();
    expect(plans.queryByRole('link', { name: /^Choose/ })).toBeNull();

    // Keeping the plan asks nothing of billing.
    fireEvent.click(plans.getByRole('button', { name: 'Switch to Essentials' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Switch to Essentials?' })).getByRole('button', { name: 'Keep Pro' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(plans.getByRole('button', { name: 'Switch to Legacy' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Switch to Legacy?' }));
    expect(dialog.getByText(/from Pro \(£20\.00\/month\) to Legacy \(£149\/year\).*a new billing period starts today/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Switch to Legacy' }));
    await screen.findByText(BillingMessages.planChanged('Legacy'));
    expect(gateway.calls.filter((c) => c.path === '/api/billing/change-plan').map((c) => c.body)).toEqual([{ plan: 'legacy' }]);
    await plans.findByRole('button', { name: 'Switch to Pro' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lets an admin add an FAQ entry, refusing an empty question before any request', async () => {
    renderApp('/pricing', { ...sam, ai_admin: true });
    await screen.findByRole('heading', { name: 'Manage FAQ' });
    expect(await screen.findByRole('form', { name: 'FAQ entry: Hidden question?' })).toBeTruthy();
    const form = within(screen.getByRole('form', { name: 'New FAQ entry' }));
    fireEvent.click(form.getByRole('button', { name: 'Add Entry' }));
    await screen.findByText(BillingMessages.faqQuestionRequired);
    expect(gateway.calls.filter((c) => c.method === 'POST')).toEqual([]);
    fireEvent.change(form.getByLabelText('Question'), { target: { value: 'Is there a family discount?' } });
    fireEvent.change(form.getByLabelText('Answer'), { target: { value: 'Not yet.' } });
    fireEvent.click(form.getByRole('button', { name: 'Add Entry' }));
    await screen.findByText(BillingMessages.faqSaved);
    expect(gateway.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/faq')?.body).toEqual({ question: 'Is there a family discount?', answer: 'Not yet.', is_active: true, display_order: 10 });
  });

  it('checks out in a dialog with the link’s promo code filled in, and hands billing the code', async () => {
    renderApp('/pricing?promo=spring-26', sam);
    const plans = within(await screen.findByRole('list', { name: 'Plans' }));
    fireEvent.click(await plans.findByRole('button', { name: 'Choose Pro' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Checkout' }));
    expect(within(dialog.getByTestId('plan-summary')).getByText('£20.00/month')).toBeTruthy();
    expect((dialog.getByLabelText('Promo code') as HTMLInputElement).value).toBe('SPRING-26');
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(navigatedTo).toEqual([`http://vault.test/checkout/local?session=${LOCAL_SESSION}`]));
    expect(gateway.calls.filter((c) => c.path === '/api/billing/checkout').map((c) => c.body)).toEqual([{ plan: 'pro', promo_code: 'SPRING-26' }]);
  });

  it('refuses a promo code no provider issues before any request, and sends none once the field is cleared', async () => {
    renderApp('/pricing?promo=WELCOME', sam);
    fireEvent.click(await within(await screen.findByRole('list', { name: 'Plans' })).findByRole('button', { name: 'Choose Legacy' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Checkout' }));
    const field = dialog.getByLabelText('Promo code');
    fireEvent.change(field, { target: { value: 'two words' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Payment' }));
    expect(await dialog.findByText(BillingMessages.promoCodeInvalid)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(gateway.calls.filter((c) => c.path === '/api/billing/checkout')).toEqual([]);
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(gateway.calls.filter((c) => c.path === '/api/billing/checkout').map((c) => c.body)).toEqual([{ plan: 'legacy' }]));
  });

  it('takes a signed-out visitor’s promo code along to the checkout page, past the sign-in', async () => {
    renderApp('/pricing?promo=spring-26', null);
    const plans = within(await screen.findByRole('list', { name: 'Plans' }));
    await waitFor(() => expect(plans.getByRole('link', { name: 'Choose Pro' }).getAttribute('href')).toBe('/checkout?plan=pro&promo=SPRING-26'));
    expect(screen.queryByRole('dialog')).toBeNull();
    resetApp();
    jest.spyOn(browserNavigation, 'assign').mockImplementation((url: string) => void navigatedTo.push(url));
    renderApp('/checkout?plan=pro&promo=SPRING-26');
    expect((await screen.findByLabelText('Promo code') as HTMLInputElement).value).toBe('SPRING-26');
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(gateway.calls.find((c) => c.path === '/api/billing/checkout')?.body).toEqual({ plan: 'pro', promo_code: 'SPRING-26' }));
  });

  it('shows the plans alone on /subscribe', async () => {
    renderApp('/subscribe', null);
    await screen.findByRole('heading', { level: 1, name: 'Subscription Plans' });
    expect(screen.getByRole('list', { name: 'Plans' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Frequently Asked Questions' })).toBeNull();
  });
});

describe('Checkout (/checkout)', () => {
  it('takes Essentials when no plan is named, and sends the browser to the provider’s page', async () => {
    renderApp('/checkout');
    await screen.findByRole('heading', { level: 1, name: 'Checkout' });
    expect(within(screen.getByTestId('plan-summary')).getByText('£9.99/month')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(navigatedTo).toEqual([`http://vault.test/checkout/local?session=${LOCAL_SESSION}`]));
    expect(gateway.calls.find((c) => c.path === '/api/billing/checkout')?.body).toEqual({ plan: 'essentials' });
    expect(screen.queryByLabelText('Promo code')).toBeNull();
  });

  it('takes the plan of the query (its id too), and names an unknown one back with the plans there are', async () => {
    renderApp('/checkout?plan=vault-legacy');
    expect(within(await screen.findByTestId('plan-summary')).getByText('£149/year')).toBeTruthy();
    resetApp();
    renderApp('/checkout?plan=gold');
    expect((await screen.findByRole('alert')).textContent).toBe(BillingMessages.unknownPlan('gold'));
    expect(screen.queryByRole('button', { name: 'Continue to Payment' })).toBeNull();
  });

  it('says so when a plan is already active, with the way to the subscription', async () => {
    gateway.failCheckout(409, { code: 'CONFLICT', message: BillingMessages.changeWhileActive('Pro') });
    renderApp('/checkout?plan=legacy');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(BillingMessages.changeWhileActive('Pro'));
    expect(within(alert).getByRole('link', { name: 'See your subscription' }).getAttribute('href')).toBe('/settings');
    expect(within(alert).getByRole('link', { name: 'Switch plan' }).getAttribute('href')).toBe('/pricing');
    expect(navigatedTo).toEqual([]);
  });

  it('pays on the local provider’s page, which shows the checkout’s promo code, and returns to the success page', async () => {
    renderApp(`/checkout/local?session=${LOCAL_SESSION}`);
    expect(await screen.findByText('Promo code: SPRING-26')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Pay £20.00' }));
    await waitFor(() => expect(navigatedTo).toEqual(['http://vault.test/checkout/success?plan=pro']));
  });

  it('waits on the success page until the provider’s webhook has activated the plan', async () => {
    gateway.setSubscription({ ...ACTIVE_PRO, status: 'pending', tier: 'none' });
    renderApp('/checkout/success?plan=pro');
    expect(await screen.findByRole('status', { name: 'Confirming your payment…' })).toBeTruthy();
    await waitFor(() => expect(gateway.calls.filter((c) => c.path === '/api/billing/subscription').length).toBeGreaterThan(0));
    // The provider's webhook arrives: the next poll finds the plan active.
    gateway.setSubscription(ACTIVE_PRO);
    expect((await screen.findByText('Your Pro plan is active.', {}, { timeout: 5000 })).textContent).toBe('Your Pro plan is active.');
    expect(screen.getByRole('link', { name: 'Go to your vault' }).getAttribute('href')).toBe('/vault');
  }, 15_000);
});

describe('SubscriptionStatusCard (Settings)', () => {
  const renderCard = () => {
    const queryClient = createQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false } });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <SubscriptionStatusCard />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  };

  it('shows the plan, its price, its status and the next billing date, and cancels at the period end once confirmed', async () => {
    gateway.setSubscription(ACTIVE_PRO);
    renderCard();
    await screen.findByText('Vault Pro');
    expect(screen.getByText('£20.00/month')).toBeTruthy();
    expect(screen.getByTestId('subscription-status').textContent).toBe('Active');
    expect(screen.getByText('Next billing: 26 December 2026')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/pricing');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
    expect(dialog.textContent).toContain('Your plan stays active until 26 December 2026');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep My Plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(gateway.calls.some((c) => c.path === '/api/billing/cancel')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel Subscription' }));
    await screen.findByText(BillingMessages.cancelled);
    expect(screen.getByTestId('subscription-status').textContent).toBe('Cancelled, active until the period ends');
    expect(screen.getByText('Active until: 26 December 2026')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  it('shows no plan, and no cancel button, to an owner without one', async () => {
    renderCard();
    await screen.findByText('No plan');
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Upgrade Plan' })).toBeTruthy();
  });
});

describe('billing helpers', () => {
  it('words the period line by status, and checks FAQ drafts', () => {
    expect(periodLine(ACTIVE_PRO)).toBe('Next billing: 26 December 2026');
    expect(periodLine({ ...ACTIVE_PRO, status: 'ended' })).toBeNull();
    expect(faqDraftError({ question: ' ', answer: 'a', is_active: true, display_order: 0 })).toBe(BillingMessages.faqQuestionRequired);
    expect(faqDraftError({ question: 'q', answer: '', is_active: true, display_order: 0 })).toBe(BillingMessages.faqAnswerRequired);
    expect(faqDraftError({ question: 'q', answer: 'a', is_active: true, display_order: 0 })).toBeNull();
  });
});
