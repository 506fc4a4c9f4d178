import { expect, test, type Page } from './support/test.js';
import {
  categoryCard, clearToasts, countUploadTickets, courtItem, downloadedBytes, fillCourtForm, nextDownloadInNewTab, openCourtDocuments, openCourtJournal, pdfFile, pngFile,
  submitCourtForm, textFile, uploadForm, uploadViaApi, uploadViaForm,
} from './support/court.js';
import { marker, signUpWithToken } from './support/letters.js';
import { setTier } from './support/media.js';
import { expectToast } from './support/ui.js';

// Court documents (/court-documents) and the Court Journal (/court-journal): owner-core spec,
// sections 2, 4, 5, 8, 9, and issue 11. Against the whole stack: gateway, identity, court-journal,
// object storage, JetStream.

test.use({ colorScheme: 'light' });

const MAX_BYTES = 10 * 1024 * 1024;
const UNSUPPORTED = 'This file type is not accepted. Choose a PDF, Word document, JPG or PNG file.';
const JOURNAL_UNSUPPORTED = 'This file type is not accepted. Choose a PDF, Word document, JPG, PNG or text file.';
const TYPE_MISMATCH = "This file's contents do not match its name. Choose the original file and try again.";
const DELETE_TITLE = 'Delete this document?';
const CATEGORIES = ['Receipts or Payment Records', 'Photo Evidence', 'Emails or Messages', 'Witness Statements', 'Timeline of Events', 'Legal Notices or Orders'];

const dialogNamed = (page: Page, name: string) => page.getByRole('dialog', { name, exact: true });
const dayHeading = (date: Date) => new Intl.DateTimeFormat('en-US', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(date);
const longDate = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

test.describe('court documents', () => {
  test('upload, list, preview, download, key evidence and delete', async ({ page }) => {
    test.slow();
    await signUpWithToken(page.request, 'court');
    await openCourtDocuments(page);
    await expect(page.getByText('No documents uploaded yet')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your Documents (0)' })).toBeVisible();
    await expect(page.getByRole('note', { name: 'Security notice' })).toContainText('Only you and authorised family members holding access keys can view these documents.');

    // Upload a PDF: the form resets and the list reloads.
    const title = marker('Custody order');
    const pdf = pdfFile('custody-order.pdf');
    // The form offers the Court Journal's cards: what is filed here counts on one.
    const stored = await uploadViaForm(page, { title: `  ${title} `, category: 'Legal Notices or Orders', description: 'Weekends and half the holidays', file: pdf });
    await expectToast(page, 'Document Uploaded', 'Your court document has been securely stored.');
    await expect(uploadForm(page).getByLabel('Title', { exact: true })).toHaveValue('');
    await expect(uploadForm(page).getByLabel('Category', { exact: true })).toHaveValue('');
    await expect(page.getByRole('heading', { name: 'Your Documents (1)' })).toBeVisible();
    const item = courtItem(page, title);
    await expect(item).toContainText('Legal Notices or Orders');
    await expect(item).toContainText(longDate(new Date()));
    await expect(item).toContainText('custody-order.pdf');
    await expect(item).toContainText(`${pdf.buffer.length} bytes`);
    await expect(item).toContainText('Weekends and half the holidays');
    await expect(item.getByText('Key evidence', { exact: true })).toHaveCount(0);

    // It is on the server, not only in the page.
    await page.reload();
    await expect(courtItem(page, title)).toBeVisible();

    // Preview: the PDF in a frame, from an inline link bound to this user, served with nosniff.
    await item.getByRole('button', { name: 'Preview' }).click();
    const preview = dialogNamed(page, title);
    await expect(preview).toBeVisible();
    const frame = preview.locator(`iframe[title="Preview of ${title}"]`);
    await expect(frame).toBeVisible();
    const src = await frame.getAttribute('src');
    expect(src).toMatch(new RegExp(`/api/court/files/${stored.id}\\?`));
    const inline = await page.request.get(src!);
    expect(inline.status()).toBe(200);
    expect(inline.headers()['content-type']).toContain('application/pdf');
    expect(inline.headers()['x-content-type-options']).toBe('nosniff');
    expect(inline.headers()['content-disposition']).toMatch(/^inline/);
    expect(Buffer.compare(await inline.body(), pdf.buffer)).toBe(0);
    await preview.getByRole('button', { name: 'Close' }).click();
    await expect(preview).toHaveCount(0);

    // Download: a new tab, saved as an attachment, the very bytes uploaded.
    const downloading = nextDownloadInNewTab(page);
    await item.getByRole('button', { name: 'Download' }).click();
    const { download } = await downloading;
    expect(download.suggestedFilename()).toBe('custody-order.pdf');
    expect(Buffer.compare(await downloadedBytes(download), pdf.buffer)).toBe(0);

    // Key evidence, marked and unmarked, kept across a reload.
    await item.getByRole('button', { name: 'Mark as key evidence' }).click();
    await expect(item.getByText('Key evidence', { exact: true })).toBeVisible();
    await page.reload();
    await expect(courtItem(page, title).getByText('Key evidence', { exact: true })).toBeVisible();
    await courtItem(page, title).getByRole('button', { name: 'Unmark key evidence' }).click();
    await expect(courtItem(page, title).getByText('Key evidence', { exact: true })).toHaveCount(0);
    await expect(courtItem(page, title).getByRole('button', { name: 'Mark as key evidence' })).toBeVisible();

    // Delete, after the confirmation.
    await courtItem(page, title).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: DELETE_TITLE });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(courtItem(page, title)).toBeVisible();
    await courtItem(page, title).getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByText('No documents uploaded yet')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your Documents (0)' })).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);
    // The old link no longer serves the file.
    expect((await page.request.get(src!)).status()).toBeGreaterThanOrEqual(400);
  });

  test('images preview inline; other kinds say they cannot be shown', async ({ page }) => {
    const { accessToken } = await signUpWithToken(page.request, 'court-preview');
    const photo = marker('Receipt photo');
    const notes = marker('Handover notes');
    await uploadViaApi(page.request, accessToken, { title: photo, category: 'Support', file: pngFile('receipt.png') });
    await uploadViaApi(page.request, accessToken, { title: notes, category: 'Timeline of Events', file: textFile('handover.txt') });
    await openCourtDocuments(page);

    await courtItem(page, photo).getByRole('button', { name: 'Preview' }).click();
    const image = dialogNamed(page, photo).getByRole('img', { name: `Preview of ${photo}` });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
    await dialogNamed(page, photo).getByRole('button', { name: 'Close' }).click();

    await courtItem(page, notes).getByRole('button', { name: 'Preview' }).click();
    await expect(dialogNamed(page, notes)).toContainText("This file type can't be previewed directly.");
  });

  test('every validation message, before any request; the server refuses a disguised file', async ({ page }) => {
    test.slow();
    await signUpWithToken(page.request, 'court-checks');
    await openCourtDocuments(page);
    const tickets = countUploadTickets(page);

    await submitCourtForm(page);
    await expectToast(page, 'Missing Information', 'Please fill in all required fields and select a file.');
    await clearToasts(page);

    await fillCourtForm(page, { title: 'No category', file: pdfFile() });
    await submitCourtForm(page);
    await expectToast(page, 'Missing Information', 'Please fill in all required fields and select a file.');
    await clearToasts(page);

    await fillCourtForm(page, { title: 'Too big', category: 'Legal Notices or Orders', file: { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([pdfFile().buffer, Buffer.alloc(MAX_BYTES)]) } });
    await submitCourtForm(page);
    await expectToast(page, 'File Too Large', 'Please select a file smaller than 10MB.');

    await fillCourtForm(page, { title: 'Text', category: 'Witness Statements', file: textFile() });
    await submitCourtForm(page);
    await expectToast(page, 'Upload Failed', UNSUPPORTED);
    expect(tickets()).toBe(0);

    // A PNG renamed .pdf passes the name check; the service reads its first bytes and refuses it.
    await fillCourtForm(page, { title: 'Disguised', category: 'Photo Evidence', file: { ...pngFile(), name: 'disguised.pdf', mimeType: 'application/pdf' } });
    const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/court/uploads/'));
    await submitCourtForm(page);
    expect((await refused).status()).toBe(415);
    await expectToast(page, 'Upload Failed', TYPE_MISMATCH);
    await expect(page.getByRole('heading', { name: 'Your Documents (0)' })).toBeVisible();
    await expect(uploadForm(page).getByLabel('Title', { exact: true })).toHaveValue('Disguised');

    // The journal asks only for a title and a file, in its own words.
    await openCourtJournal(page);
    await categoryCard(page, 'Emails or Messages').getByRole('button', { name: 'Upload' }).click();
    const dialog = dialogNamed(page, 'Upload to Emails or Messages');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectToast(page, 'Missing Information', 'Please provide a title and select a file');
    await dialog.getByLabel('Title', { exact: true }).fill('Installer');
    await dialog.getByLabel('File', { exact: true }).setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectToast(page, 'Upload Failed', JOURNAL_UNSUPPORTED);
  });
});

test.describe('the court journal', () => {
  test('six categories with Upload and View All, the tip card, the timeline by day, and the evidence bundle', async ({ page }) => {
    test.slow();
    await signUpWithToken(page.request, 'journal');
    await openCourtJournal(page);
    const cards = page.getByRole('list', { name: 'Categories' }).getByRole('listitem');
    await expect(cards).toHaveCount(6);
    for (const [i, category] of CATEGORIES.entries()) {
      await expect(cards.nth(i).getByRole('heading')).toHaveText(category);
      await expect(cards.nth(i).getByRole('button', { name: 'Upload', exact: true })).toBeVisible();
      await expect(cards.nth(i).getByRole('button', { name: 'View All', exact: true })).toBeVisible();
    }
    await expect(page.getByRole('complementary', { name: 'Tip' })).not.toBeEmpty();
    await expect(page.getByRole('heading', { name: 'Court Journal Timeline' })).toBeVisible();
    await expect(page.getByText('No documents uploaded yet')).toBeVisible();

    // Upload into two categories from their cards (a text file is fine here).
    const photo = marker('School gate photo');
    await categoryCard(page, 'Photo Evidence').getByRole('button', { name: 'Upload' }).click();
    let dialog = dialogNamed(page, 'Upload to Photo Evidence');
    await dialog.getByLabel('Title', { exact: true }).fill(photo);
    await dialog.getByLabel('File', { exact: true }).setInputFiles(pngFile('gate.png'));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectToast(page, 'Document Uploaded', 'Your court document has been securely stored.');
    await expect(dialog).toHaveCount(0);

    const statement = marker('Neighbour statement');
    await categoryCard(page, 'Witness Statements').getByRole('button', { name: 'Upload' }).click();
    dialog = dialogNamed(page, 'Upload to Witness Statements');
    await dialog.getByLabel('Title', { exact: true }).fill(statement);
    await dialog.getByLabel('File', { exact: true }).setInputFiles(textFile('statement.txt', 'She saw him arrive at 6pm.'));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    // The timeline: today's heading, newest first.
    const timeline = page.getByRole('region', { name: dayHeading(new Date()) });
    await expect(timeline.getByRole('listitem')).toHaveCount(2);
    await expect(timeline.getByRole('heading', { level: 4 })).toHaveText([statement, photo]);
    await expect(categoryCard(page, 'Photo Evidence')).toContainText('1 document');

    // View All: that category only.
    await categoryCard(page, 'Photo Evidence').getByRole('button', { name: 'View All' }).click();
    const all = dialogNamed(page, 'Photo Evidence');
    await expect(courtItem(all, photo)).toBeVisible();
    await expect(all.getByText(statement)).toHaveCount(0);
    await all.getByRole('button', { name: 'Close' }).first().click();
    await categoryCard(page, 'Legal Notices or Orders').getByRole('button', { name: 'View All' }).click();
    await expect(dialogNamed(page, 'Legal Notices or Orders')).toContainText('No documents uploaded yet');
    await page.keyboard.press('Escape');

    // The journal's documents are court documents too.
    await openCourtDocuments(page);
    await expect(page.getByRole('heading', { name: 'Your Documents (2)' })).toBeVisible();

    // Export evidence bundle: a ZIP.
    await openCourtJournal(page);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export evidence bundle' }).click();
    const bundle = await downloading;
    expect(bundle.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await downloadedBytes(bundle);
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
  });
});

test.describe('the vault timeline', () => {
  test('an uploaded court document reaches the timeline; View opens it there, and Delete removes it from the journal and the timeline', async ({ page }) => {
    test.slow();
    const { credentials, accessToken } = await signUpWithToken(page.request, 'court-timeline');
    setTier(credentials.email, 'pro');
    const title = marker('Payment receipt');
    await uploadViaApi(page.request, accessToken, { title, category: 'Receipts or Payment Records', file: pdfFile('receipt.pdf') });

    // The timeline is a read model fed by events: reload until the entry has arrived.
    const entry = page.getByTestId('timeline-entry').filter({ hasText: title });
    await expect.poll(async () => {
      await page.goto('/timeline');
      await expect(page.getByRole('heading', { level: 1, name: 'Your Timeline' })).toBeVisible();
      await page.getByTestId('timeline-entry').first().or(page.getByText('Your timeline is empty')).waitFor();
      return entry.count();
    }, { timeout: 30_000, intervals: [500, 1_000, 2_000] }).toBe(1);
    await expect(entry).toHaveAttribute('data-entry-type', 'journal');
    await entry.getByRole('button', { name: `View ${title}` }).click();
    const viewer = page.getByRole('dialog', { name: title });
    await expect(viewer.getByTitle(`Preview of ${title}`)).toBeVisible();
    await expect(page).toHaveURL(/\/timeline$/);
    await viewer.getByRole('button', { name: 'Close' }).click();

    await entry.getByRole('button', { name: `Delete ${title}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect(confirm).toContainText('Your evidence record keeps a note that it existed');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(entry).toHaveCount(0);
    // Gone in its own service too: the Court Journal no longer lists it, and its card counts nothing.
    await openCourtJournal(page);
    await expect(page.getByText('No documents uploaded yet')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Categories' }).getByRole('listitem', { name: 'Receipts or Payment Records' })).toContainText('0 documents');
  });

  test('a document filed on /court-documents counts on its Court Journal card', async ({ page }) => {
    test.slow();
    await signUpWithToken(page.request, 'court-cards');
    await openCourtDocuments(page);
    const title = marker('Nanny statement');
    await uploadViaForm(page, { title, category: 'Witness Statements', description: 'Signed', file: pdfFile('nanny.pdf') });
    await expectToast(page, 'Document Uploaded', 'Your court document has been securely stored.');
    await openCourtJournal(page);
    const card = page.getByRole('list', { name: 'Categories' }).getByRole('listitem', { name: 'Witness Statements' });
    await expect(card).toContainText('1 document');
    await card.getByRole('button', { name: 'View All' }).click();
    await expect(page.getByRole('dialog', { name: 'Witness Statements' }).getByRole('listitem', { name: title })).toBeVisible();
  });
});

test.describe('owner scoping', () => {
  test("a second user never sees, previews, downloads, marks or deletes the first user's documents", async ({ browser }) => {
    const contextA = await browser.newContext();
    const contextB = await browser.newContext();
    try {
      const alicePage = await contextA.newPage();
      const bobPage = await contextB.newPage();
      const alice = await signUpWithToken(alicePage.request, 'court-alice');
      const bob = await signUpWithToken(bobPage.request, 'court-bob');
      const secret = marker('Only Alice');
      const document = await uploadViaApi(alicePage.request, alice.accessToken, { title: secret, category: 'Receipts or Payment Records', file: pdfFile('alice.pdf') });

      await openCourtJournal(alicePage);
      await expect(courtItem(alicePage, secret)).toBeVisible();
      for (const open of [openCourtJournal, openCourtDocuments]) {
        await open(bobPage);
        await expect(bobPage.getByText('No documents uploaded yet')).toBeVisible();
        await expect(bobPage.getByText(secret)).toHaveCount(0);
      }

      // By id, with Bob's token: not found, whatever he tries.
      const asBob = { authorization: `Bearer ${bob.accessToken}` };
      const base = `/api/court/documents/${document.id}`;
      expect((await bobPage.request.post(`${base}/link`, { headers: asBob, data: { disposition: 'inline' } })).status()).toBe(404);
      expect((await bobPage.request.post(`${base}/link`, { headers: asBob, data: { disposition: 'attachment' } })).status()).toBe(404);
      expect((await bobPage.request.patch(base, { headers: asBob, data: { is_key_evidence: true } })).status()).toBe(404);
      expect((await bobPage.request.delete(base, { headers: asBob })).status()).toBe(404);
      expect(await (await bobPage.request.get('/api/court/documents', { headers: asBob })).json()).toEqual([]);

      // Alice's own link does not open in Bob's browser (it is bound to her).
      const link = await alicePage.request.post(`${base}/link`, { headers: { authorization: `Bearer ${alice.accessToken}` }, data: { disposition: 'attachment' } });
      expect(link.status()).toBe(200);
      const { url } = (await link.json()) as { url: string };
      expect((await bobPage.request.get(url)).status()).toBe(403);
      expect((await alicePage.request.get(url)).status()).toBe(200);

      // Alice's document is untouched.
      await alicePage.reload();
      await expect(courtItem(alicePage, secret)).toBeVisible();
      await expect(courtItem(alicePage, secret).getByText('Key evidence', { exact: true })).toHaveCount(0);
    } finally {
      await contextA.close();
      await contextB.close();
    }
  });
});
