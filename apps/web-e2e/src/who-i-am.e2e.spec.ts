import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type Page } from './support/test.js';
import { createKeyViaApi, familyPage, openVaultTab, signUpOwner } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { wavTone } from './support/media.js';
import { expectToast, unsavedIndicator } from './support/ui.js';

/** A real PNG of one colour (width x height), so the browser can draw it. */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.concat(Array.from({ length: width }, () => Buffer.from(rgb)))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

// Who I Am (/whoiam, access-family spec "Who I Am"): the owner's portrait, saved in his vault (GET/PUT
// /api/who-i-am, sealed by the letters service) and shown, section by section, in a key holder's "Who I Am" tab.

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

  test('a key holder’s "Who I Am" tab shows the sections written, in the owner’s words (issue 28)', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'whoiam-family');
    const saved = await page.request.put('/api/who-i-am', {
      data: { about_me: 'Words for my children to read.', core_values: ['Patience'] },
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect(saved.status()).toBe(200);
    const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['who-i-am'] });

    const family = await openVaultTab(browser, owner, key, 'Who I Am');
    const panel = family.getByRole('tabpanel');
    await expect(panel).toContainText('About Me');
    await expect(panel).toContainText('Core Values');
    await expect(panel).not.toContainText('Favorites');
    await expect(panel).toContainText('Words for my children to read.');
    await expect(panel).toContainText('Patience');
    await family.context().close();
  });

  test('the profile photo (replaced by the next) and personal media (uploaded, retitled, deleted) are kept in the vault; a key holder sees their titles', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'whoiam-media');
    await page.goto('/whoiam');
    await page.getByLabel('Profile photo').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await expectToast(page, 'Upload failed.', 'The profile photo must be an image (JPEG, PNG, GIF or WebP).');

    await page.getByLabel('Profile photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(40, 40, [200, 80, 20]) });
    await expectToast(page, 'Profile photo saved');
    const photo = page.getByRole('img', { name: 'Your profile photo' });
    await expect.poll(() => photo.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete && (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(40);
    await page.getByLabel('Profile photo').setInputFiles({ name: 'me-now.png', mimeType: 'image/png', buffer: png(64, 64, [20, 80, 200]) });
    await expectToast(page, 'Profile photo saved');
    await expect.poll(() => photo.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete && (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(64);
    await expect(page.getByRole('img', { name: 'Your profile photo' })).toHaveCount(1);

    // Personal media: a title first, then a file of a kind Who I Am keeps.
    const add = page.getByRole('group', { name: 'Add personal media' });
    await add.getByLabel('Media file').setInputFiles({ name: 'tune.wav', mimeType: 'audio/wav', buffer: wavTone(1) });
    await add.getByRole('button', { name: 'Upload' }).click();
    await expectToast(page, 'Missing Info', 'Add a title.');
    await add.getByLabel('Media title').fill('Humming in the kitchen');
    await add.getByRole('button', { name: 'Upload' }).click();
    await expectToast(page, 'Media uploaded');
    await add.getByLabel('Media title').fill('The allotment');
    await add.getByLabel('Media file').setInputFiles({ name: 'allotment.png', mimeType: 'image/png', buffer: png(30, 20, [40, 160, 60]) });
    // The first upload's toast may still be showing: wait for this upload's own answer before the reload.
    // (The resumable upload's last PATCH answers 200 with the saved item; any before it 204 with an offset.)
    const stored = page.waitForResponse((r) => /^\/api\/media\/tus\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH' && r.status() !== 204);
    await add.getByRole('button', { name: 'Upload' }).click();
    expect((await stored).status()).toBe(200);
    await expectToast(page, 'Media uploaded');

    await page.reload();
    // The top bar shows the latest photo in place of the initials (issue 35).
    const topBarPhoto = page.getByRole('banner').getByRole('button', { name: 'Account menu' }).locator('img');
    await expect.poll(() => topBarPhoto.evaluate((el) => Reflect.get(el, 'naturalWidth'))).toBe(64);
    const list = page.getByRole('list', { name: 'Personal media' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const tune = list.getByRole('listitem', { name: 'Humming in the kitchen' });
    await expect.poll(() => tune.locator('audio').evaluate((el) => (el as unknown as { readyState: number }).readyState)).toBeGreaterThanOrEqual(1);
    await expect.poll(() => tune.locator('audio').evaluate((el) => Math.round((el as unknown as { duration: number }).duration))).toBe(1);
    await list.getByRole('button', { name: 'Rename The allotment' }).click();
    await list.getByLabel('New title').fill('The allotment, June');
    await list.getByRole('button', { name: 'Save Title' }).click();
    await expect(list.getByRole('listitem', { name: 'The allotment, June' })).toBeVisible();

    const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['who-i-am'] });
    const family = await openVaultTab(browser, owner, key, 'Who I Am');
    const panel = family.getByRole('tabpanel');
    for (const title of ['Profile photo', 'Humming in the kitchen', 'The allotment, June']) await expect(panel).toContainText(title);
    await family.context().close();

    await list.getByRole('button', { name: 'Delete Humming in the kitchen' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this item?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await page.reload();
    await expect(page.getByRole('list', { name: 'Personal media' }).getByRole('listitem')).toHaveCount(1);
  });
});
