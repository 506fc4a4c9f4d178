import { expect, test } from './support/test.js';
import { newCredentials, signInViaUi, signUpViaApi, signedInOnVault } from './support/auth.js';
import { expectToast, openSideMenu } from './support/ui.js';

// Route protection (owner-core spec, section 2 "Route protection" and "Side menu"; section 6 roles).

test.describe('signed out', () => {
  for (const path of ['/vault', '/letters', '/timeline']) {
    test(`opening ${path} sends the visitor to the sign-in screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Your legacy begins here.' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
    });
  }

  test('after signing in the user returns to the page they asked for', async ({ page, request }) => {
    const credentials = await signUpViaApi(request, newCredentials('from'));
    await page.goto('/letters?draft=1#top');
    await expect(page).toHaveURL(/\/auth$/);
    await signInViaUi(page, credentials, { open: false });
    await expect(page).toHaveURL(/\/letters\?draft=1#top$/);
    await expectToast(page, 'Welcome back!');
  });

  test('the sign-in redirect is replaced in history: Back does not return to /auth', async ({ page, request }) => {
    const credentials = await signUpViaApi(request, newCredentials('history'));
    await page.goto('/how-it-works');
    await page.goto('/timeline');
    await expect(page).toHaveURL(/\/auth$/);
    await signInViaUi(page, credentials, { open: false });
    await expect(page).toHaveURL(/\/timeline$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/how-it-works$/);
  });

  test('public pages load without a session', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Leave your children the words they will keep forever.' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/how-it-works');
    await expect(page.getByRole('heading', { level: 1, name: 'How It Works' })).toBeVisible();
    await expect(page).toHaveURL(/\/how-it-works$/);
  });

  test('an unknown path under a public prefix shows "Page not found" with a link home', async ({ page }) => {
    await page.goto('/how-it-works/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('an unknown non-public path needs a session first', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('/admin needs a session first', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('the side menu disables the entries that need sign-in', async ({ page }) => {
    await page.goto('/');
    const menu = await openSideMenu(page);
    await expect(menu.getByText('Sign in to open these parts of your vault.')).toBeVisible();

    for (const name of ['Home', 'How It Works', 'Access Request']) {
      const entry = menu.getByRole('link', { name, exact: true });
      await expect(entry).toBeVisible();
      await expect(entry).not.toHaveAttribute('aria-disabled', 'true');
      await expect(entry).toHaveAttribute('href', /^\//);
    }
    const memberEntries = ['Personal Vault', 'Record Video/Audio', 'Letters Unsent', 'Who Am I', 'Timeline', 'Parent Community', 'Court Journal', "If I'm Not There", 'Access Control', 'Settings'];
    for (const name of memberEntries) {
      const entry = menu.getByRole('link', { name, exact: true });
      await expect(entry).toHaveAttribute('aria-disabled', 'true');
      await expect(entry).toBeDisabled();
      await expect(entry).not.toHaveAttribute('href');
    }

    // Clicking a disabled entry anyway (a mouse does not care about aria-disabled) goes nowhere and
    // leaves the menu open.
    await menu.getByRole('link', { name: 'Personal Vault', exact: true }).click({ force: true });
    await expect(page).toHaveURL(/\/$/);
    await expect(menu).toBeVisible();
  });
});

test.describe('signed in', () => {
  for (const path of ['/auth', '/login', '/login-signup']) {
    test(`opening ${path} goes to /vault`, async ({ page }) => {
      await signedInOnVault(page);
      await page.goto(path);
      await expect(page).toHaveURL(/\/vault$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    });
  }

  test('/admin as a non-admin goes to / with "Access denied"', async ({ page }) => {
    await signedInOnVault(page);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, 'Access denied');
    // Non-admins are not offered the dashboard either.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Edit Profile' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Admin Dashboard' })).toHaveCount(0);
  });

  test('the screens the vault links to are built: Settings opens the account form, never "Page not found"', async ({ page }) => {
    await signedInOnVault(page);
    await page.getByRole('region', { name: 'More in your vault' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Account Profile' })).toBeVisible();
    await expect(page.getByText('404')).toHaveCount(0);
  });

  test('an unknown path shows "Page not found" with a link home', async ({ page }) => {
    await signedInOnVault(page);
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/no-such-page$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle(/Page not found/);
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the side menu enables the member entries', async ({ page }) => {
    await signedInOnVault(page);
    const menu = await openSideMenu(page);
    await expect(menu.getByText('Sign in to open these parts of your vault.')).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Personal Vault', exact: true })).toHaveAttribute('href', '/vault');
    await expect(menu.getByRole('link', { name: 'Letters Unsent', exact: true })).toHaveAttribute('href', '/letters');
    await expect(menu.getByRole('link', { name: 'Settings', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
    // The timeline is tier-gated; a new account (tier none) is offered an upgrade instead.
    await expect(menu.getByRole('link', { name: /^Timeline/ })).toHaveAttribute('href', '/pricing');
    await expect(menu.getByRole('link', { name: /^Timeline/ })).toContainText('Upgrade');
  });

  test('the API refuses /api/me without a token', async ({ request }) => {
    const response = await request.get('/api/me');
    expect(response.status()).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
