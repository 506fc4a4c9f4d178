import { expect, test } from './support/test.js';
import { createKeyViaApi, openVaultTab, signUpOwner } from './support/access.js';
import { letterItem, openLetters, writeLetterViaApi } from './support/letters.js';
import { expectToast } from './support/ui.js';

// Letters for a milestone (beyond the spec): the owner seals a letter until a day for one recipient.
// Its release on the day is proven by the letters integration spec (a fake clock moves there; it
// cannot move in a running stack); here: sealing in the browser, the badge, and that a key holder's
// Letters tab does not list it.

/** A day a year from now, as the date field takes it. */
const aYearFromNow = () => {
  const day = new Date();
  day.setFullYear(day.getFullYear() + 1);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
};

test.describe('Letters for a milestone', () => {
  test('the owner seals a letter until a day for Ellie, sees the badge, and a key holder never sees it listed', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'milestone');
    await writeLetterViaApi(page.request, owner.accessToken, { title: 'An ordinary Tuesday', content: 'We fed the ducks.' });
    await writeLetterViaApi(page.request, owner.accessToken, { title: 'For Ellie at 18', content: 'Happy birthday, my girl. I am so proud of you.' });
    await openLetters(page);

    await letterItem(page, 'For Ellie at 18').getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit Letter' });
    const seal = editor.getByRole('region', { name: 'Seal until a date' });
    await seal.getByRole('checkbox', { name: 'Seal until a date' }).check();
    // Nothing is sent while something is missing: each field says what it needs.
    await seal.getByRole('button', { name: 'Seal Letter' }).click();
    await expect(seal.getByText('Choose the day this letter may be opened.')).toBeVisible();
    await expect(seal.getByText('Please enter who this letter is for.')).toBeVisible();
    const until = aYearFromNow();
    await seal.getByLabel('Open on').fill(until);
    await seal.getByLabel('Recipient’s name').fill('Ellie');
    await seal.getByLabel('Recipient’s email').fill('ellie@example.com');
    const sealed = page.waitForResponse((r) => r.url().endsWith('/seal') && r.request().method() === 'PUT');
    await seal.getByRole('button', { name: 'Seal Letter' }).click();
    expect((await sealed).status()).toBe(200);
    await expectToast(page, 'Letter sealed');
    // The day in the browser's own words (its locale), the year as chosen.
    const badge = new RegExp(`^Sealed until .*${until.slice(0, 4)}.* for Ellie$`);
    await expect(seal.getByText(badge)).toBeVisible();
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await expect(letterItem(page, 'For Ellie at 18').getByText(badge)).toBeVisible();
    // After a reload too: the seal is the server's.
    await page.reload();
    await expect(letterItem(page, 'For Ellie at 18').getByText(badge)).toBeVisible();

    // A key holder with every section: the ordinary letter, never the sealed one.
    const { key } = await createKeyViaApi(page.request, owner, { name: 'Gran', email: 'gran@example.com' });
    const family = await openVaultTab(browser, owner, key, 'Letters');
    const letters = family.getByRole('list', { name: 'Letters' });
    await expect(letters.getByText('An ordinary Tuesday')).toBeVisible();
    await expect(family.getByText('For Ellie at 18')).toHaveCount(0);
    const direct = await family.request.get('/api/view/letter');
    expect(direct.status()).toBe(401);
    await family.context().close();
  });
});
