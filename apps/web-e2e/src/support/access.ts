import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect } from './test.js';
import { signUpWithToken, type SignedUp } from './letters.js';

/** Helpers of access.e2e.spec.ts (family access: requests, keys, the viewer). */

const MAIL_URL = process.env.MAIL_URL ?? 'http://127.0.0.1:1080';

export interface Owner extends SignedUp {
  id: string;
}

/** The subject of the e-mail that carries a new account's verification link. */
export const VERIFY_SUBJECT = 'Legacy Vault: verify your e-mail address';

/**
 * An owner signed up in this page's context (the browser is signed in), with the id the request link
 * needs, and his address verified the real way: the link is read from the e-mail at the catcher and
 * sent to the page's endpoint, and the session renewed, so his access token says verified (keys and
 * invitations are e-mailed only then). The verification e-mail, used, is dropped from the catcher, so
 * the owner's mailbox holds only what the test itself causes.
 */
export async function signUpOwner(page: Page, tag = 'owner'): Promise<Owner> {
  const signedUp = await signUpWithToken(page.request, tag);
  const email = signedUp.credentials.email;
  const mail = await waitForMail(page.request, email);
  expect(mail.subject).toBe(VERIFY_SUBJECT);
  const verified = await page.request.post('/api/auth/verify-email', { data: { token: verifyTokenOf(mail) } });
  expect(verified.status(), await verified.text()).toBe(200);
  expect((await page.request.delete(`${MAIL_URL}/messages/${mail.id}`)).status()).toBe(200);
  const renewed = await page.request.post('/api/auth/refresh');
  expect(renewed.status(), await renewed.text()).toBe(200);
  const { accessToken, profile } = (await renewed.json()) as { accessToken: string; profile: { id: string; emailVerified: boolean } };
  expect(profile.emailVerified).toBe(true);
  return { ...signedUp, accessToken, id: profile.id };
}

/** The verification link of an e-mail, as the path and fragment to open on this stack. */
export function verifyLinkOf(mail: CaughtMail): string {
  const href = /(https?:\/\/\S+\/verify-email#\S+)/.exec(mail.text)?.[1];
  expect(href, mail.text).toBeTruthy();
  const link = new URL(href!);
  return `${link.pathname}${link.hash}`;
}

const verifyTokenOf = (mail: CaughtMail) => new URLSearchParams(verifyLinkOf(mail).split('#')[1]).get('token');

/** A family member's own browser: no account, no cookies of the owner. */
export async function familyPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** A family member opens the owner's vault with a key (the disclaimer accepted) on one tab; returns their page. */
export async function openVaultTab(browser: Browser, owner: Owner, key: string, tab: string): Promise<Page> {
  const family = await familyPage(browser);
  await family.goto(`/access#k=${key}&owner=${owner.id}`);
  await family.getByRole('button', { name: 'Open vault' }).click();
  await acceptDisclaimer(family);
  await family.getByRole('tablist', { name: 'Vault sections' }).getByRole('tab', { name: tab }).click();
  return family;
}

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  envelope: { to: string[] };
}

/** The messages the mail catcher received for an address. */
export async function mailsTo(request: APIRequestContext, address: string): Promise<CaughtMail[]> {
  const response = await request.get(`${MAIL_URL}/messages?to=${encodeURIComponent(address)}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as CaughtMail[];
}

/** Waits for the first e-mail to an address (the key e-mail leaves through a queue, within seconds). */
export async function waitForMail(request: APIRequestContext, address: string): Promise<CaughtMail> {
  await expect.poll(async () => (await mailsTo(request, address)).length, { timeout: 30_000, message: `an e-mail to ${address}` }).toBeGreaterThan(0);
  return (await mailsTo(request, address))[0]!;
}

/** Fills and sends the Access Request Form. */
export async function requestAccess(page: Page, fields: { email: string; relationship: string; reason: string; childName?: string }): Promise<void> {
  const form = page.getByRole('form', { name: 'Access Request Form' });
  await form.getByLabel('Your Email').fill(fields.email);
  await form.getByLabel('Your Relationship').fill(fields.relationship);
  await form.getByLabel('Reason for Access').fill(fields.reason);
  if (fields.childName) await form.getByLabel('Child Name').fill(fields.childName);
  await form.getByRole('button', { name: 'Submit Access Request' }).click();
}

/** Accepts the Viewer Disclaimer (Continue stays disabled until the box is ticked). */
export async function acceptDisclaimer(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Viewer Disclaimer' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await dialog.getByRole('checkbox', { name: 'I understand and agree.' }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
}

/** An owner's key made through the API (Generate Keys), for tests about the viewer. */
export async function createKeyViaApi(request: APIRequestContext, owner: Owner, body: { name: string; email: string; scopes?: string[] }): Promise<{ key: string; keyId: string }> {
  const drafted = await draftKeyViaApi(request, owner.accessToken);
  const response = await request.post('/api/access/keys', { data: { ...drafted, ...body }, headers: { authorization: `Bearer ${owner.accessToken}` } });
  expect(response.status(), await response.text()).toBe(201);
  return { key: drafted.access_key, keyId: ((await response.json()) as { key_id: string }).key_id };
}

/** "Generate Access Key" through the API: a key the server made for this owner, and its draft for Save. */
export async function draftKeyViaApi(request: APIRequestContext, accessToken: string): Promise<{ access_key: string; draft: string }> {
  const response = await request.post('/api/access/keys/draft', { headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { access_key: string; draft: string };
}
