import { expect, test } from './support/test.js';
import { newCredentials, signedInOnVault, signInViaUi, signUpViaApi } from './support/auth.js';

// The promo code of a pricing link (spec 02: "a promo code is prefilled in the dialog variant";
// issue 35): /pricing?promo=CODE checks out in a dialog with the code filled in, and billing passes it
// on to the provider, whose hosted page (the local provider's, in the app) names it. On a phone and on
// a desktop.

test.use({ colorScheme: 'light' });

const VIEWPORTS = [
  { name: 'phone', width: 412, height: 823 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

for (const viewport of VIEWPORTS) {
  test(`a pricing link's promo code is filled into the checkout dialog and reaches the provider's page (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signedInOnVault(page, newCredentials(`promo-${viewport.name}`));

    await page.goto('/pricing?promo=spring-26');
    await expect(page.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeVisible();
    await page.getByRole('list', { name: 'Plans' }).getByRole('button', { name: 'Choose Pro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    await expect(dialog.getByTestId('plan-summary')).toContainText('£20.00/month');
    const code = dialog.getByLabel('Promo code');
    await expect(code).toHaveValue('SPRING-26');
    // The dialog fits the screen: its field and its button can be seen without scrolling the page.
    await expect(code).toBeInViewport();
    await dialog.getByRole('button', { name: 'Continue to Payment' }).click();

    await expect(page).toHaveURL(/\/checkout\/local\?session=cs_local_[0-9a-f]{32}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Test Checkout' })).toBeVisible();
    await expect(page.getByText('Promo code: SPRING-26')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/checkout\/cancel\?plan=pro$/);
  });
}

test('a signed-out visitor keeps the promo code through the sign-in, on the checkout page', async ({ page, request }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  // An account made with the test's own request: the browser stays signed out.
  const credentials = await signUpViaApi(request, newCredentials('promo-visitor'));
  await page.goto('/pricing?promo=WELCOME_10');
  const choose = page.getByRole('list', { name: 'Plans' }).getByRole('link', { name: 'Choose Legacy' });
  await expect(choose).toHaveAttribute('href', '/checkout?plan=legacy&promo=WELCOME_10');
  await choose.click();
  await expect(page).toHaveURL(/\/auth/);
  await signInViaUi(page, credentials, { open: false });
  await expect(page).toHaveURL(/\/checkout\?plan=legacy&promo=WELCOME_10$/);
  await expect(page.getByLabel('Promo code')).toHaveValue('WELCOME_10');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page.getByText('Promo code: WELCOME_10')).toBeVisible();
});
