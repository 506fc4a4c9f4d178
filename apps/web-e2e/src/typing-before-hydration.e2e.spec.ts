import { emailField, newCredentials, passwordField, signUpViaApi } from './support/auth.js';
import { expect, test } from './support/test.js';

// Typing before the page is interactive (issue 35): the public pages are prerendered and hydrate after
// the first paint. On a slow phone (the CPU throttled 6x) a visitor types into the prerendered sign-in
// form before the app's code has even arrived, and on while it hydrates: nothing typed is lost, and
// Login signs in with it.

test('the sign-in form keeps what is typed before and during hydration under 6x CPU throttling, and Login works', async ({ page, request }) => {
  // An account made with the test's own request: the browser stays signed out.
  const credentials = await signUpViaApi(request, newCredentials('early-typist'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });

  // The app's scripts are held until the first keys are typed: the typing is before hydration, by
  // construction rather than by a race.
  let releaseScripts: () => void = () => undefined;
  const scriptsReleased = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route(/\.js(\?.*)?$/, async (route) => {
    await scriptsReleased;
    await route.continue();
  });

  await page.goto('/auth', { waitUntil: 'commit' });
  const email = emailField(page);
  const password = passwordField(page);
  await expect(email).toBeVisible();
  // The prerendered page, not yet the app's: the top bar's menus wait for React.
  await expect(page.getByRole('button', { name: 'Theme' })).toHaveAttribute('aria-disabled', 'true');
  await email.pressSequentially(credentials.email);
  const half = Math.floor(credentials.password.length / 2);
  await password.pressSequentially(credentials.password.slice(0, half));
  await expect(email).toHaveValue(credentials.email);

  // The code arrives; the rest of the password is typed while the page hydrates.
  releaseScripts();
  await password.pressSequentially(credentials.password.slice(half));
  await expect(page.getByRole('button', { name: 'Theme' })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(email).toHaveValue(credentials.email);
  await expect(password).toHaveValue(credentials.password);

  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/vault$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});
