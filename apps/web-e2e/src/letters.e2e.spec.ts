import { expect, test, type Page } from './support/test.js';
import { chooseLogout, expectSignedOut, signInViaUi } from './support/auth.js';
import { fillNewLetter, letterItem, letterList, marker, newLetterForm, openLetters, signUpWithToken, writeLetterViaApi } from './support/letters.js';
import { expectToast, getLocalStorage, unsavedIndicator } from './support/ui.js';

// Letters Unsent (owner-core spec, sections 2, 4, 5, 8, 9): the list, view, edit and delete, the
// new-letter form and its draft, the "Write with AI Assistant" wizard, the sign-out warning with a
// letter draft, and owner scoping. Against the whole stack: gateway, identity, letters, JetStream.

test.use({ colorScheme: 'light' });

const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name });

test.describe('writing, reading, editing and deleting', () => {
  test('write a letter, see it in the list, view it, edit it and delete it', async ({ page }) => {
    await signUpWithToken(page.request);
    await openLetters(page);
    await expect(page.getByText('No letters yet')).toBeVisible();

    const title = marker('For Sam');
    const body = `Dear Sam,\n\n${'I am proud of you. '.repeat(7)}Never forget how loved you are.`;
    const form = await fillNewLetter(page, `  ${title}  `, `\n${body}\n`);
    await form.getByRole('button', { name: 'Save Letter' }).click();
    await expect(newLetterForm(page)).toHaveCount(0);

    // The list: title, date, word count and the first 100 characters.
    const item = letterItem(page, title);
    await expect(item).toBeVisible();
    const today = new Date().toISOString();
    await expect(item).toContainText(longDate(today));
    await expect(item).toContainText('43 words');
    await expect(item).toContainText(body.slice(0, 60).replace(/\s+/g, ' ').trim().slice(0, 40));
    await expect(item).not.toContainText('Never forget');

    // View: the whole letter.
    await item.getByRole('button', { name: 'View' }).click();
    const viewer = dialogNamed(page, title);
    await expect(viewer).toBeVisible();
    await expect(viewer.getByRole('article', { name: 'Letter' })).toContainText('Never forget how loved you are.');
    await viewer.getByRole('button', { name: 'Close' }).first().click();
    await expect(viewer).toHaveCount(0);

    // Edit.
    await item.getByRole('button', { name: 'Edit' }).click();
    const editor = dialogNamed(page, 'Edit Letter');
    const editBody = editor.getByLabel('Letter', { exact: true });
    await expect(editBody).toHaveValue(body.trim());
    await editBody.fill('Dear Sam, short and sweet this time.');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Letter updated successfully.');
    await expect(editor).toHaveCount(0);
    await expect(item).toContainText('7 words');
    await expect(item).toContainText('Dear Sam, short and sweet this time.');

    // It survives a reload (it is on the server, not only in the page).
    await page.reload();
    await expect(letterItem(page, title)).toContainText('Dear Sam, short and sweet this time.');

    // The vault home counts it as a letter written.
    await page.goto('/vault');
    await expect(page.getByTestId('stat-letters-written')).toHaveText('1');
    await openLetters(page);

    // Delete, after "Are you sure?".
    await letterItem(page, title).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(letterItem(page, title)).toBeVisible();
    await letterItem(page, title).getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByText(title)).toHaveCount(0);
    await page.reload();
    await expect(page.getByText('No letters yet')).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);
  });

  test('newest first, and a letter’s words are shown as text, never as HTML', async ({ page }) => {
    const { accessToken } = await signUpWithToken(page.request);
    let alerted = false;
    page.on('dialog', (d) => {
      alerted = true;
      void d.dismiss();
    });
    const hostile = '<img src=x onerror="alert(1)"><b>not bold</b> <script>alert(2)</script>';
    await writeLetterViaApi(page.request, accessToken, { title: 'Older', content: 'The first letter.' });
    await writeLetterViaApi(page.request, accessToken, { title: '<i>Newer</i>', content: hostile });
    await openLetters(page);
    await expect(letterList(page).getByRole('listitem').getByRole('heading')).toHaveText(['<i>Newer</i>', 'Older']);
    const item = letterItem(page, '<i>Newer</i>');
    await expect(item).toContainText('<img src=x onerror="alert(1)">');
    await item.getByRole('button', { name: 'View' }).click();
    const viewer = dialogNamed(page, '<i>Newer</i>');
    await expect(viewer.getByRole('article', { name: 'Letter' })).toHaveText(hostile);
    expect(await page.locator('main img, [role="dialog"] img, [role="dialog"] b, main b').count()).toBe(0);
    expect(alerted).toBe(false);
  });

  test('a stale editor is told the letter changed elsewhere, and Reload brings the latest words', async ({ page, context }) => {
    const { accessToken } = await signUpWithToken(page.request);
    const letter = await writeLetterViaApi(page.request, accessToken, { title: 'Shared', content: 'Version one.' });
    await openLetters(page);
    const other = await context.newPage();
    await openLetters(other);

    for (const p of [page, other]) {
      await letterItem(p, 'Shared').getByRole('button', { name: 'Edit' }).click();
      await expect(dialogNamed(p, 'Edit Letter').getByLabel('Letter', { exact: true })).toHaveValue('Version one.');
    }
    await dialogNamed(other, 'Edit Letter').getByLabel('Letter', { exact: true }).fill('Saved in the other tab.');
    await dialogNamed(other, 'Edit Letter').getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(other, 'Letter updated successfully.');

    const editor = dialogNamed(page, 'Edit Letter');
    await editor.getByLabel('Letter', { exact: true }).fill('Saved in this tab.');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    const alert = editor.getByRole('alert');
    await expect(alert).toContainText('This letter was changed elsewhere. Reload to see the latest version.');
    await expectToast(page, 'Error updating letter');
    // Nothing was overwritten.
    const current = await page.request.get(`/api/letters/${letter.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await current.json()) as { content: string }).content).toBe('Saved in the other tab.');

    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect(editor.getByLabel('Letter', { exact: true })).toHaveValue('Saved in the other tab.');
    await editor.getByLabel('Letter', { exact: true }).fill('Saved in the other tab, and then here.');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Letter updated successfully.');
    await expect(letterItem(page, 'Shared')).toContainText('Saved in the other tab, and then here.');
    await other.close();
  });
});

test.describe('blank fields', () => {
  test('Save stays disabled while the title or the body is blank; both are stored trimmed', async ({ page }) => {
    await signUpWithToken(page.request);
    await openLetters(page);
    await page.getByRole('button', { name: 'Write New Letter' }).click();
    const form = newLetterForm(page);
    const save = form.getByRole('button', { name: 'Save Letter' });
    const title = form.getByLabel('Title', { exact: true });
    const body = form.getByLabel('Letter', { exact: true });
    await expect(save).toBeDisabled();
    await title.fill('Only a title');
    await expect(save).toBeDisabled();
    await body.fill('   \n\t  ');
    await expect(save).toBeDisabled();
    await title.fill('   ');
    await body.fill('Only a body');
    await expect(save).toBeDisabled();
    await title.fill('  Both  ');
    await expect(save).toBeEnabled();
    await body.fill('');
    await expect(save).toBeDisabled();
    await body.fill('  Now both.  ');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/letters');
    await save.click();
    expect((await posted).postDataJSON()).toMatchObject({ title: 'Both', content: 'Now both.' });
    await expect(letterItem(page, 'Both')).toContainText('Now both.');

    // The editor follows the same rule.
    await letterItem(page, 'Both').getByRole('button', { name: 'Edit' }).click();
    const editor = dialogNamed(page, 'Edit Letter');
    await editor.getByLabel('Title', { exact: true }).fill('  ');
    await expect(editor.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await editor.getByLabel('Title', { exact: true }).fill('Both, again');
    await editor.getByLabel('Letter', { exact: true }).fill('\n');
    await expect(editor.getByRole('button', { name: 'Save Changes' })).toBeDisabled();

    // The API refuses blank words too (the rule is the service's, not only the page's).
    const { accessToken } = await signUpWithToken(page.request, 'blank-api');
    const refused = await page.request.post('/api/letters', { data: { title: ' ', content: 'x' }, headers: { authorization: `Bearer ${accessToken}` } });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { title: 'Please give your letter a title.' } });
  });
});

test.describe('Write with AI Assistant', () => {
  test('emotion, purpose, "Crafting your letter..." for 2 s, edit and preview, Start Over, Save Letter', async ({ page }) => {
    await signUpWithToken(page.request);
    await openLetters(page);
    await page.getByRole('button', { name: 'Write with AI Assistant' }).click();
    const wizard = dialogNamed(page, 'Write with AI Assistant');
    const currentStep = wizard.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]');
    await expect(currentStep).toContainText('Emotion');
    for (const emotion of ['Love', 'Sad', 'Frustrated', 'Grateful', 'Unsure']) await expect(wizard.getByRole('button', { name: new RegExp(`^${emotion}`) })).toBeVisible();

    await wizard.getByRole('button', { name: /^Love/ }).click();
    await expect(currentStep).toContainText('Purpose');
    for (const purpose of ['Apology', 'Encouragement', 'Memory', 'Advice', 'Care']) await expect(wizard.getByRole('button', { name: new RegExp(`^${purpose}`) })).toBeVisible();

    const chosen = Date.now();
    await wizard.getByRole('button', { name: /^Memory/ }).click();
    await expect(wizard.getByText('Crafting your letter...')).toBeVisible();
    const draft = wizard.getByLabel('Letter', { exact: true });
    await expect(draft).toBeVisible();
    // 0.5 s to advance plus 2 s of crafting.
    expect(Date.now() - chosen).toBeGreaterThanOrEqual(2400);
    await expect(currentStep).toContainText('Draft');
    await expect(draft).toHaveValue(/^My dear child,\n\nSome nights I close my eyes/);

    await draft.fill(`${await draft.inputValue()}\nP.S. Bring the kite.`);
    await wizard.getByRole('button', { name: 'Preview' }).click();
    await expect(wizard.getByRole('article', { name: 'Letter preview' })).toContainText('P.S. Bring the kite.');
    await wizard.getByRole('button', { name: 'Edit' }).click();

    await wizard.getByRole('button', { name: 'Start Over' }).click();
    await expect(currentStep).toContainText('Emotion');
    await wizard.getByRole('button', { name: /^Grateful/ }).click();
    await wizard.getByRole('button', { name: /^Advice/ }).click();
    await expect(draft).toHaveValue(/^My dear child,\n\nIf I could give you just one habit/);

    await wizard.getByRole('button', { name: 'Save Letter' }).click();
    await expect(wizard).toHaveCount(0);
    // The app's one date style in the browser's language ("December 5, 2026" in en-US), never "12/5/2026".
    const title = await page.evaluate(() => `AI-Assisted Letter - ${new Intl.DateTimeFormat(navigator.language, { dateStyle: 'long' }).format(new Date())}`);
    expect(title).not.toMatch(/\d+\/\d+\/\d+/);
    const item = letterItem(page, title);
    await expect(item).toBeVisible();
    await expect(item).toContainText('My dear child,');
  });
});

test.describe('the letter draft and the sign-out warning', () => {
  async function typeADraft(page: Page, title: string, content: string) {
    await fillNewLetter(page, title, content);
    await expect(unsavedIndicator(page)).toBeVisible();
    expect(JSON.parse((await getLocalStorage(page, 'unsaved_letter_draft'))!)).toMatchObject({ title, content });
  }

  test('Cancel closes the warning and keeps the letter being written', async ({ page }) => {
    await signUpWithToken(page.request);
    await openLetters(page);
    await typeADraft(page, 'Unfinished', 'Dear Sam, there is something');
    await chooseLogout(page);
    const warning = dialogNamed(page, 'Sign Out Warning');
    await expect(warning.getByRole('list', { name: 'Drafts found' }).getByRole('listitem')).toHaveText(['Letter Draft']);
    await expect(warning.getByRole('button', { name: 'Save Drafts & Sign Out' })).toBeVisible();
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await expect(warning).toHaveCount(0);
    await expect(page).toHaveURL(/\/letters$/);
    await expect(newLetterForm(page).getByLabel('Letter', { exact: true })).toHaveValue('Dear Sam, there is something');
  });

  test('"Save Drafts & Sign Out" keeps the draft; it is back in the form after signing in again', async ({ page }) => {
    const { credentials } = await signUpWithToken(page.request);
    await openLetters(page);
    await typeADraft(page, 'For later', 'Dear Sam, I will finish this');
    await chooseLogout(page);
    const warning = dialogNamed(page, 'Sign Out Warning');
    await warning.getByRole('button', { name: 'Save Drafts & Sign Out' }).click();
    await expectToast(page, 'Drafts Saved', 'Your work has been saved locally and will be available when you return.');
    await expectToast(page, 'Logged out successfully');
    await expect(page).toHaveURL(/\/$/);
    await expectSignedOut(page);
    expect(JSON.parse((await getLocalStorage(page, 'unsaved_letter_draft'))!)).toMatchObject({ title: 'For later', content: 'Dear Sam, I will finish this' });

    await signInViaUi(page, credentials);
    await openLetters(page);
    await expect(page.getByText(/You have an unsaved letter draft/)).toBeVisible();
    await page.getByRole('button', { name: 'Write New Letter' }).click();
    await expect(newLetterForm(page).getByLabel('Title', { exact: true })).toHaveValue('For later');
    await expect(newLetterForm(page).getByLabel('Letter', { exact: true })).toHaveValue('Dear Sam, I will finish this');
    await newLetterForm(page).getByRole('button', { name: 'Save Letter' }).click();
    await expect(letterItem(page, 'For later')).toBeVisible();
    expect(await getLocalStorage(page, 'unsaved_letter_draft')).toBeNull();
  });

  test('"Sign Out Without Saving" removes the draft', async ({ page }) => {
    const { credentials } = await signUpWithToken(page.request);
    await openLetters(page);
    await typeADraft(page, 'Let go', 'Some words I will not keep');
    await chooseLogout(page);
    await dialogNamed(page, 'Sign Out Warning').getByRole('button', { name: 'Sign Out Without Saving' }).click();
    await expectToast(page, 'Logged out successfully');
    await expect(page).toHaveURL(/\/$/);
    expect(await getLocalStorage(page, 'unsaved_letter_draft')).toBeNull();

    await signInViaUi(page, credentials);
    await openLetters(page);
    await page.getByRole('button', { name: 'Write New Letter' }).click();
    await expect(newLetterForm(page).getByLabel('Title', { exact: true })).toHaveValue('');
    await expect(newLetterForm(page).getByLabel('Letter', { exact: true })).toHaveValue('');
  });

  test('the browser warns before leaving a letter being written', async ({ page }) => {
    await signUpWithToken(page.request);
    await openLetters(page);
    await typeADraft(page, 'Half', 'Half a letter');
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
  });
});

test.describe('owner scoping', () => {
  test('a second user never sees, changes or deletes the first user’s letters', async ({ browser }) => {
    const contextA = await browser.newContext();
    const contextB = await browser.newContext();
    try {
      const alicePage = await contextA.newPage();
      const bobPage = await contextB.newPage();
      const alice = await signUpWithToken(alicePage.request, 'alice');
      const bob = await signUpWithToken(bobPage.request, 'bob');
      const secret = marker('Only for Ellie');
      const letter = await writeLetterViaApi(alicePage.request, alice.accessToken, { title: secret, content: `${secret} and nobody else.` });

      await openLetters(alicePage);
      await expect(letterItem(alicePage, secret)).toBeVisible();
      await openLetters(bobPage);
      await expect(bobPage.getByText('No letters yet')).toBeVisible();
      await expect(bobPage.getByText(secret)).toHaveCount(0);

      // By id, through the API with Bob's token: not found, whatever the method.
      const asBob = { authorization: `Bearer ${bob.accessToken}` };
      expect((await bobPage.request.get(`/api/letters/${letter.id}`, { headers: asBob })).status()).toBe(404);
      expect((await bobPage.request.put(`/api/letters/${letter.id}`, { headers: asBob, data: { title: 'Mine', content: 'Overwritten', expectedVersion: 1 } })).status()).toBe(404);
      expect((await bobPage.request.delete(`/api/letters/${letter.id}`, { headers: asBob })).status()).toBe(404);
      const list = (await (await bobPage.request.get('/api/letters', { headers: asBob })).json()) as { letters: unknown[] };
      expect(list.letters).toEqual([]);

      // Alice's letter is untouched.
      await alicePage.reload();
      await expect(letterItem(alicePage, secret)).toContainText(`${secret} and nobody else.`);
    } finally {
      await contextA.close();
      await contextB.close();
    }
  });

  test('the next user of the same browser sees neither the letters nor the letter draft of the previous one', async ({ page, request }) => {
    const { accessToken } = await signUpWithToken(page.request, 'first');
    const secret = marker('First user');
    await writeLetterViaApi(page.request, accessToken, { title: secret, content: 'Private words.' });
    await openLetters(page);
    await fillNewLetter(page, 'Draft of the first user', 'Unfinished private words');
    await chooseLogout(page);
    await dialogNamed(page, 'Sign Out Warning').getByRole('button', { name: 'Save Drafts & Sign Out' }).click();
    await expectSignedOut(page);

    // Signed up with the test's own request context: the browser stays signed out until the UI sign-in.
    const second = await signUpWithToken(request, 'second');
    await signInViaUi(page, second.credentials);
    await openLetters(page);
    await expect(page.getByText('No letters yet')).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);
    await page.getByRole('button', { name: 'Write New Letter' }).click();
    await expect(newLetterForm(page).getByLabel('Letter', { exact: true })).toHaveValue('');
  });
});
