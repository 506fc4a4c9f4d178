import { expect, test } from './support/test.js';
import { accountMenuButton, chooseLogout, expectAccountMenuShows, expectSignedOut, newCredentials, signInViaUi, signUpViaApi, signUpViaUi } from './support/auth.js';

// Every screen shows only the signed-in user's own data (owner-core spec, section 6).

test('two users in two browsers each see only their own profile', async ({ browser }) => {
  // Two browsers, two sign-ups through the form, two reloads and a sign-out: the longest walk of the suite.
  test.slow();
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    const pageA = await contextA.newPage();
    const pageB = await contextB.newPage();
    const alice = await signUpViaUi(pageA, newCredentials('alice'));
    const bob = await signUpViaUi(pageB, newCredentials('bob'));

    await expectAccountMenuShows(pageA, alice.email);
    await expectAccountMenuShows(pageB, bob.email);
    await expect(pageB.getByText(alice.email)).toHaveCount(0);
    await expect(pageA.getByText(bob.email)).toHaveCount(0);

    // Each browser's own API calls answer with its own user, after a reload as well.
    for (const [page, who] of [[pageA, alice], [pageB, bob]] as const) {
      const me = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/refresh');
      await page.reload();
      const view = (await (await me).json()) as { profile: { email: string } };
      expect(view.profile.email).toBe(who.email);
      await expectAccountMenuShows(page, who.email);
    }

    // Bob signing out does not touch Alice's session.
    await chooseLogout(pageB);
    await expectSignedOut(pageB);
    await pageA.reload();
    await expectAccountMenuShows(pageA, alice.email);
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

test('the next user of the same browser sees nothing of the previous one', async ({ page, request }) => {
  const alice = await signUpViaUi(page, newCredentials('first'));
  await expectAccountMenuShows(page, alice.email);
  await chooseLogout(page);
  await expectSignedOut(page);

  const bob = await signUpViaApi(request, newCredentials('second'));
  await signInViaUi(page, bob);
  await expect(page).toHaveURL(/\/vault$/);
  await expectAccountMenuShows(page, bob.email);
  await expect(page.getByText(alice.email)).toHaveCount(0);
  await accountMenuButton(page).click();
  await expect(page.getByRole('menu')).not.toContainText(alice.email);
});

// /api/me takes no id (whose profile is decided by the token), so this cannot catch a scoping bug:
// it checks that each token is mapped to its own user. Requests for another user's id are tried in
// apps/gateway/test/media-isolation.int.spec.ts and the services' own specs.
test("each user's token reads their own profile from /api/me", async ({ playwright, baseURL }) => {
  const alice = newCredentials('api-a');
  const bob = newCredentials('api-b');
  const api = await playwright.request.newContext({ baseURL });
  try {
    const signUp = async (c: { email: string; password: string }) => {
      const r = await api.post('/api/auth/sign-up', { data: c });
      expect(r.status()).toBe(201);
      return ((await r.json()) as { accessToken: string; profile: { id: string; email: string } });
    };
    const a = await signUp(alice);
    const b = await signUp(bob);
    expect(a.profile.id).not.toBe(b.profile.id);
    for (const [session, email] of [[a, alice.email], [b, bob.email]] as const) {
      const me = await api.get('/api/me', { headers: { authorization: `Bearer ${session.accessToken}` } });
      expect(me.status()).toBe(200);
      const body = (await me.json()) as { email: string };
      expect(body.email).toBe(email);
    }
  } finally {
    await api.dispose();
  }
});
