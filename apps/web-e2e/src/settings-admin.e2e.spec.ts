import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { expect, test } from './support/test.js';
import { newCredentials, PASSWORD, signInViaUi, uniqueEmail } from './support/auth.js';
import { pdfFile, uploadViaApi } from './support/court.js';
import { signUpWithToken, writeLetterViaApi } from './support/letters.js';
import { runOperatorCommand, saveRecordingViaApi, tokenOnPlan } from './support/media.js';

// Settings (/settings) and the Admin Dashboard (/admin): spec 02, "Settings" and "Admin Dashboard",
// issue 14. Against the whole stack: gateway, identity, letters, vault-media, court-journal, access-keys.

const SAVED = 'Settings Saved! Your changes have been updated successfully.';
const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

test.describe('settings', () => {
  test('saves the profile name and shows "Settings Saved!" for 3 seconds; the switches keep their state', async ({ page }) => {
    await signUpWithToken(page.request, 'settings');
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Account Profile' });
    await form.getByLabel('Full Name').fill('John Smith');
    await form.getByRole('button', { name: 'Save Profile Changes' }).click();
    const banner = page.getByText(SAVED);
    await expect(banner).toBeVisible();
    await expect(banner).toBeHidden({ timeout: 6000 });

    // Notification Settings: the spec's defaults, and a change that survives a reload.
    await expect(page.getByRole('switch', { name: 'Email Notifications' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('switch', { name: 'Access Requests' })).toHaveAttribute('aria-checked', 'true');
    // Only switches that control an e-mail the product sends.
    await expect(page.getByRole('switch')).toHaveCount(2);
    await page.getByRole('switch', { name: 'Access Requests' }).click();
    await expect(banner).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Access Requests' })).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByRole('form', { name: 'Account Profile' }).getByLabel('Full Name')).toHaveValue('John Smith');
    // The plan shown is the account's own, with the way to the plans.
    const subscription = page.locator('[data-slot="subscription-status"]');
    await expect(subscription).toContainText('No plan');
    await expect(subscription).toContainText('Not subscribed');
    await expect(subscription.getByRole('link', { name: 'Upgrade Plan' })).toHaveAttribute('href', '/pricing');
    await page.getByRole('link', { name: 'View Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  });

  test('a password change signs every other session out and keeps this one', async ({ page, browser }) => {
    const { credentials } = await signUpWithToken(page.request, 'password');
    // The same account signed in on another device.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signInViaUi(otherPage, credentials);
    await expect(otherPage.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();

    await page.goto('/settings');
    const form = page.getByRole('form', { name: 'Account Profile' });
    await form.getByLabel('Current Password').fill('wrong-password');
    await form.getByLabel('New Password', { exact: true }).fill('A-new-Password-2026');
    await form.getByLabel('Confirm New Password').fill('A-new-Password-2026');
    await form.getByRole('button', { name: 'Save Profile Changes' }).click();
    await expect(form.getByRole('alert')).toHaveText('Your current password is not correct.');
    await expect(form.getByLabel('New Password', { exact: true })).toHaveValue('A-new-Password-2026');

    await form.getByLabel('Current Password').fill(credentials.password);
    await form.getByRole('button', { name: 'Save Profile Changes' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(page.getByText('Signed out on 1 other device.')).toBeVisible();

    // The other device is signed out at its next request; this one stays signed in.
    await otherPage.goto('/vault');
    await expect(otherPage).toHaveURL(/\/auth$/);
    await page.goto('/vault');
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();
    // Only the new password opens the account now.
    const oldPassword = await page.request.post('/api/auth/sign-in', { data: { email: credentials.email, password: credentials.password } });
    expect(oldPassword.status()).toBe(401);
    const newPassword = await page.request.post('/api/auth/sign-in', { data: { email: credentials.email, password: 'A-new-Password-2026' } });
    expect(newPassword.status()).toBe(200);
    await other.close();
  });

  test('Export Vault Data downloads the whole vault: a ZIP with every original, manifest.json and index.html', async ({ page }) => {
    test.slow();
    const { credentials } = await signUpWithToken(page.request, 'export');
    // Saving a video is part of Pro (the plans table).
    const accessToken = await tokenOnPlan(page.request, credentials, 'pro');
    const letter = await writeLetterViaApi(page.request, accessToken, { title: 'For Sam, at eighteen', content: 'You were the best thing that ever happened to me.' });
    const { body: video } = await saveRecordingViaApi(page.request, accessToken, 'Birthday wishes');
    const pdf = pdfFile('contact-order.pdf', 'Contact order');
    await uploadViaApi(page.request, accessToken, { title: 'Contact order', category: 'Legal Notices or Orders', file: pdf });

    await page.goto('/settings');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Vault Data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^vault_export-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    const names = Object.keys(zip);
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'index.html', 'profile.json']));

    const manifest = JSON.parse(Buffer.from(zip['manifest.json']!).toString('utf8')) as { items: { path: string; type: string; title: string; sha256: string; size: number; recorded_sha256: string | null }[]; mismatches: string[] };
    expect(manifest.mismatches).toEqual([]);
    for (const item of manifest.items) expect({ path: item.path, sha256: sha(zip[item.path]!) }).toEqual({ path: item.path, sha256: item.sha256 });
    const byType = (type: string) => manifest.items.filter((i) => i.type === type);
    expect(byType('letter').map((i) => i.title)).toEqual([letter.title]);
    expect(Buffer.from(zip[byType('letter')[0]!.path]!).toString('utf8')).toContain(letter.content);
    // The originals, byte for byte: the same SHA-256 as what was uploaded, and as the services recorded.
    const [recording] = byType('recording');
    expect(recording).toMatchObject({ title: 'Birthday wishes', sha256: sha(video), recorded_sha256: sha(video), size: video.length });
    const [document] = byType('court-document');
    expect(document).toMatchObject({ title: 'Contact order', sha256: sha(pdf.buffer), recorded_sha256: sha(pdf.buffer) });
    const index = Buffer.from(zip['index.html']!).toString('utf8');
    expect(index).toContain('For Sam, at eighteen');
    expect(index).toContain(`href="${recording!.path}"`);
    expect(index).not.toMatch(/<script|https?:\/\//);
  });
});

test.describe('admin dashboard', () => {
  test('an admin sees the counters and searches users by e-mail or name; a member gets "Access denied"', async ({ page, browser, request }) => {
    const tag = randomBytes(4).toString('hex');
    const adminCredentials = newCredentials('admin');
    const member = await signUpWithToken(page.request, 'member');
    // A member has no way in.
    await page.goto('/admin');
    await expect(page.getByText('Access denied')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    const refused = await page.request.get('/api/admin/users', { headers: { authorization: `Bearer ${member.accessToken}` } });
    expect(refused.status()).toBe(403);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    const signUp = await admin.request.post('/api/auth/sign-up', { data: adminCredentials });
    expect(signUp.status()).toBe(201);
    runOperatorCommand('user:admin', adminCredentials.email);
    // Another account, made apart from the admin's browser (its cookie would replace the admin's session).
    const named = await request.post('/api/auth/sign-up', { data: { email: uniqueEmail(`findme-${tag}`), password: PASSWORD } });
    const { accessToken: namedToken } = (await named.json()) as { accessToken: string };
    await request.patch('/api/me', { headers: { authorization: `Bearer ${namedToken}` }, data: { full_name: `Zelda ${tag.toUpperCase()}` } });

    // The admin flag is in the session from its next refresh: the page load restores it.
    await admin.goto('/admin');
    await expect(admin.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    const counts = admin.getByRole('list', { name: 'User counts' });
    await expect(counts.getByLabel(/^Total Users: \d+$/)).toBeVisible();
    await expect(counts.getByLabel(/^Admins: [1-9]\d*$/)).toBeVisible();
    await expect(counts.getByLabel(/^Pro Users: \d+$/)).toBeVisible();
    await expect(counts.getByLabel(/^Free Users: \d+$/)).toBeVisible();
    await expect(admin.getByRole('img', { name: /^Sign-ups per day/ })).toBeVisible();

    const rows = admin.getByRole('table', { name: 'Users' }).getByRole('row');
    // By name, in another case than it was written.
    await admin.getByLabel('Search users').fill(`zelda ${tag}`);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(`findme-${tag}`);
    // By e-mail.
    await admin.getByLabel('Search users').fill(adminCredentials.email.toUpperCase());
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Admin');
    await admin.getByLabel('Search users').fill(`nobody-${tag}`);
    await expect(admin.getByText('No users match this search.')).toBeVisible();
    await adminContext.close();
  });
});
