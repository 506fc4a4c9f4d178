import { acceptDisclaimer, createKeyViaApi, familyPage, signUpOwner } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { writeLetterViaApi } from './support/letters.js';
import { setTier } from './support/media.js';
import { expect, test, type Page } from './support/test.js';
import { collectConsoleErrors } from './support/ui.js';

// Quiet, valid pages (issue 35): an anonymous visitor is not an error. Every page the router opens to a
// signed-out visitor (apps/web/src/app/routes.tsx and the public prefixes of auth/route-access.ts), and
// a member page that sends them to sign in, loads with no console error (the session check answers a
// browser without a session with 200 { session: null }, not a 401) and has exactly one <main>. So does
// every page a signed-in member opens, and every page a family member with a redeemed key opens.
const PUBLIC_ROUTES = [
  '/',
  '/how-it-works',
  '/auth',
  '/login',
  '/login-signup',
  '/forgot-password',
  '/reset-password',
  '/confirm-email',
  '/undo-email-change',
  '/verify-email',
  '/pricing',
  '/subscribe',
  '/privacy',
  '/still-here',
  '/trustee',
  '/access',
  '/access-key',
  '/request/someone',
  '/access-request/someone',
  '/vault/view',
  '/redeem',
  '/redeem/timeline',
  // A member page: the guard sends the visitor to /auth.
  '/vault',
] as const;

const isSessionCheck = (url: string) => new URL(url).pathname === '/api/auth/session';

for (const path of PUBLIC_ROUTES) {
  test(`an anonymous visitor opens ${path}: no console error, one main landmark`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const check = page.waitForResponse((r) => isSessionCheck(r.url()));
    await page.goto(path);
    const answer = await check;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ session: null });
    // Hydrated (the top bar's menus arrive once the app has taken the page over), and its requests done.
    await expect(page.getByRole('button', { name: 'Theme' })).not.toHaveAttribute('aria-disabled', 'true');
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('main')).toHaveCount(1);
    expect(errors).toEqual([]);
  });
}

test('the session check still refuses API clients on /api/auth/refresh, and answers the page quietly', async ({ request }) => {
  const refresh = await request.post('/api/auth/refresh');
  expect(refresh.status()).toBe(401);
  const probe = await request.post('/api/auth/session');
  expect(probe.status()).toBe(200);
  expect(await probe.json()).toEqual({ session: null });
});

// A signed-in member (on Pro, so the paid pages show what they hold rather than their upgrade notice):
// every route of routes.tsx that is not only for visitors, admins or a key's holder.
const MEMBER_ROUTES = [
  '/',
  '/how-it-works',
  '/vault',
  '/letters',
  '/record',
  '/record-media',
  '/timeline',
  '/enhanced-timeline',
  '/court-documents',
  '/court-journal',
  '/whoiam',
  '/if-im-not-there',
  '/gone',
  '/test-vault-delivery',
  '/pricing',
  '/subscribe',
  '/checkout',
  '/checkout/cancel',
  '/settings',
  '/privacy',
  '/community',
  '/parent-circle',
  '/parent-community',
  '/access-key',
  '/access-control',
  '/not-a-page',
] as const;

interface Opened {
  page: string;
  errors: string[];
  mains: number;
}

/** What a page showed once it had loaded: the console errors collected since the last page, and its <main> landmarks. */
async function settle(page: Page, errors: string[], label: string): Promise<Opened> {
  // Hydrated or rendered (the top bar's menus are the app's), a heading on screen, and its requests done.
  await expect(page.getByRole('button', { name: 'Theme' })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  return { page: label, errors: errors.splice(0), mains: await page.getByRole('main').count() };
}

test('a signed-in member opens every member page: no console error, one main landmark on each', async ({ page }) => {
  test.setTimeout(180_000);
  const owner = await signUpOwner(page, 'quiet-member');
  setTier(owner.credentials.email, 'pro');
  await writeLetterViaApi(page.request, owner.accessToken, { title: 'For a quiet page', content: 'Words.' });
  const errors = collectConsoleErrors(page);
  const seen: Opened[] = [];
  for (const path of MEMBER_ROUTES) {
    await page.goto(path);
    seen.push(await settle(page, errors, path));
  }
  expect(seen.filter((opened) => opened.errors.length > 0 || opened.mains !== 1)).toEqual([]);
});

test('a family member with a redeemed key opens every viewer page: no console error, one main landmark on each', async ({ page, browser }) => {
  const owner = await signUpOwner(page, 'quiet-owner');
  await writeLetterViaApi(page.request, owner.accessToken, { title: 'For Ellie, quietly', content: 'Words.' });
  const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('quiet-ellie') });
  const family = await familyPage(browser);
  const errors = collectConsoleErrors(family);
  const seen: Opened[] = [];

  // The key's link: whose vault, and Open vault; then the viewer, each of its sections.
  await family.goto(`/access#k=${key}&owner=${owner.id}`);
  seen.push(await settle(family, errors, '/access (the key link)'));
  await family.getByRole('button', { name: 'Open vault' }).click();
  await acceptDisclaimer(family);
  await expect(family.getByRole('heading', { name: 'Vault (read-only)' })).toBeVisible();
  await expect(family.getByRole('tabpanel')).toContainText('For Ellie, quietly');
  seen.push(await settle(family, errors, '/vault/view'));
  const sections = family.getByRole('tablist', { name: 'Vault sections' });
  const names = (await sections.getByRole('tab').allInnerTexts()).map((name) => name.trim());
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) {
    const tab = sections.getByRole('tab', { name, exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    seen.push(await settle(family, errors, `/vault/view: ${name}`));
  }
  // The viewer opened again from the address bar (the session is kept for the tab).
  await family.goto('/vault/view');
  await expect(family.getByRole('heading', { name: 'Vault (read-only)' })).toBeVisible();
  seen.push(await settle(family, errors, '/vault/view (reloaded)'));

  // The redeem links: the key once more, to the viewer; the timeline by key link.
  await family.goto(`/redeem#k=${key}&owner=${owner.id}`);
  await expect(family).toHaveURL(/\/vault\/view$/);
  await expect(family.getByRole('heading', { name: 'Vault (read-only)' })).toBeVisible();
  seen.push(await settle(family, errors, '/redeem'));
  await family.goto(`/redeem/timeline#k=${key}&owner=${owner.id}`);
  await expect(family.getByRole('heading', { level: 1, name: 'Timeline' })).toBeVisible();
  await expect(family.getByText('Loading…')).toHaveCount(0);
  seen.push(await settle(family, errors, '/redeem/timeline'));
  expect(seen.filter((opened) => opened.errors.length > 0 || opened.mains !== 1)).toEqual([]);
  await family.context().close();
});
