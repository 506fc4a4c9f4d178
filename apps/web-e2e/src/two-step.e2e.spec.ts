import { TwoStepMessages } from '@lv/contracts';
import { accountMenuButton, chooseLogout, newCredentials, openSignIn, signedInOnVault, submitCredentials } from './support/auth.js';
import { expect, test } from './support/test.js';
import { totp } from './support/totp.js';

// Issue 32: two-step sign-in with an authenticator app, on a phone. The spec is the app: it reads the
// key the settings page shows and computes the codes itself (RFC 6238: HMAC-SHA-1, 30 s, 6 digits).

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('an owner turns two-step sign-in on, then signs in with password + code, and with a recovery code only once', async ({ page }) => {
  const credentials = await signedInOnVault(page, newCredentials('twostep'));

  await page.goto('/settings');
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const setup = page.getByRole('form', { name: 'Set up two-step sign-in' });
  await expect(setup.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await setup.getByTestId('two-step-secret').textContent())!.replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await setup.getByLabel('Authentication code').fill(totp(secret, Date.now()));
  await setup.getByRole('button', { name: 'Confirm' }).click();

  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  await expect(page.getByText(TwoStepMessages.recoveryCodesWarning)).toBeVisible();
  const recoveryCodes = await list.getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByText(/Two-step sign-in is on\. 10 recovery codes left\./)).toBeVisible();

  // Signed out, the password alone no longer opens the vault: the code is asked for.
  await page.goto('/vault');
  await chooseLogout(page);
  await expect(accountMenuButton(page)).toHaveCount(0);
  await openSignIn(page);
  await submitCredentials(page, credentials, 'Login');
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await page.goto('/vault');
  await expect(page).toHaveURL(/\/auth/);

  await openSignIn(page);
  await submitCredentials(page, credentials, 'Login');
  // The next step's code: the one the set-up used is never taken again.
  await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/vault$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();

  // With a recovery code instead.
  await chooseLogout(page);
  await expect(accountMenuButton(page)).toHaveCount(0);
  await openSignIn(page);
  await submitCredentials(page, credentials, 'Login');
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/vault$/);

  // The same recovery code a second time: refused, still signed out.
  await chooseLogout(page);
  await expect(accountMenuButton(page)).toHaveCount(0);
  await openSignIn(page);
  await submitCredentials(page, credentials, 'Login');
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(TwoStepMessages.signInRefused)).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});
