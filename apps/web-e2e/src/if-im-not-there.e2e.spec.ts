import { expect, test } from './support/test.js';
import { acceptDisclaimer, createKeyViaApi, familyPage, mailsTo, openVaultTab, signUpOwner, waitForMail } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { runOperatorCommand, setTier } from './support/media.js';
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
    await family.goto(new URL(link!).pathname + new URL(link!).search + new URL(link!).hash);
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
    const family = await openVaultTab(browser, owner, key, "If I'm Not There");
    await expect(family.getByRole('tabpanel')).toContainText('Final Thoughts');
    // The owner allows a preview (the default): the key holder reads the final thoughts themselves.
    await expect(family.getByRole('tabpanel')).toContainText('Look after each other.');

    await form.getByRole('checkbox', { name: 'Allow preview' }).uncheck();
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await expectToast(page, 'Delivery settings saved');
    await family.reload();
    await family.getByRole('tablist', { name: 'Vault sections' }).getByRole('tab', { name: "If I'm Not There" }).click();
    await expect(family.getByRole('tabpanel')).toContainText('No entries yet.');
    await family.context().close();
  });

  test('final messages: the plan choice for a plan without them; on Pro, recorded, paused, resumed, stopped and saved in the vault; a second save of the same recording is a duplicate', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'gone-final');
    await page.goto('/if-im-not-there');
    const section = page.getByRole('region', { name: 'Final Messages' });
    await section.getByRole('button', { name: 'Record Final Message' }).click();
    const plans = page.getByRole('dialog', { name: 'Choose your plan' });
    await expect(plans).toContainText('Final messages are part of the Pro and Legacy plans.');
    await expect(plans.getByRole('link', { name: 'Choose Pro' })).toHaveAttribute('href', '/checkout?plan=vault-pro');
    await plans.getByRole('button', { name: 'Close' }).click();
    await expect(section.getByTestId('final-recorder-status')).toHaveText('Ready');

    setTier(owner.credentials.email, 'pro');
    // A token that carries the new plan, for the API calls below; the page load then refreshes the session itself.
    const refreshed = await page.request.post('/api/auth/refresh');
    expect(refreshed.status()).toBe(200);
    const { accessToken } = (await refreshed.json()) as { accessToken: string };
    await page.goto('/gone');
    await section.getByRole('group', { name: 'Final message type' }).getByRole('button', { name: 'Audio' }).click();
    await section.getByRole('button', { name: 'Record Final Message' }).click();
    const status = section.getByTestId('final-recorder-status');
    await expect(status).toHaveText('Recording');
    await section.getByRole('button', { name: 'Pause' }).click();
    await expect(status).toHaveText('Paused');
    await section.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toHaveText('Recording');
    await expect(section.getByLabel('Recording time')).toHaveText('00:02', { timeout: 10_000 });
    await section.getByRole('button', { name: 'Stop' }).click();
    await expect(status).toHaveText('Stopped');
    await expect(section.getByLabel('Final message preview')).toBeVisible();
    await section.getByRole('button', { name: 'Save Final Message' }).click();
    await expectToast(page, 'Missing Info', 'Add a title.');
    await section.getByLabel('Final message title *').fill('For when you are grown');
    await section.getByRole('button', { name: 'Save Final Message' }).click();
    await expectToast(page, 'Final message saved');
    await expect(status).toHaveText('Saved');

    // Kept in the vault, not in this browser: it is there after a reload, and playable.
    await page.reload();
    const saved = section.getByRole('list', { name: 'Saved final messages' });
    await expect(saved.getByRole('listitem')).toHaveCount(1);
    await expect(saved).toContainText('For when you are grown');
    const list = await page.request.get('/api/media/recordings?collection=final-messages', { headers: { authorization: `Bearer ${accessToken}` } });
    const [message] = (await list.json()) as { id: string; blob_hash: string; size: number }[];
    // The same recording again (same SHA-256) is refused before a byte is sent, in the spec's words.
    const again = await page.request.post('/api/media/uploads', {
      headers: { authorization: `Bearer ${accessToken}` }, data: { type: 'audio', title: 'Again', sha256: message!.blob_hash, size: message!.size, collection: 'final-messages' },
    });
    expect(again.status()).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'DUPLICATE_MEDIA', message: 'Duplicate: Recording already exists.' });
    // It is not on the timeline or under Your Recordings.
    const vault = await page.request.get('/api/media/recordings', { headers: { authorization: `Bearer ${accessToken}` } });
    expect(await vault.json()).toEqual([]);

    // A key holder of "If I'm Not There" sees its title, never the recording.
    const { key } = await createKeyViaApi(page.request, { ...owner, accessToken }, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['if-im-not-there'] });
    const family = await openVaultTab(browser, owner, key, "If I'm Not There");
    await expect(family.getByRole('tabpanel')).toContainText('For when you are grown');
    await family.context().close();

    await saved.getByRole('button', { name: 'Delete For when you are grown' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this final message?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(section.getByText('No final messages yet.')).toBeVisible();
  });

  test('a reported absence delivers the vault immediately: the contact gets a key that opens it, the trustee is told it started and that it happened, once each', async ({ page, browser, request }) => {
    const owner = await signUpOwner(page, 'gone-deliver');
    await page.goto('/if-im-not-there');
    const contactEmail = uniqueEmail('ellie');
    const contacts = page.getByRole('form', { name: 'Add Emergency Contact' });
    await contacts.getByLabel('Name').fill('Ellie');
    await contacts.getByLabel('Email').fill(contactEmail);
    await contacts.getByRole('button', { name: 'Add Contact' }).click();
    await expectToast(page, 'Emergency contact added');
    const trusteeEmail = uniqueEmail('ruth');
    const form = page.getByRole('form', { name: 'Delivery Settings' });
    await form.getByRole('radio', { name: 'Immediately' }).check();
    await form.getByLabel('Trustee Name').fill('Ruth Okafor');
    await form.getByLabel('Trustee Email').fill(trusteeEmail);
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await expectToast(page, 'Delivery settings saved');

    // The trustee's report, confirmed by an operator.
    const started = JSON.parse(runOperatorCommand('delivery:report', owner.credentials.email)) as { status: string; release_id: string | null; triggered_at: string | null };
    expect(started.release_id).toBeTruthy();
    const key = await waitForMail(request, contactEmail);
    await expect.poll(async () => (await mailsTo(request, trusteeEmail)).map((m) => m.subject).sort(), { timeout: 30_000 }).toEqual([
      `${owner.credentials.email}'s Legacy Vault has been delivered`,
      `${owner.credentials.email}'s Legacy Vault: delivery has started`,
    ]);
    const notices = await mailsTo(request, trusteeEmail);
    expect(notices.every((m) => m.text.startsWith('Dear Ruth Okafor,'))).toBe(true);
    // The notices carry no key and no link into the vault.
    for (const notice of notices) expect(notice.text).not.toMatch(/access\?k=|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Delivery Settings' })).toContainText('delivered');

    const link = /https?:\/\/\S+/.exec(key.text)?.[0];
    const family = await familyPage(browser);
    await family.goto(new URL(link!).pathname + new URL(link!).search + new URL(link!).hash);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    await expect(family.getByRole('tablist', { name: 'Vault sections' })).toBeVisible();
    await family.context().close();
    // A second report changes nothing: the same release (no new delivery, so nothing to notify), no second notice.
    const again = JSON.parse(runOperatorCommand('delivery:report', owner.credentials.email)) as typeof started;
    expect({ release_id: again.release_id, triggered_at: again.triggered_at }).toEqual({ release_id: started.release_id, triggered_at: started.triggered_at });
    expect(await mailsTo(request, trusteeEmail)).toHaveLength(2);
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
    for (const name of ['Delivery settings load', 'Emergency contacts ready', 'Delivery timing queue reachable', 'Delivery worker running', 'Key e-mail worker running', 'Inactivity workers running', 'Never released early', 'Released exactly once']) {
      await expect(page.getByRole('listitem', { name: `${name}: passed` })).toBeVisible();
    }
    await expect(page.getByRole('status').filter({ hasText: 'passed' })).toHaveText('8 of 8 passed');
  });
});
