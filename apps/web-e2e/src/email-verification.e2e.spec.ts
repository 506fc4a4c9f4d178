import { EmailVerifyMessages, InactivityMessages, MilestoneMessages, TrusteeMessages } from '@lv/contracts';
import { expect, test, type Page } from './support/test.js';
import { mailsTo, VERIFY_SUBJECT, verifyLinkOf, waitForMail } from './support/access.js';
import { newCredentials, signUpViaUi, uniqueEmail } from './support/auth.js';
import { letterItem, openLetters, signUpWithToken, writeLetterViaApi } from './support/letters.js';
import { expectToast } from './support/ui.js';

// Issues 32 and 29: a new account verifies its address, and until then nothing is e-mailed on its
// behalf. A new owner sees the banner; a key he makes is his to share but is not e-mailed, and the key
// list says why; the trustee form says why invitations wait. He opens the link from the e-mail he was
// sent; the banner goes and his next key is e-mailed. On a laptop and on a phone.

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 412, height: 823 },
] as const;

/** A first load on this two-core machine fetches some forty chunks before the page asks for its data. */
const SLOW_LOAD = 30_000;

/** "Generate Access Key", then Save, on /access-key; returns the form's status after saving. */
async function makeKey(page: Page, name: string, email: string) {
  await page.goto('/access-key');
  const form = page.getByRole('form', { name: 'Generate an access key' });
  await form.getByRole('button', { name: 'Generate Access Key' }).click({ timeout: SLOW_LOAD });
  await expect(form.getByLabel('Access key', { exact: true })).not.toHaveValue('');
  await form.getByLabel('Family member name').fill(name);
  await form.getByLabel('Recipient email').fill(email);
  await form.getByRole('button', { name: 'Save Key' }).click();
  const saved = form.getByRole('status');
  await expect(saved).toContainText('Saved.');
  return saved;
}

test.describe('e-mail verification', () => {
  for (const viewport of VIEWPORTS) {
    test(`a new owner's key is not e-mailed until he verifies his address from the e-mail; then it is (${viewport.name})`, async ({ page, request }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const credentials = await signUpViaUi(page, newCredentials(`verify-${viewport.name}`));
      const banner = page.getByRole('region', { name: EmailVerifyMessages.bannerTitle });
      await expect(banner).toBeVisible();
      await expect(banner).toContainText(EmailVerifyMessages.bannerText(credentials.email));
      await expect(banner.getByRole('button', { name: EmailVerifyMessages.resend })).toBeVisible();

      // Unverified: the key is made (shown once, to share himself), but not e-mailed, and both places say why.
      const withheldTo = uniqueEmail(`withheld-${viewport.name}`);
      const withheld = await makeKey(page, 'Ellie', withheldTo);
      await expect(withheld).toContainText(EmailVerifyMessages.keyNotEmailed);
      await expect(page.getByRole('list', { name: 'Your keys' }).getByRole('listitem', { name: 'Ellie' })).toContainText(EmailVerifyMessages.keyNotEmailed);
      // And the trustee form says why invitations wait.
      await page.goto('/if-im-not-there');
      await expect(page.getByRole('note').filter({ hasText: TrusteeMessages.verifyEmailFirst })).toBeVisible({ timeout: SLOW_LOAD });

      // The link from the e-mail sign-up sent, opened in this browser.
      const mail = await waitForMail(request, credentials.email);
      expect(mail.subject).toBe(VERIFY_SUBJECT);
      await page.goto(verifyLinkOf(mail));
      await expect(page.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeVisible({ timeout: SLOW_LOAD });
      await expect(page).toHaveURL(/\/verify-email$/);
      await page.getByRole('button', { name: 'Verify My Email' }).click();
      await expect(page.getByText(EmailVerifyMessages.verified)).toBeVisible();
      await page.getByRole('link', { name: 'Go to My Vault' }).click();
      await expect(page).toHaveURL(/\/vault$/);
      await expect(page.getByRole('heading', { level: 1, name: /^Welcome Back/ })).toBeVisible();
      await expect(banner).toHaveCount(0);

      // Verified: the next key is e-mailed.
      const mailedTo = uniqueEmail(`mailed-${viewport.name}`);
      const mailed = await makeKey(page, 'Sam', mailedTo);
      await expect(mailed).toContainText(`We'll email the key to ${mailedTo}`);
      await waitForMail(request, mailedTo);
      // The key made before never had an e-mail to send: none went, and none is on its way.
      expect(await mailsTo(request, withheldTo)).toHaveLength(0);
    });
  }

  test('an unverified owner cannot seal a letter or turn the inactivity watch on: each says why beside it and shows the refusal; verified, both work (phone)', async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 412, height: 823 });
    const { credentials, accessToken } = await signUpWithToken(page.request, 'verify-first');
    await writeLetterViaApi(page.request, accessToken, { title: 'For Ellie at 18', content: 'Happy birthday, my girl.' });

    const sealFor = async (expected: string) => {
      await openLetters(page);
      await letterItem(page, 'For Ellie at 18').getByRole('button', { name: 'Edit' }).click();
      const editor = page.getByRole('dialog', { name: 'Edit Letter' });
      const seal = editor.getByRole('region', { name: 'Seal until a date' });
      await seal.getByRole('checkbox', { name: 'Seal until a date' }).check();
      await seal.getByLabel('Open on').fill(`${new Date().getFullYear() + 2}-05-14`);
      await seal.getByLabel('Recipient’s name').fill('Ellie');
      await seal.getByLabel('Recipient’s email').fill(uniqueEmail('ellie'));
      await seal.getByRole('button', { name: 'Seal Letter' }).click();
      await expectToast(page, expected);
      return { editor, seal };
    };
    const watchForm = () => page.getByRole('form', { name: 'If I stop signing in' });
    const savePeriod = async () => {
      await page.goto('/if-im-not-there');
      await watchForm().getByLabel('Inactivity period').selectOption('30', { timeout: SLOW_LOAD });
      await watchForm().getByRole('button', { name: 'Save inactivity period' }).click();
    };

    // Unverified: the seal says why before anything is sent, and the server's refusal is shown in the same words.
    const refused = await sealFor(MilestoneMessages.verifyEmailFirst);
    await expect(refused.seal.getByRole('note')).toHaveText(MilestoneMessages.verifyEmailFirst);
    await refused.editor.getByRole('button', { name: 'Cancel' }).click();
    await expect(letterItem(page, 'For Ellie at 18')).not.toContainText('Sealed until');
    await savePeriod();
    await expect(watchForm().getByRole('note')).toHaveText(InactivityMessages.verifyEmailFirst);
    await expectToast(page, 'Could not save the inactivity period', InactivityMessages.verifyEmailFirst);
    await expect(watchForm().getByRole('status', { name: 'Inactivity watch status' })).toContainText('Off.');

    // The link from the e-mail, opened in this browser: both go through, and the notes are gone.
    await page.goto(verifyLinkOf(await waitForMail(request, credentials.email)));
    await page.getByRole('button', { name: 'Verify My Email' }).click({ timeout: SLOW_LOAD });
    await expect(page.getByText(EmailVerifyMessages.verified)).toBeVisible();
    await savePeriod();
    await expectToast(page, 'Inactivity period saved');
    await expect(watchForm().getByRole('note')).toHaveCount(0);
    const sealed = await sealFor(MilestoneMessages.sealed);
    await expect(sealed.seal.getByText(/^Sealed until .* for Ellie$/)).toBeVisible();
  });
});
