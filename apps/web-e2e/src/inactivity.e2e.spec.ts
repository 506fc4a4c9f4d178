import { expect, test } from './support/test.js';
import { familyPage, mailsTo, signUpOwner, waitForMail } from './support/access.js';
import { expectToast } from './support/ui.js';

// The inactivity trigger of If I'm Not There: the owner's watch saved in his vault, and the
// "I'm still here" link of its warning e-mail (a test warning, sent through notifications and SMTP).

test.describe('the inactivity watch', () => {
  test('is off by default; a period is saved, kept after a reload, paused and resumed', async ({ page }) => {
    await signUpOwner(page, 'inactive');
    await page.goto('/if-im-not-there');
    const watch = page.getByRole('form', { name: 'If I stop signing in' });
    const status = watch.getByRole('status', { name: 'Inactivity watch status' });
    await expect(status).toContainText('Off.');
    await watch.getByLabel('Inactivity period').selectOption('60');
    await watch.getByRole('button', { name: 'Save inactivity period' }).click();
    await expectToast(page, 'Inactivity period saved');
    await expect(status).toContainText(/^On\. Counting from .*: warnings by e-mail on .* and .*; delivery starts on .* unless you sign in or check in\.$/);

    await page.reload();
    await expect(watch.getByLabel('Inactivity period')).toHaveValue('60');
    await watch.getByRole('button', { name: 'Pause watch' }).click();
    await expectToast(page, 'Inactivity watch paused');
    await expect(watch.getByText('Paused', { exact: true })).toBeVisible();
    await page.reload();
    await expect(status).toHaveText('Paused. No warning is sent and no delivery starts until you resume the watch.');
    await watch.getByRole('button', { name: 'Resume watch' }).click();
    await expect(status).toContainText('On.');
    await expect(watch.getByText('Paused', { exact: true })).toHaveCount(0);
  });

  test('a warning’s link checks the owner in when he presses I’m still here, once; a forged or cut-short link is refused in plain words', async ({ page, browser, request }) => {
    const owner = await signUpOwner(page, 'still-here');
    await page.goto('/if-im-not-there');
    const watch = page.getByRole('form', { name: 'If I stop signing in' });
    await watch.getByLabel('Inactivity period').selectOption('30');
    await watch.getByRole('button', { name: 'Save inactivity period' }).click();
    await expectToast(page, 'Inactivity period saved');
    await watch.getByRole('button', { name: 'Send a test warning' }).click();
    await expectToast(page, 'Test warning sent');

    const mail = await waitForMail(request, owner.credentials.email);
    expect(mail.subject).toBe('Legacy Vault: a test of your inactivity warning');
    const link = new URL(/https?:\/\/\S+\/still-here\?\S+/.exec(mail.text)![0]);
    const path = link.pathname + link.search;

    // Opened in a browser with no session (the owner's phone, say): nothing happens until he presses the button.
    const phone = await familyPage(browser);
    await phone.goto(path);
    await expect(phone.getByRole('heading', { level: 1, name: 'Are you still here?' })).toBeVisible();
    await phone.getByRole('button', { name: "I'm still here" }).click();
    await expect(phone.getByRole('heading', { level: 1, name: 'Thank you. You are checked in.' })).toBeVisible();
    await expect(phone.getByRole('status', { name: 'Check-in' })).toContainText('the inactivity watch now counts from today');

    // The same link again: used.
    await phone.goto(path);
    await phone.getByRole('button', { name: "I'm still here" }).click();
    await expect(phone.getByRole('alert')).toHaveText('This check-in link is invalid, expired, or already used. Sign in to check in instead.');
    // Forged (another signature) and cut short (no signature).
    const forged = new URL(link);
    const sig = link.searchParams.get('sig')!;
    forged.searchParams.set('sig', `${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`);
    await phone.goto(forged.pathname + forged.search);
    await phone.getByRole('button', { name: "I'm still here" }).click();
    await expect(phone.getByRole('alert')).toHaveText('This check-in link is invalid, expired, or already used. Sign in to check in instead.');
    const cut = new URL(link);
    cut.searchParams.delete('sig');
    await phone.goto(cut.pathname + cut.search);
    await expect(phone.getByRole('alert')).toHaveText('This check-in link is invalid, expired, or already used. Sign in to check in instead.');
    await expect(phone.getByRole('button', { name: "I'm still here" })).toHaveCount(0);
    await phone.context().close();

    // One e-mail, for one test.
    expect(await mailsTo(request, owner.credentials.email)).toHaveLength(1);
  });
});
