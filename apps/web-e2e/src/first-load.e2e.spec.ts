import { expect, test } from './support/test.js';
import { accountMenuButton, newCredentials, signedInOnVault } from './support/auth.js';
import { collectConsoleErrors } from './support/ui.js';

// First load (issue 10): prerendered pages paint from their HTML before any script has run, and the app
// then takes them over (hydrates) without a mismatch. The vault home needs a session: it is prerendered
// as it shows while the session loads (the shell and the page's placeholder, nothing of any user's).

const VAULT_SUBTITLE = 'Your private vault. Everything here is for you and the people you choose.';


test('the vault home paints its shell and placeholder from the HTML, with no script and nothing of the user\'s', async ({ page }) => {
  const credentials = await signedInOnVault(page, newCredentials('first-load'));
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('/vault');
  await expect(page.getByText(VAULT_SUBTITLE)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  // Neither Login nor the account menu before the session is known; to a screen reader, "Loading".
  await expect(page.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(accountMenuButton(page)).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
  expect(await page.content()).not.toContain(credentials.email);
});

test('signed in, the vault home hydrates without a mismatch and becomes the page', async ({ page }) => {
  await signedInOnVault(page, newCredentials('hydrate'));
  const errors = collectConsoleErrors(page);
  await page.goto('/vault');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();
  await expect(accountMenuButton(page)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Thoughts & Feelings' })).toBeEnabled();
  await expect(page.locator('[inert]')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('signed out, the vault home\'s placeholder gives way to the sign-in screen', async ({ page }) => {
  await page.goto('/vault');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your legacy begins here.' })).toBeVisible();
  await expect(page.getByText(VAULT_SUBTITLE)).toHaveCount(0);
});

for (const [path, heading] of [
  ['/', 'Leave your children the words they will keep forever.'],
  ['/auth', 'Your legacy begins here.'],
] as const) {
  test(`${path} hydrates without a mismatch`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // Hydrated: the top bar's menus have arrived (they load once the app has taken the page over).
    await expect(page.getByRole('button', { name: 'Theme' })).not.toHaveAttribute('aria-disabled', 'true');
    expect(errors).toEqual([]);
  });
}
