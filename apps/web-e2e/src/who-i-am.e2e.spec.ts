import { expect, test, type Page } from './support/test.js';
import { acceptDisclaimer, createKeyViaApi, familyPage, signUpOwner } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { expectToast, unsavedIndicator } from './support/ui.js';

// Who I Am (/whoiam, access-family spec "Who I Am"): the owner's portrait, saved in his vault (GET/PUT
// /api/who-i-am, sealed by the letters service) and listed by section in a key holder's "Who I Am" tab.

const profile = (page: Page) => page.getByRole('form', { name: 'Who I Am' });

async function saveProfile(page: Page): Promise<void> {
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/who-i-am' && r.request().method() === 'PUT');
  await profile(page).getByRole('button', { name: 'Save Profile' }).click();
  expect((await saved).status()).toBe(200);
  await expectToast(page, 'Profile saved');
}

test.describe('Who I Am', () => {
  test('the owner writes his portrait, saves it, and finds it again after a reload; another owner sees none of it', async ({ page, browser }) => {
    await signUpOwner(page, 'whoiam');
    await page.goto('/vault');
    await page.getByRole('region', { name: 'More in your vault' }).getByRole('link', { name: 'Who Am I' }).click();
    await expect(page).toHaveURL(/\/whoiam$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Who I Am' })).toBeVisible();

    const form = profile(page);
    await form.getByLabel('About Me').fill('  I fix bikes on Sundays and sing badly in the car.  ');
    const traits = form.getByRole('group', { name: 'Personality Traits' });
    await expect(traits.getByRole('checkbox')).toHaveCount(6);
    await traits.getByRole('checkbox', { name: 'Funny' }).check();
    await traits.getByRole('checkbox', { name: 'Kind' }).check();
    await form.getByLabel('Favorite Music').fill('Nick Drake');
    await form.getByLabel('Favorite Films').fill('Paddington 2');
    const values = form.getByRole('group', { name: 'Core Values' });
    await values.getByRole('textbox', { name: 'Core value 1' }).fill('Honesty');
    await values.getByRole('button', { name: 'Add Value' }).click();
    await values.getByRole('button', { name: 'Add Value' }).click();
    await values.getByRole('textbox', { name: 'Core value 3' }).fill('Turning up');
    await expect(unsavedIndicator(page)).toBeVisible({ timeout: 10_000 });
    await saveProfile(page);

    await page.reload();
    await expect(form.getByLabel('About Me')).toHaveValue('I fix bikes on Sundays and sing badly in the car.');
    await expect(traits.getByRole('checkbox', { name: 'Kind' })).toBeChecked();
    await expect(traits.getByRole('checkbox', { name: 'Funny' })).toBeChecked();
    await expect(traits.getByRole('checkbox', { name: 'Patient' })).not.toBeChecked();
    await expect(form.getByLabel('Favorite Films')).toHaveValue('Paddington 2');
    // The empty core value was ignored.
    await expect(values.getByRole('textbox')).toHaveCount(2);
    await expect(values.getByRole('textbox', { name: 'Core value 2' })).toHaveValue('Turning up');
    await expect(unsavedIndicator(page)).toHaveCount(0);

    // Another owner, in a browser of his own: an empty portrait.
    const other = await familyPage(browser);
    await signUpOwner(other, 'whoiam-other');
    await other.goto('/whoiam');
    await expect(profile(other).getByLabel('About Me')).toHaveValue('');
    await expect(other.getByText('I fix bikes on Sundays')).toHaveCount(0);
    await other.context().close();
  });

  test('a key holder’s "Who I Am" tab lists the sections written, never their words', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'whoiam-family');
    const saved = await page.request.put('/api/who-i-am', {
      data: { about_me: 'Words only I should read here.', core_values: ['Patience'] },
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect(saved.status()).toBe(200);
    const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['who-i-am'] });

    const family = await familyPage(browser);
    await family.goto(`/access?k=${key}&owner=${owner.id}`);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    await family.getByRole('tablist', { name: 'Vault sections' }).getByRole('tab', { name: 'Who I Am' }).click();
    const panel = family.getByRole('tabpanel');
    await expect(panel).toContainText('About Me');
    await expect(panel).toContainText('Core Values');
    await expect(panel).not.toContainText('Favorites');
    await expect(panel).not.toContainText('Words only I should read here.');
    await family.context().close();
  });
});
