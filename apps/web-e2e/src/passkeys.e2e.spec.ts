import { chooseLogout, expectSignedOut, newCredentials, openSignIn, signedInOnVault, submitCredentials } from './support/auth.js';
import { expect, test } from './support/test.js';
import { totp } from './support/totp.js';

// Issue 32: passkeys in Chromium, on a phone, with the DevTools virtual authenticator (a platform
// authenticator that keeps discoverable credentials and verifies the user). Browsers take no IP
// address as a passkey's site (WebAuthn's RP ID), so this spec opens the stack as localhost, the host
// identity's PUBLIC_URL names in test stacks (tools/dev/services.mjs).

const base = new URL(process.env.BASE_URL ?? 'http://127.0.0.1:3000');
base.hostname = 'localhost';

test.use({ baseURL: base.origin, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('an owner adds a passkey in Settings, signs in with it and no password, and uses it as the second step', async ({ page, browserName }) => {
  test.skip(browserName !== 'chromium', 'the virtual authenticator is a Chromium DevTools feature');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  const credentials = await signedInOnVault(page, newCredentials('passkey'));
  await page.goto('/settings');
  const card = page.getByRole('list', { name: 'Passkeys' });
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
  await page.getByLabel('Passkey name').fill('My phone');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByRole('listitem')).toHaveCount(1);
  await expect(card.getByText('My phone')).toBeVisible();
  await expect(card.getByText(/Never used/)).toBeVisible();
  // The phone's width: Settings with its new card scrolls no sideways.
  expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);

  // Renamed in place.
  await page.getByRole('button', { name: 'Rename passkey My phone' }).click();
  await page.getByLabel('New name for My phone').fill('Pixel');
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(card.getByText('Pixel')).toBeVisible();

  // Signed out (from the vault, as Settings' own fields would ask about leaving), the passkey alone signs in: no e-mail, no password.
  await page.goto('/vault');
  await chooseLogout(page);
  await expectSignedOut(page);
  await openSignIn(page);
  const withPasskey = page.getByRole('button', { name: 'Sign in with a passkey' });
  // Prerendered, the page's buttons wait for React (Button is disabled until hydrated).
  await expect(withPasskey).toBeEnabled();
  await withPasskey.click();
  await expect(page).toHaveURL(/\/vault$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();

  // Two-step sign-in on: after the password, the passkey is the second step.
  await page.goto('/settings');
  await expect(card.getByText(/Last used/)).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const setup = page.getByRole('form', { name: 'Set up two-step sign-in' });
  const secret = (await setup.getByTestId('two-step-secret').textContent())!.replace(/\s/g, '');
  await setup.getByLabel('Authentication code').fill(totp(secret, Date.now()));
  await setup.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await page.goto('/vault');
  await chooseLogout(page);
  await expectSignedOut(page);
  await openSignIn(page);
  await submitCredentials(page, credentials, 'Login');
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect(page).toHaveURL(/\/vault$/);

  // Removed (the second step just proved who he is, so no password is asked): it is gone from the list.
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Remove passkey Pixel' }).click();
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
});
