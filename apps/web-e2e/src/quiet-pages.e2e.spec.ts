import { expect, test } from './support/test.js';
import { collectConsoleErrors } from './support/ui.js';

// Quiet, valid pages (issue 35): an anonymous visitor is not an error. Every page the router opens to a
// signed-out visitor (apps/web/src/app/routes.tsx and the public prefixes of auth/route-access.ts), and
// a member page that sends them to sign in, loads with no console error (the session check answers a
// browser without a session with 200 { session: null }, not a 401) and has exactly one <main>.
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
