import { AccountDeletionMessages, ErrorCodes } from '@lv/contracts';
import { mailsTo } from './support/access.js';
import { newCredentials, signedInOnVault } from './support/auth.js';
import { expect, test } from './support/test.js';

// Issue 32, "Delete my account": Settings' danger zone -> DELETE typed in the dialog -> the date on the
// page and an e-mail at the dev SMTP catcher -> its "Keep my account" link, opened on another device,
// keeps the account only when its button is pressed, and works once. The erasure at the due time is
// proven by apps/identity/test/account-deletion.int.spec.ts (its time cannot move in a running stack).

const SUBJECT = 'Legacy Vault: your account will be deleted';

test.describe('deleting an account', () => {
  test('Settings schedules the deletion with DELETE typed; the e-mailed link keeps the account, once', async ({ page, browser, request }) => {
    const credentials = await signedInOnVault(page, newCredentials('leaving'));
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Type DELETE to confirm').fill('remove it');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(AccountDeletionMessages.confirmationWrong);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/^Your account will be deleted on /)).toBeVisible();
    await expect(page.getByText(/^Your account is scheduled for deletion on /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Keep my account' })).toBeVisible();

    // The e-mail: the date and the link.
    await expect.poll(async () => (await mailsTo(request, credentials.email)).filter((m) => m.subject === SUBJECT).length, { timeout: 30_000, message: 'the deletion e-mail' }).toBe(1);
    const mail = (await mailsTo(request, credentials.email)).find((m) => m.subject === SUBJECT)!;
    expect(mail.text).toContain('It will be deleted on');
    const href = /(https?:\/\/\S+\/keep-account#\S+)/.exec(mail.text)?.[1];
    expect(href, mail.text).toBeTruthy();
    const link = new URL(href!);
    const linkPath = `${link.pathname}${link.hash}`;

    // Opened on a phone, signed out: nothing happens until the button.
    const phone = await (await browser.newContext()).newPage();
    await phone.goto(linkPath);
    await expect(phone.getByRole('heading', { level: 1, name: 'Keep my account' })).toBeVisible();
    await expect(phone).toHaveURL(/\/keep-account$/);
    await page.reload();
    await expect(page.getByText(/^Your account is scheduled for deletion on /)).toBeVisible();
    await phone.getByRole('button', { name: 'Keep My Account' }).click();
    await expect(phone.getByText(AccountDeletionMessages.kept)).toBeVisible();

    await page.reload();
    await expect(page.getByRole('button', { name: 'Delete my account' })).toBeVisible();
    await expect(page.getByText(/scheduled for deletion/)).toHaveCount(0);

    // The link again: refused with the one message every bad link gets.
    const again = await phone.context().newPage();
    await again.goto(linkPath);
    await again.getByRole('button', { name: 'Keep My Account' }).click();
    await expect(again.getByRole('alert')).toHaveText(ErrorCodes.ACCOUNT_DELETION_LINK_INVALID.message);
    await phone.context().close();
  });

  test('"Keep my account" in Settings cancels a scheduled deletion', async ({ page }) => {
    await signedInOnVault(page, newCredentials('staying'));
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Type DELETE to confirm').fill('delete');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.getByText(/^Your account is scheduled for deletion on /)).toBeVisible();
    await page.getByRole('button', { name: 'Keep my account' }).click();
    await expect(page.getByText(AccountDeletionMessages.kept)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete my account' })).toBeVisible();
  });
});
