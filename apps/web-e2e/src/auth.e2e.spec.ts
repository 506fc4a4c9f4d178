import { expect, test, type Page, type Route } from './support/test.js';
import {
  accountMenuButton,
  chooseLogout,
  emailField,
  expectAccountMenuShows,
  expectSignedOut,
  newCredentials,
  openSignIn,
  openSignUp,
  passwordField,
  signInViaUi,
  signUpViaApi,
  signUpViaUi,
  submitCredentials,
} from './support/auth.js';
import { expectToast } from './support/ui.js';

// Sign-up, sign-in, sign-out, session restore and the login form's validation (owner-core spec,
// sections 2 "Sign-in / sign-up screen", 4 "Session" / "Login screen" and 5 "Login / sign-up").

const statTile = (page: Page, label: string) => page.getByRole('region', { name: 'Your vault at a glance' }).getByRole('link', { name: new RegExp(label) });

test.describe('sign-up and session', () => {
  test('a new user signs up and lands on the vault with a welcome and the numbers from the API', async ({ page }) => {
    const credentials = newCredentials('signup');
    await openSignUp(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Your legacy begins here.' })).toBeVisible();

    const statsResponse = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/vault/stats' && r.request().method() === 'GET');
    await submitCredentials(page, credentials, 'Create Account');

    await expect(page).toHaveURL(/\/vault$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    await expectToast(page, 'Account created!', 'Welcome to Legacy Vault');

    const response = await statsResponse;
    expect(response.status()).toBe(200);
    const stats = (await response.json()) as { videosSaved: number; lettersWritten: number; daysActive: number };
    // A brand-new account: nothing saved yet, active today.
    expect(stats).toMatchObject({ videosSaved: 0, lettersWritten: 0, daysActive: 1 });
    await expect(statTile(page, 'Videos Saved')).toHaveText(new RegExp(`^\\s*${stats.videosSaved}\\s*Videos Saved\\s*$`));
    await expect(statTile(page, 'Letters Written')).toHaveText(new RegExp(`^\\s*${stats.lettersWritten}\\s*Letters Written\\s*$`));
    await expect(statTile(page, 'Days Active')).toHaveText(new RegExp(`^\\s*${Math.max(1, stats.daysActive)}\\s*Days Active\\s*$`));
    // Thoughts Saved counts the reflection kept in the vault: nothing written yet.
    await expect(statTile(page, 'Thoughts Saved')).toHaveText(/^\s*0\s*Thoughts Saved\s*$/);
    await expect(statTile(page, 'Videos Saved')).toHaveAttribute('href', '/record');
    await expect(statTile(page, 'Letters Written')).toHaveAttribute('href', '/letters');
    await expect(statTile(page, 'Thoughts Saved')).toHaveAttribute('href', '/vault');
    await expect(statTile(page, 'Days Active')).toHaveAttribute('href', '/timeline');

    // The avatar menu shows who is signed in.
    await expectAccountMenuShows(page, credentials.email);
  });

  test('the stat tiles show whatever numbers the API returns', async ({ page }) => {
    // The real API only has zeros for a new account; answer the stats call with other numbers to
    // prove the tiles are bound to it (and that Days Active is at least 1).
    await page.route('**/api/vault/stats', (route) => route.fulfill({ json: { videosSaved: 7, lettersWritten: 3, daysActive: 12 } }));
    await signUpViaUi(page);
    await expect(statTile(page, 'Videos Saved')).toHaveText(/^\s*7\s*Videos Saved\s*$/);
    await expect(statTile(page, 'Letters Written')).toHaveText(/^\s*3\s*Letters Written\s*$/);
    await expect(statTile(page, 'Days Active')).toHaveText(/^\s*12\s*Days Active\s*$/);
  });

  test('saving a reflection counts as a thought saved', async ({ page }) => {
    await signUpViaUi(page);
    await page.getByRole('textbox', { name: 'Thoughts & Feelings' }).fill('A quiet morning, thinking of you both.');
    await page.getByRole('button', { name: 'Save Reflection' }).click();
    await expectToast(page, 'Thoughts saved privately');
    await expect(statTile(page, 'Thoughts Saved')).toHaveText(/^\s*1\s*Thoughts Saved\s*$/);
  });

  test('signs out from the avatar menu, then signs in again', async ({ page }) => {
    const credentials = await signUpViaUi(page);

    await chooseLogout(page);
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, 'Logged out successfully');
    await expectSignedOut(page);
    // Back to the vault is refused, and the session is gone on the server too: a reload does not
    // bring it back.
    await page.goBack();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/');
    await page.reload();
    await expectSignedOut(page);

    await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signInViaUi(page, credentials, { open: false });
    await expect(page).toHaveURL(/\/vault$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    await expectToast(page, 'Welcome back!', 'Successfully logged in to your vault');
    await expectAccountMenuShows(page, credentials.email);
  });

  test('a reload of /vault keeps the session (refresh cookie)', async ({ page }) => {
    const credentials = await signUpViaUi(page);

    const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/session');
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await expect(page).toHaveURL(/\/vault$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    await expectAccountMenuShows(page, credentials.email);

    // A new tab of the same browser restores the same session from the cookie.
    const second = await page.context().newPage();
    await second.goto('/vault');
    await expect(second.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    await expectAccountMenuShows(second, credentials.email);
    await second.close();
  });

  test('two tabs of the same browser opening the vault at the same time both stay signed in', async ({ page, context }) => {
    const credentials = await signUpViaApi(page.request, newCredentials('tabs'));
    const second = await context.newPage();
    // Both tabs exchange the same refresh cookie for a session on load (a restored browser window, a
    // link opened in a new tab). Hold each tab's POST /api/auth/session until both have been sent, so
    // they reach the server together every time, not only when the timing happens to line up.
    const held: Route[] = [];
    let releaseBoth!: () => void;
    const bothSent = new Promise<void>((resolve) => (releaseBoth = resolve));
    await context.route('**/api/auth/session', async (route) => {
      if (held.length >= 2) return route.continue();
      held.push(route);
      if (held.length === 2) releaseBoth();
      // No fallback delay: a tab that never sends its refresh fails the test (by its timeout), as it should.
      await bothSent;
      await route.continue();
    });
    await Promise.all([page.goto('/vault'), second.goto('/vault')]);
    // Neither tab may be signed out by the other's rotation of the refresh token.
    for (const tab of [page, second]) {
      await expect(tab.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
      await expectAccountMenuShows(tab, credentials.email);
    }
    // And the browser still holds a usable cookie afterwards.
    await context.unroute('**/api/auth/session');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    await second.close();
  });

  test('the access token is kept in memory only, never in web storage', async ({ page }) => {
    await signUpViaUi(page);
    const stored = await page.evaluate(() => {
      const g = globalThis as unknown as { localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null }; sessionStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null } };
      const values: string[] = [];
      for (const s of [g.localStorage, g.sessionStorage]) for (let i = 0; i < s.length; i++) values.push(`${s.key(i)}=${s.getItem(s.key(i) ?? '')}`);
      return values.join('\n');
    });
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no JWT anywhere
    const cookies = await page.context().cookies();
    const refresh = cookies.find((c) => c.name === 'lv_refresh');
    expect(refresh, 'the refresh cookie').toBeDefined();
    expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
  });
});

test.describe('sign-in and sign-up errors', () => {
  test('a wrong password shows "Authentication Error" with "Invalid login credentials"', async ({ page, request }) => {
    const credentials = await signUpViaApi(request, newCredentials('wrongpw'));
    await openSignIn(page);
    await submitCredentials(page, { email: credentials.email, password: 'not-the-password' }, 'Login');
    await expectToast(page, 'Authentication Error', 'Invalid login credentials');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(accountMenuButton(page)).toHaveCount(0);
    // The form can be used again at once.
    await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeEnabled();
  });

  test('an unknown e-mail gets the same answer as a wrong password', async ({ page }) => {
    await openSignIn(page);
    await submitCredentials(page, newCredentials('nobody'), 'Login');
    await expectToast(page, 'Authentication Error', 'Invalid login credentials');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('signing up with an e-mail that is taken shows the server\'s message', async ({ page, request }) => {
    const existing = await signUpViaApi(request, newCredentials('taken'));
    await openSignUp(page);
    // Same address, other case and spaces around it: still the same account.
    await submitCredentials(page, { email: `  ${existing.email.toUpperCase()} `, password: 'another-password' }, 'Create Account');
    await expectToast(page, 'Authentication Error', 'An account with this email already exists. Try logging in instead.');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(accountMenuButton(page)).toHaveCount(0);
  });
});

test.describe('login form validation', () => {
  test('each validation message, on the field and in the summary, and nothing is sent', async ({ page }) => {
    const authCalls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/auth\/sign-(in|up)$/.test(new URL(r.url()).pathname)) authCalls.push(r.url());
    });
    await openSignIn(page);
    const login = page.getByRole('button', { name: 'Login', exact: true });
    const summary = page.getByRole('alert').filter({ hasText: 'Please check the form:' });

    // Both empty.
    await login.click();
    await expect(summary).toContainText('Email is required');
    await expect(summary).toContainText('Password is required');
    await expect(emailField(page)).toHaveAccessibleDescription('Email is required');
    await expect(emailField(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(passwordField(page)).toHaveAccessibleDescription('Password is required');
    await expect(emailField(page)).toBeFocused();

    // Blank e-mail (spaces only) is still "required".
    await emailField(page).fill('   ');
    await login.click();
    await expect(emailField(page)).toHaveAccessibleDescription('Email is required');

    // Not an e-mail; the password is too short.
    await emailField(page).fill('not-an-email');
    await passwordField(page).fill('abc');
    await login.click();
    await expect(emailField(page)).toHaveAccessibleDescription('Please enter a valid email');
    await expect(passwordField(page)).toHaveAccessibleDescription('Password must be at least 6 characters');
    await expect(summary).toContainText('Please enter a valid email');
    await expect(summary).toContainText('Password must be at least 6 characters');

    // A valid e-mail: only the password message is left, and the focus goes to the password.
    await emailField(page).fill('someone@example.com');
    await passwordField(page).fill('12345');
    await login.click();
    await expect(summary).not.toContainText('email');
    await expect(emailField(page)).not.toHaveAttribute('aria-invalid', 'true');
    await expect(passwordField(page)).toHaveAccessibleDescription('Password must be at least 6 characters');
    await expect(passwordField(page)).toBeFocused();

    // The same rules apply in sign-up mode.
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await emailField(page).fill('');
    await passwordField(page).fill('');
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(summary).toContainText('Email is required');
    await expect(summary).toContainText('Password is required');

    expect(authCalls, 'no sign-in or sign-up request while the form is invalid').toEqual([]);
  });

  test('the sign-up checklist ticks each requirement as you type, and is only a guide', async ({ page }) => {
    await openSignUp(page);
    const item = (label: string) => page.getByRole('listitem').filter({ hasText: label });
    const labels = ['At least 8 characters', 'One lowercase letter', 'One uppercase letter', 'One number', 'One special symbol'];
    const expectMet = async (met: string[]) => {
      for (const label of labels) await expect(item(label)).toContainText(met.includes(label) ? '(met)' : '(not yet met)');
    };

    await expectMet([]);
    // The checklist describes the password field to assistive technology.
    await expect(passwordField(page)).toHaveAccessibleDescription(/At least 8 characters/);

    const password = passwordField(page);
    await password.pressSequentially('a');
    await expectMet(['One lowercase letter']);
    await password.pressSequentially('B');
    await expectMet(['One lowercase letter', 'One uppercase letter']);
    await password.pressSequentially('3');
    await expectMet(['One lowercase letter', 'One uppercase letter', 'One number']);
    await password.pressSequentially('!');
    await expectMet(['One lowercase letter', 'One uppercase letter', 'One number', 'One special symbol']);
    await password.pressSequentially('xyzw');
    await expectMet(labels);
    await password.press('Backspace');
    await expectMet(labels.filter((l) => l !== 'At least 8 characters'));

    // Guidance only beyond the length: eight lowercase letters (not a common password) create an account,
    // while six, and a common password, are refused with their words (NIST SP 800-63B).
    await password.fill('abcdef');
    await emailField(page).fill(newCredentials('weakpw').email);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(passwordField(page)).toHaveAccessibleDescription(/Password must be at least 8 characters/);
    await password.fill('password1');
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(passwordField(page)).toHaveAccessibleDescription(/This password is too common/);
    await password.fill('lanternhill');
    await expectMet(['At least 8 characters', 'One lowercase letter']);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(page).toHaveURL(/\/vault$/);
    await expectToast(page, 'Account created!');
  });

  test('show / hide password switches the field between hidden and plain text', async ({ page }) => {
    await openSignIn(page);
    await passwordField(page).fill('secret-words');
    await expect(passwordField(page)).toHaveAttribute('type', 'password');

    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(passwordField(page)).toHaveAttribute('type', 'text');
    await expect(passwordField(page)).toHaveValue('secret-words');

    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
    await expect(page.getByRole('button', { name: 'Show password' })).toBeVisible();
  });

  test('the mode toggle switches between Login and Create Account', async ({ page }) => {
    await openSignIn(page);
    await expect(page).toHaveTitle(/^Login/);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await expect(page.getByText('Create your Legacy Vault account')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login Instead' })).toBeVisible();
    await expect(page.getByText('Password requirements')).toBeVisible();
    await page.getByRole('button', { name: 'Login Instead' }).click();
    await expect(page.getByText('Welcome back to your vault')).toBeVisible();
    await expect(page.getByText('Password requirements')).toHaveCount(0);

    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await page.getByRole('link', { name: 'Explore Without Login' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
