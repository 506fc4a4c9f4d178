import { ErrorCodes, NewSignInMessages, ResetMessages } from '@lv/contracts';
import { mailsTo } from './support/access.js';
import { newCredentials, openSignIn, signedInOnVault, signInViaUi, signUpViaApi } from './support/auth.js';
import { expect, test } from './support/test.js';

// Issue 32: a forgotten password is no longer the end of a vault. Forgot password? -> the e-mail at the
// dev SMTP catcher -> a new password -> sign in; every other session ended; the link works once.
// And the sessions list of /settings: "Sign out everywhere else" ends the other browser at once.

const RESET_SUBJECT = 'Legacy Vault: choose a new password';
const CHANGED_SUBJECT = 'Legacy Vault: your password was changed';
const NEW_SIGN_IN_SUBJECT = 'Legacy Vault: a new sign-in to your account';

test.describe('account recovery and sessions', () => {
  test('forgot password -> e-mail -> new password -> sign in; other sessions end, the link works once', async ({ page, browser, request }) => {
    const credentials = await signUpViaApi(request, newCredentials('forgot'));
    // Another browser signed in to the account: the reset must end its session.
    const elsewhere = await (await browser.newContext()).newPage();
    await signInViaUi(elsewhere, credentials);

    await openSignIn(page);
    await page.getByLabel('Email', { exact: true }).fill(credentials.email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(credentials.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText(ResetMessages.requested)).toBeVisible();

    // The same words for an address without an account.
    const unknown = await request.post('/api/auth/forgot-password', { data: { email: newCredentials('nobody').email } });
    expect(unknown.status()).toBe(200);
    expect(await unknown.json()).toEqual({ message: ResetMessages.requested });

    await expect.poll(async () => (await mailsTo(request, credentials.email)).filter((m) => m.subject === RESET_SUBJECT).length, { timeout: 30_000, message: 'the reset e-mail' }).toBe(1);
    const mail = (await mailsTo(request, credentials.email)).find((m) => m.subject === RESET_SUBJECT)!;
    const href = /(https?:\/\/\S+\/reset-password#\S+)/.exec(mail.text)?.[1];
    expect(href, mail.text).toBeTruthy();
    const link = new URL(href!);
    const linkPath = `${link.pathname}${link.hash}`;

    await page.goto(linkPath);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    // The token leaves the address bar once the page has read it.
    await expect(page).toHaveURL(/\/reset-password$/);
    await page.getByLabel('New Password', { exact: true }).fill('password1');
    await page.getByLabel('Confirm New Password').fill('password1');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('This password is too common')).toBeVisible();
    const newPassword = 'A-kite-over-the-bay-2026';
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText(ResetMessages.done)).toBeVisible();

    // Every session ended: the other browser is sent to sign in on its next page.
    await elsewhere.goto('/letters');
    await expect(elsewhere).toHaveURL(/\/auth/);

    // The owner is told, and signs in with the new password only.
    await expect.poll(async () => (await mailsTo(request, credentials.email)).filter((m) => m.subject === CHANGED_SUBJECT).length, { timeout: 30_000, message: 'the password-changed notice' }).toBe(1);
    expect((await request.post('/api/auth/sign-in', { data: credentials })).status()).toBe(401);
    await page.getByRole('main').getByRole('link', { name: 'Sign In', exact: true }).click();
    await signInViaUi(page, { email: credentials.email, password: newPassword }, { open: false });
    await expect(page).toHaveURL(/\/vault$/);

    // The link again: refused, with the one message every bad link gets.
    const again = await request.post('/api/auth/reset-password', { data: { email: credentials.email, token: new URLSearchParams(link.hash.slice(1)).get('token'), newPassword: 'Yet-another-password-1' } });
    expect(again.status()).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'RESET_LINK_INVALID', message: ErrorCodes.RESET_LINK_INVALID.message });
    const other = await elsewhere.context().newPage();
    await other.goto(linkPath);
    await other.getByLabel('New Password', { exact: true }).fill('Yet-another-password-1');
    await other.getByLabel('Confirm New Password').fill('Yet-another-password-1');
    await other.getByRole('button', { name: 'Set New Password' }).click();
    await expect(other.getByRole('alert')).toHaveText(ErrorCodes.RESET_LINK_INVALID.message);
  });

  test('a sign-in from a new browser e-mails the owner; "this wasn\'t me" on a phone signs everyone out and sends a reset link', async ({ page, browser, request }) => {
    // The owner's own browser: signed up and back in here, it is known and signs in quietly.
    const credentials = await signedInOnVault(page, newCredentials('alerted'));
    await page.context().clearCookies({ name: 'lv_refresh' });
    await signInViaUi(page, credentials);
    await expect(page).toHaveURL(/\/vault$/);
    expect((await mailsTo(request, credentials.email)).filter((m) => m.subject === NEW_SIGN_IN_SUBJECT)).toEqual([]);

    // Someone else's browser.
    const stranger = await (await browser.newContext({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0' })).newPage();
    await signInViaUi(stranger, credentials);
    await expect.poll(async () => (await mailsTo(request, credentials.email)).filter((m) => m.subject === NEW_SIGN_IN_SUBJECT).length, { timeout: 30_000, message: 'the new sign-in e-mail' }).toBe(1);
    const mail = (await mailsTo(request, credentials.email)).find((m) => m.subject === NEW_SIGN_IN_SUBJECT)!;
    expect(mail.text).toContain('from a browser it had not seen before: Firefox on Windows.');
    const href = /(https?:\/\/\S+\/not-me#\S+)/.exec(mail.text)?.[1];
    expect(href, mail.text).toBeTruthy();
    const link = new URL(href!);

    // The owner opens it on his phone.
    const phone = await (await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true })).newPage();
    await phone.goto(`${link.pathname}${link.hash}`);
    await expect(phone.getByRole('heading', { level: 1, name: 'This wasn’t me' })).toBeVisible();
    await expect(phone).toHaveURL(/\/not-me$/);
    await phone.getByRole('button', { name: 'Sign Everyone Out' }).click();
    await expect(phone.getByText(NewSignInMessages.disowned)).toBeVisible();

    // Both browsers are out; a reset link is on its way; the link works once.
    for (const signedOut of [stranger, page]) {
      await signedOut.goto('/letters');
      await expect(signedOut).toHaveURL(/\/auth/);
    }
    await expect.poll(async () => (await mailsTo(request, credentials.email)).filter((m) => m.subject === RESET_SUBJECT).length, { timeout: 30_000, message: 'the reset e-mail' }).toBe(1);
    const again = await request.post('/api/auth/not-me', { data: { token: new URLSearchParams(link.hash.slice(1)).get('token') } });
    expect(again.status()).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'SIGN_IN_ALERT_LINK_INVALID', message: ErrorCodes.SIGN_IN_ALERT_LINK_INVALID.message });
  });

  test('settings lists the sessions and signs every other browser out; nobody else can end them', async ({ page, browser, request }) => {
    const credentials = await signedInOnVault(page, newCredentials('sessions'));
    const laptop = await (await browser.newContext()).newPage();
    await signInViaUi(laptop, credentials);

    await page.goto('/settings');
    const list = page.getByRole('list', { name: 'Active sessions' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('listitem').filter({ hasText: 'This browser' })).toHaveCount(1);
    await expect(list).toContainText('Chrome on Linux');

    // The route x caller cells of the new routes: no token, and another account's token, reach nothing.
    const theirs = await request.post('/api/auth/sign-up', { data: newCredentials('stranger') });
    const strangerToken = ((await theirs.json()) as { accessToken: string }).accessToken;
    const mine = await page.request.post('/api/auth/refresh');
    const myToken = ((await mine.json()) as { accessToken: string }).accessToken;
    const ids = ((await (await request.get('/api/me/sessions', { headers: { authorization: `Bearer ${myToken}` } })).json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
    expect(ids).toHaveLength(2);
    expect((await request.get('/api/me/sessions')).status()).toBe(401);
    expect((await request.delete(`/api/me/sessions/${ids[1]}`)).status()).toBe(401);
    expect((await request.post('/api/me/sessions/sign-out-others')).status()).toBe(401);
    expect((await request.delete(`/api/me/sessions/${ids[1]}`, { headers: { authorization: `Bearer ${strangerToken}` } })).status()).toBe(404);
    const strangersOwn = (await (await request.get('/api/me/sessions', { headers: { authorization: `Bearer ${strangerToken}` } })).json()) as { sessions: { id: string }[] };
    expect(strangersOwn.sessions.map((s) => s.id).filter((id) => ids.includes(id))).toEqual([]);
    expect((await request.post('/api/me/sessions/sign-out-others', { headers: { authorization: `Bearer ${strangerToken}` } })).status()).toBe(200);

    // Both of this account's sessions survived the stranger; now the owner ends the other one.
    await page.reload();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
    await laptop.goto('/letters');
    await expect(laptop).toHaveURL(/\/auth/);
    // This browser stays signed in.
    await page.goto('/letters');
    await expect(page.getByRole('heading', { level: 1, name: 'Letters Unsent' })).toBeVisible();
  });
});
