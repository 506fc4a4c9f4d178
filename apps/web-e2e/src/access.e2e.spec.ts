import { AccessMessages, VIEWER_EMPTY_TEXTS } from '@lv/contracts';
import { acceptDisclaimer, createKeyViaApi, familyPage, mailsTo, requestAccess, signUpOwner, waitForMail } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { writeLetterViaApi } from './support/letters.js';
import { expect, test } from './support/test.js';

// Family access end to end, in Chromium against the whole stack: a family member asks, the owner
// approves, the key arrives by e-mail, the family member accepts the disclaimer and reads the vault.

test.describe('family access', () => {
  test('request, approve, key e-mailed, redeem with consent, read each tab, clear access', async ({ page, browser, request }) => {
    const owner = await signUpOwner(page, 'access-owner');
    await writeLetterViaApi(page.request, owner.accessToken, { title: 'To Sam, for your tenth birthday', content: 'I think of you every day.' });
    const requester = uniqueEmail('sam');

    const family = await familyPage(browser);
    await family.goto(`/request?owner=${owner.id}`);
    await requestAccess(family, { email: requester, relationship: 'Son', reason: 'I would like to read your letters.', childName: 'Sam' });
    await expect(family.getByRole('status').filter({ hasText: AccessMessages.submitted })).toBeVisible();
    await expect(family.getByLabel('Your Email')).toHaveValue('');

    await page.goto('/access-control');
    await expect(page.getByText('1 Pending')).toBeVisible();
    await page.getByRole('button', { name: /Click to respond/ }).click();
    const details = page.getByRole('dialog', { name: 'Access Request Details' });
    await expect(details.getByText(requester)).toBeVisible();
    await details.getByRole('button', { name: 'Approve Access' }).click();
    const created = page.getByRole('dialog', { name: 'Access Key Created' });
    await expect(created).toContainText(`We've emailed the key to ${requester}`);
    const key = await created.getByLabel('Access key').inputValue();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await created.getByRole('button', { name: 'Close' }).last().click();
    await expect(page.getByText('0 Pending')).toBeVisible();

    const mail = await waitForMail(request, requester);
    expect(mail.text).toContain(key);
    // The key rides in the fragment (issue 29): no server, log or Referer sees it.
    const link = /(http\S+\/access#k=\S+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();

    await family.goto(link!);
    await expect(family.getByLabel('Access key or link')).toHaveValue(key);
    await expect(family).toHaveURL(/\/access\?owner=[0-9a-f-]{36}$/);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    // The view session is kept in this tab only, never in the address.
    await expect(family).toHaveURL(/\/vault\/view$/);
    await expect(family.getByRole('heading', { name: 'Vault (read-only)' })).toBeVisible();
    const session = (await family.evaluate(() => sessionStorage.getItem('lv:view-session')))!;

    const tabs = family.getByRole('tablist', { name: 'Vault sections' });
    await expect(family.getByRole('tabpanel')).toContainText('To Sam, for your tenth birthday');
    await tabs.getByRole('tab', { name: 'Letters' }).click();
    await expect(family.getByRole('tabpanel')).toContainText('To Sam, for your tenth birthday');
    await tabs.getByRole('tab', { name: 'Court Journal' }).click();
    await expect(family.getByRole('tabpanel')).toContainText(VIEWER_EMPTY_TEXTS['court-journal']);
    await tabs.getByRole('tab', { name: 'Who I Am' }).click();
    await expect(family.getByRole('tabpanel')).toContainText(VIEWER_EMPTY_TEXTS['who-i-am']);
    await tabs.getByRole('tab', { name: "If I'm Not There" }).click();
    await expect(family.getByRole('tabpanel')).toContainText(VIEWER_EMPTY_TEXTS['if-im-not-there']);

    // The owner sees who viewed what.
    await page.goto('/access-key');
    await expect(page.getByRole('list', { name: 'View sessions' })).toContainText('Letters');

    await family.getByRole('button', { name: 'Clear access' }).click();
    await expect(family.getByText(AccessMessages.accessCleared)).toBeVisible();
    await expect(family).toHaveURL(/\/vault\/view$/);
    const again = await request.post('/api/view/token', { data: { session } });
    expect(again.status()).toBe(401);
    await family.context().close();
  });

  test('a declined request leaves the list and sends no e-mail', async ({ page, browser, request }) => {
    const owner = await signUpOwner(page, 'decline-owner');
    const requester = uniqueEmail('declined');
    const family = await familyPage(browser);
    await family.goto(`/access?owner=${owner.id}`);
    await requestAccess(family, { email: requester, relationship: 'Cousin', reason: 'Curious.' });
    await expect(family.getByText(AccessMessages.submitted)).toBeVisible();
    await family.context().close();

    await page.goto('/access-control');
    await page.getByRole('button', { name: /Click to respond/ }).click();
    // Sentinel: the decline's own answer, so the decision is committed before the inbox is read.
    const declined = page.waitForResponse((r) => /^\/api\/access\/requests\/[^/]+\/decline$/.test(new URL(r.url()).pathname));
    await page.getByRole('dialog', { name: 'Access Request Details' }).getByRole('button', { name: 'Decline Request' }).click();
    expect((await declined).status()).toBe(200);
    await expect(page.getByText(`No pending requests for ${owner.credentials.email}`)).toBeVisible();
    expect(await mailsTo(request, requester)).toHaveLength(0);
  });

  test('key entry: the spec’s words for an empty, a malformed and an unknown key; no owner, nothing sent', async ({ page }) => {
    await page.goto('/access');
    await expect(page.getByRole('alert').filter({ hasText: AccessMessages.missingOwner })).toBeVisible();
    await page.getByRole('button', { name: 'Open vault' }).click();
    await expect(page.getByText(AccessMessages.keyEmpty)).toBeVisible();
    await page.getByLabel('Access key or link').fill('12345');
    await page.getByRole('button', { name: 'Open vault' }).click();
    await expect(page.getByText(AccessMessages.keyMalformed)).toBeVisible();
    // One unknown key (the address may fail 5 times a minute).
    await page.getByLabel('Access key or link').fill(crypto.randomUUID());
    await page.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(page);
    await expect(page.getByText(AccessMessages.keyInvalid)).toBeVisible();
  });

  test('a second owner never sees the first owner’s requests', async ({ page, browser }) => {
    const first = await signUpOwner(page, 'first-owner');
    const family = await familyPage(browser);
    await family.goto(`/request?owner=${first.id}`);
    await requestAccess(family, { email: uniqueEmail('asks-first'), relationship: 'Daughter', reason: 'Please.' });
    await expect(family.getByText(AccessMessages.submitted)).toBeVisible();
    await family.context().close();

    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    const second = await signUpOwner(other, 'second-owner');
    await other.goto('/access-control');
    await expect(other.getByText(`No pending requests for ${second.credentials.email}`)).toBeVisible();
    await otherContext.close();
    await page.goto('/access-control');
    await expect(page.getByText('1 Pending')).toBeVisible();
  });

  test('a revoked key ends the viewer’s session at once; a letters-only key opens only the letters', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'revoke-owner');
    await writeLetterViaApi(page.request, owner.accessToken, { title: 'Only for Ellie', content: 'Words.' });
    const { key, keyId } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['letters'] });
    const family = await familyPage(browser);
    await family.goto(`/access#k=${key}&owner=${owner.id}`);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    await expect(family.getByRole('tabpanel')).toContainText('Only for Ellie');
    await family.getByRole('tab', { name: 'Timeline' }).click();
    await expect(family.getByRole('tabpanel')).toContainText(AccessMessages.sectionNotShared);

    const revoked = await page.request.post(`/api/access/keys/${keyId}/revoke`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
    expect(revoked.status()).toBe(200);
    await family.reload();
    await expect(family.getByRole('alert')).toContainText(AccessMessages.viewExpired);
    await expect(family.getByRole('button', { name: 'Clear Access / Try Again' })).toBeVisible();
    await family.context().close();
  });
});
