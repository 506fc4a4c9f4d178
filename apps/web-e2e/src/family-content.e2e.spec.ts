import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AccessMessages, KeyStatusMessages, RequestLinkMessages } from '@lv/contracts';
import { acceptDisclaimer, createKeyViaApi, familyPage, requestAccess, signUpOwner, waitForMail, type Owner } from './support/access.js';
import { uniqueEmail } from './support/auth.js';
import { pdfFile, uploadViaApi } from './support/court.js';
import { writeLetterViaApi } from './support/letters.js';
import { readyState, recordClip, setTier, titleField } from './support/media.js';
import { expect, test, type Page } from './support/test.js';
import { expectToast, openSideMenu } from './support/ui.js';

// Issue 28, end to end against the whole stack: the owner shares his request link, a family member
// asks from it, the owner is e-mailed and approves, and the family member opens the key e-mail's link
// and reads, plays, previews what was left for them, on a phone and on a laptop. A letters-only key gets nothing else, by the page or by the API; a revoked key stops playback at the next Range request.

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The parts of an HTMLMediaElement the spec drives (the e2e project compiles without the DOM library). */
interface MediaElement {
  muted: boolean;
  currentTime: number;
  readonly seeking: boolean;
  readonly currentSrc: string;
  play(): Promise<void>;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical findings on the page as it stands. The script is evaluated over the
 * DevTools protocol, which the page's CSP does not govern, so the page keeps its real policy.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const page = (globalThis as unknown as { document: unknown }).document;
    return (await axe.run(page, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** The page fits its width (no sideways scrolling), has one main landmark, and axe finds nothing serious. */
async function expectReadableAndAccessible(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(overflow, `${where}: sideways scrolling`).toBeLessThanOrEqual(0);
  await expect(page.getByRole('main'), `${where}: one <main>`).toHaveCount(1);
  expect(await seriousViolations(page), `${where}: axe`).toEqual([]);
}

/** The owner's vault with one of each: a recorded video, a letter, a court document (PDF), his Who I Am words. */
async function fillVault(page: Page, owner: Owner): Promise<{ recording: string; letter: { title: string; content: string }; document: string }> {
  setTier(owner.credentials.email, 'pro');
  const recording = `For Sam, on his first day at school ${Date.now()}`;
  await page.goto('/record');
  await recordClip(page, 2);
  await titleField(page).fill(recording);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectToast(page, 'Recording Saved', 'Successfully uploaded.');

  const letter = { title: 'To Sam, for your tenth birthday', content: 'I think of you every day.\n\nI kept every drawing you sent me.' };
  await writeLetterViaApi(page.request, owner.accessToken, letter);
  const document = `Contact order ${Date.now()}`;
  await uploadViaApi(page.request, owner.accessToken, { title: document, category: 'Custody', file: pdfFile('contact-order.pdf', 'Contact order') });
  const saved = await page.request.put('/api/who-i-am', {
    data: { about_me: 'I am a carpenter who loves the sea.', core_values: ['Patience', 'Honesty'] },
    headers: { authorization: `Bearer ${owner.accessToken}` },
  });
  expect(saved.status()).toBe(200);
  return { recording, letter, document };
}

const VIEWPORTS = [
  { name: 'phone', width: 412, height: 823 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;

test.describe('the family receives what was left for them', () => {
  test.describe.configure({ timeout: 180_000 });

  for (const viewport of VIEWPORTS) {
    test(`request link to playing a recording, at ${viewport.width}x${viewport.height}`, async ({ page, browser, request }) => {
      const owner = await signUpOwner(page, `family-${viewport.name}`);
      const content = await fillVault(page, owner);

      // The owner's link, as he would copy it for his son, on his phone or his laptop.
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto('/access-control');
      const link = await page.getByRole('textbox', { name: 'Request link' }).inputValue();
      expect(link).toBe(new URL(`/request?owner=${owner.id}`, page.url()).href);
      await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
      await expect(page.getByRole('switch', { name: RequestLinkMessages.requestsSwitch })).toBeChecked();
      await expectReadableAndAccessible(page, `${viewport.name}: the owner's request link`);

      // The family member, on his own device, asks from the link.
      const family = await familyPage(browser);
      await family.setViewportSize({ width: viewport.width, height: viewport.height });
      const requester = uniqueEmail('sam');
      await family.goto(link);
      await expect(family.getByText(RequestLinkMessages.askingOwner(null))).toBeVisible();
      await expectReadableAndAccessible(family, `${viewport.name}: the request form`);
      await requestAccess(family, { email: requester, relationship: 'Son', reason: 'I want to hear his voice again.', childName: 'Sam' });
      await expect(family.getByRole('status').filter({ hasText: AccessMessages.submitted })).toBeVisible();

      // The owner is told at once, by e-mail and in the app.
      const notice = await waitForMail(request, owner.credentials.email);
      expect(notice.text).toContain('Son');
      expect(notice.text).toContain('/access-control');
      await page.goto('/vault');
      await expect(page.getByRole('link', { name: /1 access request/ })).toBeVisible();
      const menu = await openSideMenu(page);
      await expect(menu.getByTestId('pending-requests-badge')).toHaveText('1');
      await expect(menu.getByRole('link', { name: 'Access Control' })).toHaveAccessibleDescription(/1 pending request/);
      await page.keyboard.press('Escape');

      await page.goto('/access-control');
      await page.getByRole('button', { name: /Click to respond/ }).click();
      const details = page.getByRole('dialog', { name: 'Access Request Details' });
      await expect(details.getByText(requester)).toBeVisible();
      await details.getByRole('button', { name: 'Approve Access' }).click();
      const created = page.getByRole('dialog', { name: 'Access Key Created' });
      await expect(created).toContainText(`We've emailed the key to ${requester}`);
      await created.getByRole('button', { name: 'Close' }).last().click();

      // The key e-mail's link: whose vault and Open vault on the first screen, the key filled in.
      const keyMail = await waitForMail(request, requester);
      const keyLink = /(http\S+\/access#k=\S+)/.exec(keyMail.text)?.[1];
      expect(keyLink).toBeTruthy();
      await family.goto(keyLink!);
      await expect(family.getByText(KeyStatusMessages.givenAccess(null))).toBeVisible();
      const open = family.getByRole('button', { name: 'Open vault' });
      await expect(open).toBeInViewport();
      await open.click();
      await acceptDisclaimer(family);
      await expect(family.getByRole('heading', { name: 'Vault (read-only)' })).toBeVisible();
      const tabs = family.getByRole('tablist', { name: 'Vault sections' });
      const panel = family.getByRole('tabpanel');

      // A letter, whole.
      await tabs.getByRole('tab', { name: 'Letters' }).click();
      await panel.getByRole('button', { name: new RegExp(content.letter.title) }).click();
      await expect(panel.getByRole('article', { name: content.letter.title })).toContainText('I kept every drawing you sent me.');
      await expectReadableAndAccessible(family, `${viewport.name}: a letter`);
      await panel.getByRole('button', { name: 'Back to Letters' }).click();

      // The recording: native controls, plays, seeks; every read is a Range request on the session's link.
      const ranges: number[] = [];
      family.on('response', (response) => {
        if (/\/api\/view\/media\/[0-9a-f-]{36}\?/.test(response.url())) ranges.push(response.status());
      });
      await tabs.getByRole('tab', { name: 'Timeline' }).click();
      await panel.getByRole('button', { name: new RegExp(content.recording) }).click();
      const video = panel.locator('video');
      await expect(video).toHaveAttribute('controls', '');
      await expect.poll(() => readyState(video), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      await video.evaluate((el) => { const player = el as unknown as MediaElement; player.muted = true; return player.play(); });
      await expect.poll(() => video.evaluate((el) => (el as unknown as MediaElement).currentTime)).toBeGreaterThan(0);
      await video.evaluate((el) => { (el as unknown as MediaElement).currentTime = 0.5; });
      await expect.poll(() => video.evaluate((el) => (el as unknown as MediaElement).seeking)).toBe(false);
      expect(ranges.length).toBeGreaterThan(0);
      expect(ranges.every((status) => status === 200 || status === 206)).toBe(true);
      await expectReadableAndAccessible(family, `${viewport.name}: a recording`);
      await panel.getByRole('button', { name: 'Back to Timeline' }).click();

      // A court document, listed by its file's name (the owner's title stays his), previewed in the page
      // by the browser's PDF viewer.
      await tabs.getByRole('tab', { name: 'Court Journal' }).click();
      await expect(panel).not.toContainText(content.document);
      await panel.getByRole('button', { name: /contact-order\.pdf/ }).click();
      const preview = panel.getByTitle('Preview of contact-order.pdf');
      await expect(preview).toBeVisible();
      await expect.poll(() => family.frames().some((f) => f.url().startsWith('chrome-extension://')), { message: 'the PDF viewer opened in the frame' }).toBe(true);
      await expectReadableAndAccessible(family, `${viewport.name}: a court document`);
      await panel.getByRole('button', { name: 'Back to Court Journal' }).click();

      // Who I Am, in his words.
      await tabs.getByRole('tab', { name: 'Who I Am' }).click();
      await expect(panel).toContainText('I am a carpenter who loves the sea.');
      await expect(panel).toContainText('Honesty');
      await expectReadableAndAccessible(family, `${viewport.name}: Who I Am`);

      // The owner sees what was opened, per key.
      await page.goto('/access-key');
      await expect(page.getByRole('list', { name: 'View sessions' })).toContainText(content.letter.title);

      // Revoked while the recording is open: its next Range request is refused.
      await tabs.getByRole('tab', { name: 'Timeline' }).click();
      await panel.getByRole('button', { name: new RegExp(content.recording) }).click();
      await expect.poll(() => readyState(video), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      const src = await video.evaluate((el) => (el as unknown as MediaElement).currentSrc);
      const rangeOf = () => family.evaluate(async (url) => (await fetch(url, { headers: { range: 'bytes=0-99' } })).status, src);
      expect(await rangeOf()).toBe(206);
      const keys = await page.request.get('/api/access/keys', { headers: { authorization: `Bearer ${owner.accessToken}` } });
      const key = ((await keys.json()) as { id: string; recipient_email: string }[]).find((k) => k.recipient_email === requester)!;
      expect((await page.request.post(`/api/access/keys/${key.id}/revoke`, { headers: { authorization: `Bearer ${owner.accessToken}` } })).status()).toBe(200);
      await expect.poll(rangeOf).toBe(403);
      await family.context().close();
    });
  }

  test('a letters-only key opens letters and nothing else, by the page and by the API', async ({ page, browser }) => {
    const owner = await signUpOwner(page, 'family-letters-only');
    const content = await fillVault(page, owner);
    const { key } = await createKeyViaApi(page.request, owner, { name: 'Ellie', email: uniqueEmail('ellie'), scopes: ['letters'] });

    const family = await familyPage(browser);
    await family.setViewportSize({ width: 412, height: 823 });
    await family.goto(`/access#k=${key}&owner=${owner.id}`);
    await family.getByRole('button', { name: 'Open vault' }).click();
    await acceptDisclaimer(family);
    const tabs = family.getByRole('tablist', { name: 'Vault sections' });
    const panel = family.getByRole('tabpanel');
    await panel.getByRole('button', { name: new RegExp(content.letter.title) }).click();
    await expect(panel).toContainText('I kept every drawing you sent me.');
    for (const tab of ['Timeline', 'Court Journal', 'Who I Am', "If I'm Not There"]) {
      await tabs.getByRole('tab', { name: tab }).click();
      await expect(panel).toContainText(AccessMessages.sectionNotShared);
    }
    await expect(family.getByText('I am a carpenter who loves the sea.')).toHaveCount(0);

    // Straight at the API with the session's own viewer token: refused, and no content in the answer.
    const token = await family.evaluate(async () => {
      const session = sessionStorage.getItem('lv:view-session');
      const response = await fetch('/api/view/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session }) });
      return ((await response.json()) as { viewer_token: string }).viewer_token;
    });
    const auth = { authorization: `Bearer ${token}` };
    const ownerAuth = { authorization: `Bearer ${owner.accessToken}` };
    const recordingId = ((await (await page.request.get('/api/media/recordings', { headers: ownerAuth })).json()) as { id: string; title: string }[]).find((m) => m.title === content.recording)!.id;
    const documentId = ((await (await page.request.get('/api/court/documents', { headers: ownerAuth })).json()) as { id: string; title: string }[]).find((d) => d.title === content.document)!.id;
    for (const path of [`/api/view/who-i-am`, `/api/view/media/${recordingId}/link`, `/api/view/documents/${documentId}/link`, '/api/view/if-im-not-there', '/api/view/entries/court-journal', '/api/view/entries/timeline']) {
      const response = await family.request.get(path, { headers: auth });
      expect(response.status(), path).toBe(403);
      const body = await response.text();
      expect(body).not.toContain('carpenter');
      expect(body).not.toContain(content.document);
      expect(body).not.toContain(content.recording);
    }
    await family.context().close();
  });
});
