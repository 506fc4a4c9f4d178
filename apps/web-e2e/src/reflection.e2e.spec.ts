import { expect, test, type Page } from './support/test.js';
import { chooseLogout, expectSignedOut, newCredentials, signedInOnVault, signInViaUi, signUpViaUi } from './support/auth.js';
import { expectToast, getLocalStorage, setLocalStorage, unsavedIndicator } from './support/ui.js';

// The vault home's "Thoughts & Feelings" reflection (owner-core spec, section 2 "Vault home"), kept in
// the user's vault (GET/PUT /api/vault/reflection, encrypted at rest by the letters service) instead
// of the browser's localStorage `vault_thoughts`, which every user of the browser used to share.

const thoughtsBox = (page: Page) => page.getByRole('textbox', { name: 'Thoughts & Feelings' });
const thoughtsTile = (page: Page) => page.getByRole('link', { name: /Thoughts Saved/ });

async function saveReflection(page: Page, text: string): Promise<void> {
  await thoughtsBox(page).fill(text);
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/vault/reflection' && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save Reflection' }).click();
  expect((await saved).status()).toBe(200);
  await expectToast(page, 'Thoughts saved privately');
}

test('a saved reflection comes back from the vault after a reload, counted as a thought saved', async ({ page }) => {
  await signedInOnVault(page, newCredentials('reflection'));
  await expect(thoughtsBox(page)).toHaveValue('');
  await expect(thoughtsTile(page)).toHaveText(/^\s*0\s*Thoughts Saved\s*$/);

  await saveReflection(page, '  A quiet morning, thinking of you both.  ');
  await expect(thoughtsBox(page)).toHaveValue('A quiet morning, thinking of you both.');
  await expect(thoughtsTile(page)).toHaveText(/^\s*1\s*Thoughts Saved\s*$/);
  expect(await getLocalStorage(page, 'vault_thoughts')).toBeNull();

  await page.reload();
  await expect(thoughtsBox(page)).toHaveValue('A quiet morning, thinking of you both.');
  await expect(thoughtsTile(page)).toHaveText(/^\s*1\s*Thoughts Saved\s*$/);
  await expect(unsavedIndicator(page)).toHaveCount(0);

  // Saving a blank reflection clears it.
  await saveReflection(page, '   ');
  await page.reload();
  await expect(thoughtsBox(page)).toHaveValue('');
  await expect(thoughtsTile(page)).toHaveText(/^\s*0\s*Thoughts Saved\s*$/);
});

test('the next person signing in on the same browser never sees the previous user’s reflection', async ({ page }) => {
  const dad = await signedInOnVault(page, newCredentials('reflection-dad'));
  await saveReflection(page, 'Private words for my daughter.');
  await chooseLogout(page);
  await expectToast(page, 'Logged out successfully');
  await expectSignedOut(page);
  expect(await getLocalStorage(page, 'vault_thoughts')).toBeNull();

  // Someone else, same browser.
  const reflectionOfOther = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/vault/reflection' && r.request().method() === 'GET');
  await signUpViaUi(page, newCredentials('reflection-other'));
  expect(await (await reflectionOfOther).json()).toEqual({ text: '', updated_at: null });
  await expect(thoughtsBox(page)).toBeEnabled();
  await expect(thoughtsBox(page)).toHaveValue('');
  await expect(page.getByText('Private words for my daughter.')).toHaveCount(0);
  await expect(thoughtsTile(page)).toHaveText(/^\s*0\s*Thoughts Saved\s*$/);
  await chooseLogout(page);
  await expectSignedOut(page);

  // The owner finds his reflection where he left it.
  await signInViaUi(page, dad);
  await page.goto('/vault');
  await expect(thoughtsBox(page)).toHaveValue('Private words for my daughter.');
});

test('a reflection the original product left in the browser moves into the vault of whoever signs in first, once, and then leaves the browser', async ({ page }) => {
  await page.goto('/');
  await setLocalStorage(page, { vault_thoughts: 'Written before the update.' });
  const first = await signUpViaUi(page, newCredentials('reflection-legacy'));
  await expect(thoughtsBox(page)).toHaveValue('Written before the update.');
  await expect.poll(() => getLocalStorage(page, 'vault_thoughts')).toBeNull();
  await page.reload();
  await expect(thoughtsBox(page)).toHaveValue('Written before the update.');
  await expect(thoughtsTile(page)).toHaveText(/^\s*1\s*Thoughts Saved\s*$/);
  await chooseLogout(page);
  await expectSignedOut(page);

  // A stale local copy never overwrites a reflection already in the vault, and is dropped unseen.
  await setLocalStorage(page, { vault_thoughts: 'Someone else’s words.' });
  await signInViaUi(page, first);
  await page.goto('/vault');
  await expect(thoughtsBox(page)).toHaveValue('Written before the update.');
  await expect.poll(() => getLocalStorage(page, 'vault_thoughts')).toBeNull();
  await expect(page.getByText('Someone else’s words.')).toHaveCount(0);
});

test('when the save fails the typed text stays, flagged as unsaved, with "Could not save your reflection"', async ({ page }) => {
  await signedInOnVault(page, newCredentials('reflection-fail'));
  await page.route('**/api/vault/reflection', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({ status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'The service is unavailable.' } })
      : route.fallback());
  await thoughtsBox(page).fill('Please keep this.');
  await page.getByRole('button', { name: 'Save Reflection' }).click();
  await expectToast(page, 'Could not save your reflection', 'Please try again.');
  await expect(thoughtsBox(page)).toHaveValue('Please keep this.');
  await expect(unsavedIndicator(page)).toBeVisible();

  // Once the vault answers again, the same text saves.
  await page.unroute('**/api/vault/reflection');
  await page.getByRole('button', { name: 'Save Reflection' }).click();
  await expectToast(page, 'Thoughts saved privately');
  await page.reload();
  await expect(thoughtsBox(page)).toHaveValue('Please keep this.');
});
