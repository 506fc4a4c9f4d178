import { expect, type Locator, type Page } from './test.js';

/**
 * Toasts, local storage and the other bits of the shell that several specs use. The project's
 * root tsconfig has no DOM library, so code that runs in the page reaches the browser's globals
 * through the small typed view below (types are erased before Playwright serialises the function).
 */

interface BrowserStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface BrowserGlobals {
  localStorage: BrowserStorage;
  addEventListener(type: string, listener: () => void): void;
}

/** The sonner toaster is a region named "Notifications alt+T"; each toast is one of its list items. */
export const toasts = (page: Page): Locator => page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem');

/** The toast whose title is `title` (and whose text also holds `description`, when given). */
export function toast(page: Page, title: string, description?: string): Locator {
  let locator = toasts(page).filter({ hasText: title });
  if (description) locator = locator.filter({ hasText: description });
  return locator;
}

export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  await expect(toast(page, title, description).first()).toBeVisible();
}

export async function getLocalStorage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => (globalThis as unknown as BrowserGlobals).localStorage.getItem(k), key);
}

export async function setLocalStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await page.evaluate((e) => {
    const storage = (globalThis as unknown as BrowserGlobals).localStorage;
    for (const [key, value] of Object.entries(e)) storage.setItem(key, value);
  }, entries);
}

/** The draft keys that the "Sign Out Warning" dialog looks for, and how it lists them. */
export const DRAFTS = {
  unsaved_draft: 'Video/Audio Recording',
  unsaved_text_draft: 'Text Entry',
  unsaved_letter_draft: 'Letter Draft',
} as const;

/** The top bar's live "Unsaved changes" indicator. */
export const unsavedIndicator = (page: Page): Locator => page.getByRole('banner').getByRole('status').getByText('Unsaved changes');

/** The side menu is a modal dialog titled "Legacy Vault". */
export const sideMenu = (page: Page): Locator => page.getByRole('dialog', { name: 'Legacy Vault' });

export async function openSideMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = sideMenu(page);
  await expect(menu).toBeVisible();
  return menu;
}

/** Console errors and uncaught exceptions of `page` from now on (failed requests and hydration mismatches are console errors). */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
