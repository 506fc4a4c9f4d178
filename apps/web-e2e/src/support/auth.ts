import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from './test.js';

/**
 * Accounts and sessions for the browser tests. Every test makes its own user (unique e-mail), so
 * tests never depend on each other or on the order they run in.
 */

export interface Credentials {
  email: string;
  password: string;
}

/** A strong password (it ticks every item of the sign-up checklist). */
export const PASSWORD = 'Legacy-Vault-2026!';

/** A fresh address on every call: `e2e-<tag>-<time>-<random>@example.com` (lower case). */
export function uniqueEmail(tag = 'user'): string {
  const safeTag = tag.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'user';
  return `e2e-${safeTag}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}@example.com`;
}

export function newCredentials(tag?: string): Credentials {
  return { email: uniqueEmail(tag), password: PASSWORD };
}

// ---------------------------------------------------------------------------------------------
// Through the UI, as a person does it

/** The e-mail and password fields of the sign-in / sign-up screen, by their labels. */
export const emailField = (page: Page) => page.getByLabel('Email', { exact: true });
export const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });

/** Opens /auth in sign-up mode (with the "Create Account" toggle) and waits for the subtitle. */
export async function openSignUp(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Create your Legacy Vault account')).toBeVisible();
}

/** Opens /auth in login mode. */
export async function openSignIn(page: Page): Promise<void> {
  await page.goto('/auth');
  await expect(page.getByText('Welcome back to your vault')).toBeVisible();
}

/** Fills the form that is on screen and submits it with its main button. */
export async function submitCredentials(page: Page, { email, password }: Credentials, button: 'Login' | 'Create Account'): Promise<void> {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** Signs up through the sign-up screen and waits for the vault home. */
export async function signUpViaUi(page: Page, credentials: Credentials = newCredentials('signup')): Promise<Credentials> {
  await openSignUp(page);
  await submitCredentials(page, credentials, 'Create Account');
  await expect(page).toHaveURL(/\/vault$/);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();
  return credentials;
}

/** Signs in through the login screen (already on it, or opens /auth) and waits to leave it. */
export async function signInViaUi(page: Page, credentials: Credentials, { open = true }: { open?: boolean } = {}): Promise<void> {
  if (open) await openSignIn(page);
  await submitCredentials(page, credentials, 'Login');
  await expect(page).not.toHaveURL(/\/(auth|login|login-signup)(\?|$)/);
}

// ---------------------------------------------------------------------------------------------
// Through the HTTP API (setup only: faster, and the browser context gets the refresh cookie)

/**
 * Creates an account with POST /api/auth/sign-up. With `page.request` (or `context.request`) the
 * refresh cookie lands in the browser context, so the next page load restores the session; with
 * the test's own `request` fixture the browser stays signed out.
 */
export async function signUpViaApi(request: APIRequestContext, credentials: Credentials = newCredentials('api')): Promise<Credentials> {
  const response = await request.post('/api/auth/sign-up', { data: credentials });
  expect(response.status(), `sign-up of ${credentials.email}: ${await response.text()}`).toBe(201);
  return credentials;
}

/** A signed-in browser on /vault, set up through the API (for tests about something else). */
export async function signedInOnVault(page: Page, credentials: Credentials = newCredentials('shell')): Promise<Credentials> {
  await signUpViaApi(page.request, credentials);
  await page.goto('/vault');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();
  return credentials;
}

// ---------------------------------------------------------------------------------------------
// Shell

export const accountMenuButton = (page: Page) => page.getByRole('button', { name: 'Account menu' });

/** Opens the avatar menu and chooses "Logout". */
export async function chooseLogout(page: Page): Promise<void> {
  await accountMenuButton(page).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
}

/** Signed out: the top bar offers "Login" again and the avatar menu is gone. */
export async function expectSignedOut(page: Page): Promise<void> {
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login', exact: true })).toBeVisible();
  await expect(accountMenuButton(page)).toHaveCount(0);
}

/** The e-mail the avatar menu shows (opens and closes the menu). */
export async function expectAccountMenuShows(page: Page, email: string): Promise<void> {
  await accountMenuButton(page).click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText(email);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
}
