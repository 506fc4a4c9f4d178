import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKeyViaApi, openVaultTab, signUpOwner, waitForMail } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { writeLetterViaApi } from './support/letters.js';
import { stackUnderTest } from './support/media.js';
import { expect, test } from './support/test.js';

// Issue 29: an access key and a view session's secret never reach a log. The stack under test writes
// every process's output (gateway, the seven services, the worker, the mail catcher) to one file; a
// whole viewer walk (the e-mailed link, the old ?k= link, every tab, a reload) must leave no trace of
// either there. A marker request made last, and waited for in the file, proves the walk's lines are in.

const VIEW_SESSION_STORAGE = 'lv:view-session';
const stackLog = () => readFileSync(join(stackUnderTest().dir, 'stack.log'), 'utf8');

test('a whole viewer walk leaves neither the key nor the view session secret in any process’s log', async ({ page, browser }) => {
  const owner = await signUpOwner(page, 'log-secrets');
  await writeLetterViaApi(page.request, owner.accessToken, { title: 'For the log walk', content: 'Words that stay in the vault.' });
  const recipient = uniqueEmail('log-walk');
  const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: recipient });
  await waitForMail(page.request, recipient);

  const family = await openVaultTab(browser, owner, key, 'Letters');
  await family.getByRole('button', { name: /^For the log walk/ }).click();
  await expect(family.getByText('Words that stay in the vault.')).toBeVisible();
  for (const tab of ['Timeline', 'Court Journal', 'Who I Am', "If I'm Not There"]) {
    await family.getByRole('tablist', { name: 'Vault sections' }).getByRole('tab', { name: tab }).click();
    await expect(family.getByRole('tabpanel', { name: tab })).toBeVisible();
  }
  await family.reload();
  await expect(family.getByRole('tablist', { name: 'Vault sections' })).toBeVisible();
  const secret = await family.evaluate((name) => sessionStorage.getItem(name), VIEW_SESSION_STORAGE);
  expect(secret).toBeTruthy();
  // The address keeps neither: the key rides in the fragment and is dropped once read.
  expect(family.url()).not.toContain(key);
  expect(family.url()).not.toContain(secret!);
  // A key link of the old shape, with the key in the query string, still reaches the server.
  await family.request.get(`/access?k=${key}&owner=${owner.id}`);
  await family.request.get(`/vault/view?session=${secret}`);

  const marker = `log-walk-done-${randomUUID()}`;
  await family.request.get(`/${marker}`);
  await expect.poll(() => stackLog().includes(marker), { message: 'the marker request in the stack log' }).toBe(true);
  const log = stackLog();
  expect(log.split(key).length - 1).toBe(0);
  expect(log.split(secret!).length - 1).toBe(0);
  await family.context().close();
});
