import { expect, test } from './support/test.js';
import { acceptDisclaimer, createKeyViaApi, familyPage, signUpOwner, waitForMail } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { expectToast } from './support/ui.js';

// If I'm Not There (/if-im-not-there and /gone, access-family spec "If I'm Not There"): emergency
// contacts with their access key toggle, and the delivery settings, all kept in the owner's vault.

test.describe("If I'm Not There", () => {
  test('contacts: the spec’s words without a name or email; a key toggled on is e-mailed and opens the vault; off, it stops', async ({ page, browser, request }) => {
    await signUpOwner(page, 'gone');
    await page.goto('/vault');
    await page.getByRole('region', { name: 'More in your vault' }).getByRole('link', { name: "If I'm Not Here" }).click();
    await expect(page).toHaveURL(/\/if-im-not-there$/);
    await expect(page.getByRole('heading', { level: 1, name: "If I'm Not There" })).toBeVisible();

    const form = page.getByRole('form', { name: 'Add Emergency Contact' });
    await form.getByLabel('Name').fill('Grace Hale');
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expectToast(page, 'Please provide name and email.');

    const email = uniqueEmail('grace');
    await form.getByLabel('Relationship').selectOption('My Sibling');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Phone (optional)').fill('+44 7700 900123');
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expectToast(page, 'Emergency contact added');
    const grace = page.getByRole('listitem', { name: 'Grace Hale' });
    await expect(grace).toContainText(`My Sibling · ${email} · +44 7700 900123`);

    await page.reload();
    const toggle = page.getByRole('switch', { name: 'Access key for Grace Hale' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expectToast(page, `Access key sent to ${email}, valid for 7 days.`);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');

    // The e-mail carries a link that opens the vault.
    const mail = await waitForMail(request, email);
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    const family = await familyPage(browser);
    await family.goto(new URL(link!).pathname + new URL(link!).search);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    await expect(family.getByRole('tablist', { name: 'Vault sections' })).toBeVisible();

    await toggle.click();
    await expectToast(page, 'Access key revoked');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await family.reload();
    await expect(family.getByRole('alert')).toContainText('This access has expired or is invalid.');
    await family.context().close();
  });

  test('delivery settings: the spec’s defaults, saved in the vault; the final thoughts reach a key holder’s tab only while a preview is allowed', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'gone-settings');
    await page.goto('/gone');
    const form = page.getByRole('form', { name: 'Delivery Settings' });
    await expect(form.getByRole('radio', { name: 'After 30 days' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Require legal verification' })).not.toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Allow preview' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: 'Notify trustee' })).toBeChecked();

    await form.getByRole('radio', { name: 'Immediately' }).check();
    await form.getByLabel('Trustee Name').fill('Ruth Okafor');
    await form.getByLabel('Trustee Email').fill('not an email');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await expectToast(page, 'Failed to save settings.', 'Please enter a valid email address.');
    await form.getByLabel('Trustee Email').fill(uniqueEmail('ruth'));
    await form.getByLabel('Final Thoughts').fill('Look after each other.');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await expectToast(page, 'Delivery settings saved');

    await page.reload();
    await expect(form.getByRole('radio', { name: 'Immediately' })).toBeChecked();
    await expect(form.getByLabel('Final Thoughts')).toHaveValue('Look after each other.');
    await expect(page.getByRole('region', { name: 'Your Legacy' })).toContainText('Immediately');

    const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['if-im-not-there'] });
    const family = await familyPage(browser);
    await family.goto(`/access?k=${key}&owner=${owner.id}`);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    await family.getByRole('tablist', { name: 'Vault sections' }).getByRole('tab', { name: "If I'm Not There" }).click();
    await expect(family.getByRole('tabpanel')).toContainText('Final Thoughts');
    await expect(family.getByRole('tabpanel')).not.toContainText('Look after each other.');

    await form.getByRole('checkbox', { name: 'Allow preview' }).uncheck();
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await expectToast(page, 'Delivery settings saved');
    await family.reload();
    await family.getByRole('tablist', { name: 'Vault sections' }).getByRole('tab', { name: "If I'm Not There" }).click();
    await expect(family.getByRole('tabpanel')).toContainText('No entries yet.');
    await family.context().close();
  });

  test('/test-vault-delivery runs the pipeline’s checks on the running services: each passes once a contact is there', async ({ page }) => {
    await signUpOwner(page, 'gone-test');
    await page.goto('/if-im-not-there');
    await page.getByRole('link', { name: 'Test your delivery settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Vault Delivery Settings Test' })).toBeVisible();
    await page.getByRole('button', { name: 'Run Integration Tests' }).click();
    await expect(page.getByRole('listitem', { name: 'Emergency contacts ready: failed' })).toBeVisible();

    await page.goto('/if-im-not-there');
    const form = page.getByRole('form', { name: 'Add Emergency Contact' });
    await form.getByLabel('Name').fill('Grace Hale');
    await form.getByLabel('Email').fill(uniqueEmail('grace'));
    await form.getByRole('button', { name: 'Add Contact' }).click();
    await expectToast(page, 'Emergency contact added');
    await page.goto('/test-vault-delivery');
    await page.getByRole('button', { name: 'Run Integration Tests' }).click();
    for (const name of ['Delivery settings load', 'Emergency contacts ready', 'Delivery timing queue reachable', 'Delivery worker running', 'Key e-mail worker running', 'Never released early', 'Released exactly once']) {
      await expect(page.getByRole('listitem', { name: `${name}: passed` })).toBeVisible();
    }
    await expect(page.getByRole('status').filter({ hasText: 'passed' })).toHaveText('7 of 7 passed');
  });
});
