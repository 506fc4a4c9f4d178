import { expect, test } from './support/test.js';
import { newCredentials, signedInOnVault } from './support/auth.js';

// Plans and checkout (spec 02: Pricing, Subscription Plans, Checkout; FAQ), against the whole stack
// with the local payment provider: its Pay sends signed webhooks to the public webhook route, billing
// verifies them, identity sets the tier, and the gated timeline opens.

test.use({ colorScheme: 'light' });

test.describe('pricing', () => {
  test('shows the three plans with their prices and the FAQ to a visitor; /subscribe shows the plans', async ({ page }) => {
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeVisible();
    const plans = page.getByRole('list', { name: 'Plans' });
    await expect(plans.getByRole('heading', { level: 2 })).toHaveText(['Essentials', 'Pro', 'Legacy']);
    await expect(plans).toContainText('£9.99');
    await expect(plans).toContainText('£20.00');
    await expect(plans).toContainText('£149');
    await expect(plans.getByRole('link', { name: 'Choose Legacy' })).toHaveAttribute('href', '/checkout?plan=legacy');
    // The FAQ a fresh install ships, active entries by display order.
    await expect(page.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeVisible();
    const first = page.locator('summary').first();
    await expect(first).toHaveText('What does each plan include?');
    await first.click();
    await expect(page.getByText(/Essentials \(£9\.99 a month\)/)).toBeVisible();
    await expect(page.getByText('Can I cancel at any time?')).toBeVisible();

    await page.goto('/subscribe');
    await expect(page.getByRole('heading', { level: 1, name: 'Subscription Plans' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Plans' }).getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) })).toHaveCount(3);
  });
});

test.describe('checkout', () => {
  test('asks a visitor to sign in first, and names an unknown plan back', async ({ page }) => {
    await page.goto('/checkout?plan=pro');
    await expect(page).toHaveURL(/\/auth/);
    await signedInOnVault(page, newCredentials('checkout-plan'));
    await page.goto('/checkout?plan=gold');
    await expect(page.getByRole('alert')).toHaveText('There is no plan called “gold”. Choose Essentials, Pro or Legacy.');
    await page.goto('/checkout');
    await expect(page.getByTestId('plan-summary')).toContainText('£9.99/month');
  });

  test('pays for Pro on the provider’s page: the tier becomes pro and the timeline opens', async ({ page }) => {
    await signedInOnVault(page, newCredentials('checkout-pro'));
    await page.goto('/timeline');
    await expect(page.getByRole('heading', { name: 'Your Timeline is a paid feature' })).toBeVisible();

    await page.goto('/pricing');
    await page.getByRole('list', { name: 'Plans' }).getByRole('link', { name: 'Choose Pro' }).click();
    await expect(page).toHaveURL(/\/checkout\?plan=pro$/);
    await expect(page.getByTestId('plan-summary')).toContainText('£20.00/month');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();

    // The provider's hosted page (the local provider's, in the app).
    await expect(page).toHaveURL(/\/checkout\/local\?session=cs_local_[0-9a-f]{32}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Test Checkout' })).toBeVisible();
    await page.getByRole('button', { name: 'Pay £20.00' }).click();

    await expect(page).toHaveURL(/\/checkout\/success\?plan=pro$/);
    await expect(page.getByText('Your Pro plan is active.')).toBeVisible({ timeout: 20_000 });
    const subscription = await page.evaluate(async () => {
      const refresh = await fetch('/api/auth/refresh', { method: 'POST' });
      const { accessToken, profile } = (await refresh.json()) as { accessToken: string; profile: { subscription_tier: string } };
      const answer = await fetch('/api/billing/subscription', { headers: { authorization: `Bearer ${accessToken}` } });
      return { tier: profile.subscription_tier, subscription: (await answer.json()) as { status: string; tier: string } };
    });
    expect(subscription).toMatchObject({ tier: 'pro', subscription: { status: 'active', tier: 'pro' } });

    await page.getByRole('link', { name: 'Go to your vault' }).click();
    await page.goto('/timeline');
    await expect(page.getByRole('heading', { name: 'Your Timeline is a paid feature' })).toHaveCount(0);
    await page.goto('/pricing');
    const plans = page.getByRole('list', { name: 'Plans' });
    await expect(plans.getByText('Your current plan')).toBeVisible();

    // Switching to Legacy while Pro is active: confirmed in a dialog, applied when the provider's signed update arrives.
    await plans.getByRole('button', { name: 'Switch to Legacy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch to Legacy?' });
    await expect(dialog).toContainText('from Pro (£20.00/month) to Legacy (£149/year)');
    await dialog.getByRole('button', { name: 'Switch to Legacy' }).click();
    await expect(page.getByText('You are now on the Legacy plan.')).toBeVisible({ timeout: 20_000 });
    await expect(plans.getByRole('button', { name: 'Switch to Pro' })).toBeVisible();
    await expect.poll(async () => page.evaluate(async () => {
      const refresh = await fetch('/api/auth/refresh', { method: 'POST' });
      return ((await refresh.json()) as { profile: { subscription_tier: string } }).profile.subscription_tier;
    }), { timeout: 20_000 }).toBe('legacy');
  });

  test('cancelling on the provider’s page charges nothing and changes nothing', async ({ page }) => {
    await signedInOnVault(page, newCredentials('checkout-cancel'));
    await page.goto('/checkout?plan=legacy');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await expect(page.getByRole('button', { name: 'Pay £149' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/checkout\/cancel\?plan=legacy$/);
    await expect(page.getByText('Nothing was charged.', { exact: false })).toBeVisible();
    await page.goto('/timeline');
    await expect(page.getByRole('heading', { name: 'Your Timeline is a paid feature' })).toBeVisible();
  });
});

test.describe('the webhook route', () => {
  test('is public but refuses a forged signature', async ({ request }) => {
    const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'customer.subscription.deleted', created: Math.floor(Date.now() / 1000), data: { object: { id: 'sub_x', status: 'canceled', metadata: {} } } });
    const forged = await request.post('/api/billing/webhook', { data: body, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` } });
    expect(forged.status()).toBe(400);
    expect(await forged.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The webhook signature is not valid.' });
    const unsigned = await request.post('/api/billing/webhook', { data: body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.status()).toBe(400);
  });
});
