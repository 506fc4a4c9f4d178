import { TrusteeMessages } from '@lv/contracts';
import { expect, test, type APIRequestContext, type Page } from './support/test.js';
import { familyPage, mailsTo, signUpOwner } from './support/access.js';
import { uniqueEmail } from './support/auth.js';

// Issue 31: a trustee's report reaches the owner. The owner names a trustee on /if-im-not-there; the
// trustee accepts from the e-mailed invitation, asks for their link again and reports from /trustee.
// The owner is e-mailed at once, sees the banner and the report history, and answers "I'm still here":
// the report is withdrawn (the history says how) and the trustee is told, once. On a laptop and on a
// phone. The veto window here is the default 72 hours, so no reminder is due during the test.

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 412, height: 823 },
] as const;

const SLOW_LOAD = 30_000;

/** The link in an e-mail, as the path and query to open on this stack. */
const pathOf = (text: string) => {
  const url = new URL(/https?:\/\/\S+\/trustee\?\S+/.exec(text)![0]);
  return `${url.pathname}${url.search}`;
};
const mailCount = (request: APIRequestContext, address: string, count: number, what: string) =>
  expect.poll(async () => (await mailsTo(request, address)).length, { timeout: 30_000, message: what }).toBe(count);

test.describe('trustee reports', () => {
  for (const viewport of VIEWPORTS) {
    test(`a trustee reports; the owner is e-mailed, sees the banner and the history, and "I'm still here" withdraws it (${viewport.name})`, async ({ page, browser, request }) => {
      // Three browsers' worth of page loads and five e-mails through the queues.
      test.setTimeout(180_000);
      const owner = await signUpOwner(page, `reported-${viewport.name}`);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto('/if-im-not-there');
      // A first load on this two-core machine fetches some forty chunks before the page asks for its data.
      await expect(page.getByRole('region', { name: 'Trustees' }).getByText('No trustee has reported anything.')).toBeVisible({ timeout: SLOW_LOAD });

      const trusteeEmail = uniqueEmail(`ruth-${viewport.name}`);
      const form = page.getByRole('form', { name: 'Add Trustee' });
      await form.getByLabel('Trustee name').fill('Ruth Hale');
      await form.getByLabel('Trustee relationship').selectOption('My Sibling');
      await form.getByLabel('Trustee email').fill(trusteeEmail);
      await form.getByRole('button', { name: 'Invite Trustee' }).click();
      await mailCount(request, trusteeEmail, 1, 'the invitation');

      // The trustee, on their own device: accept, ask for the link again, report.
      const trustee: Page = await familyPage(browser);
      await trustee.setViewportSize({ width: viewport.width, height: viewport.height });
      await trustee.goto(pathOf((await mailsTo(request, trusteeEmail))[0]!.text));
      await trustee.getByRole('button', { name: 'Accept the role' }).click({ timeout: SLOW_LOAD });
      await expect(trustee.getByRole('status', { name: 'Your role' })).toContainText('You are now a trustee.');
      await trustee.goto('/trustee');
      const ask = trustee.getByRole('form', { name: 'Send me my trustee link' });
      await expect(ask).toBeVisible({ timeout: SLOW_LOAD });
      await ask.getByLabel('Your email').fill(trusteeEmail);
      await ask.getByRole('button', { name: 'Send me my trustee link' }).click();
      // The page's answer first: a refusal or a lost tap is named here, not as a missing e-mail.
      await expect(ask.getByRole('status')).toHaveText(TrusteeMessages.linkRequested);
      await mailCount(request, trusteeEmail, 2, 'the trustee link');
      await trustee.goto(pathOf((await mailsTo(request, trusteeEmail))[1]!.text));
      const report = trustee.getByRole('form', { name: 'Report' });
      await expect(report).toBeVisible({ timeout: SLOW_LOAD });
      await report.getByLabel('The owner is incapacitated (e.g. in hospital)').check();
      await report.getByLabel('A note (optional)').fill('Admitted on Monday.');
      await report.getByRole('button', { name: 'Send the report' }).click();
      await expect(trustee.getByRole('status', { name: 'Your report' })).toContainText('The owner has been told');

      // The owner's e-mail, at once: who reported what, and where to answer.
      await mailCount(request, owner.credentials.email, 1, "the owner's report e-mail");
      const told = (await mailsTo(request, owner.credentials.email))[0]!;
      expect(told.subject).toBe('Legacy Vault: Ruth Hale reported that you are incapacitated (e.g. in hospital)');
      expect(told.text).toContain('Their note: Admitted on Monday.');
      expect(told.text).toMatch(/https?:\/\/\S+\/if-im-not-there/);

      // The banner and the history on /if-im-not-there.
      await page.goto('/if-im-not-there');
      const banner = page.getByRole('alert', { name: 'Trustee report' });
      await expect(banner).toContainText('Ruth Hale reported that you are incapacitated (e.g. in hospital).', { timeout: SLOW_LOAD });
      await expect(banner).toContainText('Their note: Admitted on Monday.');
      const reports = page.getByRole('list', { name: 'Report history' });
      await expect(reports.getByRole('listitem')).toHaveCount(1);
      await expect(reports).toContainText('Ruth Hale reported that you are incapacitated (e.g. in hospital), on');
      await expect(reports).toContainText('Open: nothing is released before');

      await banner.getByRole('button', { name: "I'm still here" }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Report withdrawn. Nothing will be released.' })).toBeVisible();
      await expect(reports).toContainText('Withdrawn: you answered "I\'m still here"');
      await page.reload();
      await expect(page.getByRole('list', { name: 'Report history' }).getByRole('listitem')).toHaveCount(1, { timeout: SLOW_LOAD });
      await expect(page.getByRole('alert', { name: 'Trustee report' })).toHaveCount(0);

      // The reporter is told, once, and nothing more goes to the owner.
      await mailCount(request, trusteeEmail, 3, 'the withdrawn notice');
      const withdrawn = (await mailsTo(request, trusteeEmail))[2]!;
      expect(withdrawn.subject).toMatch(/^Your report about .+ has been withdrawn$/);
      expect(withdrawn.text).not.toContain('Admitted on Monday.');
      expect(await mailsTo(request, owner.credentials.email)).toHaveLength(1);
      await trustee.context().close();
    });
  }
});
