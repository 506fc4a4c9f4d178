import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './test.js';
import { newCredentials, type Credentials } from './auth.js';

/** Helpers of letters.e2e.spec.ts (Letters Unsent, /letters). */

export interface SignedUp {
  credentials: Credentials;
  accessToken: string;
}

/**
 * Signs up through the API with the page's own request context (so the browser gets the refresh
 * cookie and the next page load is signed in), and keeps the access token for API-side setup.
 */
export async function signUpWithToken(request: APIRequestContext, tag = 'letters'): Promise<SignedUp> {
  const credentials = newCredentials(tag);
  const response = await request.post('/api/auth/sign-up', { data: credentials });
  expect(response.status(), `sign-up of ${credentials.email}: ${await response.text()}`).toBe(201);
  const { accessToken } = (await response.json()) as { accessToken: string };
  return { credentials, accessToken };
}

/** Opens /letters signed in and waits for the page. */
export async function openLetters(page: Page): Promise<void> {
  await page.goto('/letters');
  await expect(page.getByRole('heading', { level: 1, name: 'Letters Unsent' })).toBeVisible();
}

export interface ApiLetter {
  id: string;
  title: string;
  content: string;
  version: number;
  word_count: number;
  created_at: string;
}

export async function writeLetterViaApi(request: APIRequestContext, accessToken: string, letter: { title: string; content: string; id?: string }): Promise<ApiLetter> {
  const response = await request.post('/api/letters', { data: letter, headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ApiLetter;
}

/** The list of letters on the page, and one letter in it by its title. */
export const letterList = (page: Page): Locator => page.getByRole('list', { name: 'Your letters' });
export const letterItem = (page: Page, title: string): Locator => letterList(page).getByRole('listitem', { name: title, exact: true });

/** The inline "Write New Letter" form. */
export const newLetterForm = (page: Page): Locator => page.getByRole('region', { name: 'Write New Letter' });

/** Opens the form and fills it (without saving). */
export async function fillNewLetter(page: Page, title: string, content: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Write New Letter' }).click();
  const form = newLetterForm(page);
  await expect(form).toBeVisible();
  await form.getByLabel('Title', { exact: true }).fill(title);
  await form.getByLabel('Letter', { exact: true }).fill(content);
  return form;
}

/** A unique, searchable marker for a letter's words. */
export const marker = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
