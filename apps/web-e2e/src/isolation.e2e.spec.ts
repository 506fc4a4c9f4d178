import type { APIResponse, Browser } from '@playwright/test';
import { expect, test, type Page } from './support/test.js';
import { courtItem, openCourtDocuments, pdfFile, uploadViaApi } from './support/court.js';
import { letterItem, letterList, marker, openLetters, signUpWithToken, writeLetterViaApi, type SignedUp } from './support/letters.js';
import { saveRecordingViaApi, setTier } from './support/media.js';
import { accountMenuButton, chooseLogout, expectAccountMenuShows, expectSignedOut, newCredentials, signInViaUi, signUpViaApi, signUpViaUi } from './support/auth.js';

// Every screen shows only the signed-in user's own data (owner-core spec, section 6).

/** Runs `walk` with two pages, each in a browser context of its own (its own cookies and storage). */
async function inTwoBrowsers(browser: Browser, walk: (pageA: Page, pageB: Page) => Promise<void>): Promise<void> {
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    await walk(await contextA.newPage(), await contextB.newPage());
  } finally {
    await contextA.close();
    await contextB.close();
  }
}

test('two users in two browsers each see only their own profile', async ({ browser }) => {
  // Two browsers, two sign-ups through the form, two reloads and a sign-out: the longest walk of the suite.
  test.slow();
  await inTwoBrowsers(browser, async (pageA, pageB) => {
    const alice = await signUpViaUi(pageA, newCredentials('alice'));
    const bob = await signUpViaUi(pageB, newCredentials('bob'));

    await expectAccountMenuShows(pageA, alice.email);
    await expectAccountMenuShows(pageB, bob.email);
    await expect(pageB.getByText(alice.email)).toHaveCount(0);
    await expect(pageA.getByText(bob.email)).toHaveCount(0);

    // Each browser's own API calls answer with its own user, after a reload as well.
    for (const [page, who] of [[pageA, alice], [pageB, bob]] as const) {
      const me = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/session');
      await page.reload();
      const { session } = (await (await me).json()) as { session: { profile: { email: string } } };
      expect(session.profile.email).toBe(who.email);
      await expectAccountMenuShows(page, who.email);
    }

    // Bob signing out does not touch Alice's session.
    await chooseLogout(pageB);
    await expectSignedOut(pageB);
    await pageA.reload();
    await expectAccountMenuShows(pageA, alice.email);
  });
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
// apps/gateway/test/media-isolation.int.spec.ts, the services' own specs and the next test.
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

// Owner A's letter, recording and court document, against owner B in his own browser: his pages never
// show them, and every route that takes an item's id answers 404 to him with nothing of A's in it.
// Each negative check follows a positive one on the same page (B's own item of that kind is shown, so
// the list has loaded), and A still finds her items afterwards (B's deletes changed nothing).
test("owner B, in his own browser, cannot see or open owner A's letter, recording or court document", async ({ browser }) => {
  test.slow();
  await inTwoBrowsers(browser, async (pageA, pageB) => {
    // Both on a paid plan (the timeline is one of its pages); signed in again, so the token says so.
    const owner = async (page: Page, tag: string) => {
      const { credentials } = await signUpWithToken(page.request, tag);
      setTier(credentials.email, 'pro');
      const signIn = await page.request.post('/api/auth/sign-in', { data: credentials });
      expect(signIn.status(), await signIn.text()).toBe(200);
      return { credentials, accessToken: ((await signIn.json()) as { accessToken: string }).accessToken };
    };
    const alice = await owner(pageA, 'iso-items-a');
    const bob = await owner(pageB, 'iso-items-b');
    const itemsOf = async (page: Page, who: SignedUp, tag: string) => {
      const letter = await writeLetterViaApi(page.request, who.accessToken, { title: marker(`${tag} letter`), content: marker(`${tag} words`) });
      const recording = marker(`${tag} recording`);
      const { id: recordingId } = await saveRecordingViaApi(page.request, who.accessToken, recording);
      const document = await uploadViaApi(page.request, who.accessToken, { title: marker(`${tag} document`), category: 'Custody', file: pdfFile(`${tag}.pdf`, `${tag} order`) });
      return { letter, recording: { id: recordingId, title: recording }, document, titles: [letter.title, recording, document.title] };
    };
    const a = await itemsOf(pageA, alice, 'alice');
    const b = await itemsOf(pageB, bob, 'bob');
    const aWords = [a.letter.id, a.letter.content, a.recording.id, a.document.id, ...a.titles];
    const leaksIn = (body: string) => aWords.filter((word) => body.includes(word));
    // The timeline is a read model fed by events: each owner's holds his three once it has caught up.
    const timelineOf = async (page: Page, who: SignedUp) => {
      const response = await page.request.get('/api/timeline', { headers: { authorization: `Bearer ${who.accessToken}` } });
      expect(response.status(), await response.text()).toBe(200);
      return ((await response.json()) as { entries: { id: string; title: string }[] }).entries;
    };
    const caughtUp = async (page: Page, who: SignedUp, titles: string[]) => {
      await expect.poll(async () => (await timelineOf(page, who)).map((e) => e.title).filter((t) => titles.includes(t)).sort(), { timeout: 30_000 }).toEqual([...titles].sort());
      return (await timelineOf(page, who)).filter((e) => titles.includes(e.title));
    };
    const aEntries = await caughtUp(pageA, alice, a.titles);
    await caughtUp(pageB, bob, b.titles);

    // His pages: his own item of each kind, none of hers.
    await openLetters(pageB);
    await expect(letterItem(pageB, b.letter.title)).toBeVisible();
    await expect(letterList(pageB)).not.toContainText(a.letter.title);
    await pageB.goto('/record');
    const recordings = pageB.getByRole('list', { name: 'Your Recordings' });
    await expect(recordings).toContainText(b.recording.title);
    await expect(recordings).not.toContainText(a.recording.title);
    await openCourtDocuments(pageB);
    await expect(courtItem(pageB, b.document.title)).toBeVisible();
    await expect(courtItem(pageB, a.document.title)).toHaveCount(0);
    await pageB.goto('/timeline');
    const entries = pageB.getByTestId('timeline-entry');
    for (const title of b.titles) await expect(entries.filter({ hasText: title })).toHaveCount(1);
    await expect(entries).toHaveCount(3);
    expect(leaksIn(await pageB.locator('main').innerText())).toEqual([]);

    // Her items by id, through the API with his token: 404, never her content. Deletes come last.
    const asBob = { authorization: `Bearer ${bob.accessToken}` };
    const tries: { what: string; send: () => Promise<APIResponse> }[] = [
      { what: 'read the letter', send: () => pageB.request.get(`/api/letters/${a.letter.id}`, { headers: asBob }) },
      { what: 'edit the letter', send: () => pageB.request.put(`/api/letters/${a.letter.id}`, { headers: asBob, data: { title: 'Taken', content: 'Taken', expectedVersion: a.letter.version } }) },
      { what: 'rename the recording', send: () => pageB.request.patch(`/api/media/recordings/${a.recording.id}`, { headers: asBob, data: { title: 'Taken' } }) },
      { what: 'play the recording', send: () => pageB.request.post(`/api/media/recordings/${a.recording.id}/playback`, { headers: asBob }) },
      { what: 'mark the document', send: () => pageB.request.patch(`/api/court/documents/${a.document.id}`, { headers: asBob, data: { is_key_evidence: true } }) },
      { what: 'open the document', send: () => pageB.request.post(`/api/court/documents/${a.document.id}/link`, { headers: asBob, data: { disposition: 'inline' } }) },
      ...aEntries.map((entry) => ({ what: `delete the timeline entry "${entry.title}"`, send: () => pageB.request.delete(`/api/timeline/${entry.id}`, { headers: asBob }) })),
      { what: 'delete the letter', send: () => pageB.request.delete(`/api/letters/${a.letter.id}`, { headers: asBob }) },
      { what: 'delete the recording', send: () => pageB.request.delete(`/api/media/recordings/${a.recording.id}`, { headers: asBob }) },
      { what: 'delete the document', send: () => pageB.request.delete(`/api/court/documents/${a.document.id}`, { headers: asBob }) },
    ];
    for (const { what, send } of tries) {
      const response = await send();
      expect({ what, status: response.status(), leaks: leaksIn(await response.text()) }).toEqual({ what, status: 404, leaks: [] });
    }
    // His lists by the API: his own, nothing of hers.
    for (const path of ['/api/letters', '/api/media/recordings', '/api/court/documents', '/api/timeline']) {
      const response = await pageB.request.get(path, { headers: asBob });
      expect({ path, status: response.status(), leaks: leaksIn(await response.text()) }).toEqual({ path, status: 200, leaks: [] });
    }

    // Hers are untouched: her pages still show all three, unrenamed, and her letter reads as she wrote it.
    await openLetters(pageA);
    await expect(letterItem(pageA, a.letter.title)).toBeVisible();
    await pageA.goto('/record');
    await expect(pageA.getByRole('list', { name: 'Your Recordings' })).toContainText(a.recording.title);
    await openCourtDocuments(pageA);
    await expect(courtItem(pageA, a.document.title)).toBeVisible();
    expect((await timelineOf(pageA, alice)).filter((e) => a.titles.includes(e.title))).toHaveLength(3);
    const mine = await pageA.request.get(`/api/letters/${a.letter.id}`, { headers: { authorization: `Bearer ${alice.accessToken}` } });
    expect(mine.status()).toBe(200);
    expect(((await mine.json()) as { content: string }).content).toBe(a.letter.content);
  });
});
