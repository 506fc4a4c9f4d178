import type { APIRequestContext, Download, Locator, Page } from '@playwright/test';
import { expect } from './test.js';
import { toasts } from './ui.js';

/** Helpers of court.e2e.spec.ts (/court-documents and /court-journal). Files are made here, in memory. */

export interface FixtureFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A real one-page PDF (a browser's viewer opens it). */
export function pdfFile(name = 'order.pdf', text = 'Court order'): FixtureFile {
  const body = [
    '%PDF-1.4',
    '1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj',
    '2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj',
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>> endobj',
    `4 0 obj <</Length ${text.length + 30}>> stream\nBT /F1 18 Tf 20 70 Td (${text}) Tj ET\nendstream endobj`,
    '5 0 obj <</Type /Font /Subtype /Type1 /BaseFont /Helvetica>> endobj',
    'trailer <</Root 1 0 R>>',
    '%%EOF',
    '',
  ].join('\n');
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(body, 'latin1') };
}

/** A real 1x1 PNG. */
export function pngFile(name = 'photo.png'): FixtureFile {
  return { name, mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64') };
}

export function textFile(name = 'notes.txt', text = 'On Saturday the handover was two hours late.'): FixtureFile {
  return { name, mimeType: 'text/plain', buffer: Buffer.from(text, 'utf8') };
}

export async function openCourtDocuments(page: Page): Promise<void> {
  await page.goto('/court-documents');
  await expect(page.getByRole('heading', { level: 1, name: 'Court Documents' })).toBeVisible();
}

export async function openCourtJournal(page: Page): Promise<void> {
  await page.goto('/court-journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Court Journal' })).toBeVisible();
}

export const uploadForm = (page: Page): Locator => page.getByRole('region', { name: 'Upload Court Document' });

/** Fills the /court-documents form; fields left undefined are not touched. */
export async function fillCourtForm(page: Page, fields: { title?: string; category?: string; description?: string; file?: FixtureFile }): Promise<void> {
  const form = uploadForm(page);
  if (fields.title !== undefined) await form.getByLabel('Title', { exact: true }).fill(fields.title);
  if (fields.category !== undefined) await form.getByLabel('Category', { exact: true }).selectOption(fields.category);
  if (fields.description !== undefined) await form.getByLabel('Description (optional)', { exact: true }).fill(fields.description);
  if (fields.file !== undefined) {
    // A file's bytes cross to the browser base64-encoded over the DevTools protocol: the 10 MB one took
    // more than the 10 s action limit on a slow machine.
    const timeout = fields.file.buffer.length > 1024 * 1024 ? 60_000 : undefined;
    await form.getByLabel('File', { exact: true }).setInputFiles(fields.file, { timeout });
  }
}

export const submitCourtForm = (page: Page) => uploadForm(page).getByRole('button', { name: 'Upload Document' }).click();

/** Fills and sends the form, and waits for the server's answer to the bytes (the stored document). */
export async function uploadViaForm(page: Page, fields: { title: string; category: string; description?: string; file: FixtureFile }): Promise<{ id: string; title: string }> {
  await fillCourtForm(page, fields);
  const answer = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/court\/uploads\/[0-9a-f-]{36}$/.test(r.url()));
  await submitCourtForm(page);
  const response = await answer;
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; title: string };
}

/** Uploads through the API (setup only): ticket, then the bytes. */
export async function uploadViaApi(request: APIRequestContext, accessToken: string, fields: { title: string; category: string; file: FixtureFile }): Promise<{ id: string; title: string }> {
  const auth = { authorization: `Bearer ${accessToken}` };
  const ticket = await request.post('/api/court/uploads', { headers: auth, data: { title: fields.title, category: fields.category, fileName: fields.file.name, size: fields.file.buffer.length } });
  expect(ticket.status(), await ticket.text()).toBe(201);
  const { uploadUrl } = (await ticket.json()) as { uploadUrl: string };
  const put = await request.put(uploadUrl, { headers: { ...auth, 'content-type': 'application/octet-stream' }, data: fields.file.buffer });
  expect(put.status(), await put.text()).toBe(201);
  return (await put.json()) as { id: string; title: string };
}

/** A document of a list on the page, by its title. */
export const courtItem = (scope: Page | Locator, title: string): Locator => scope.getByRole('listitem', { name: title, exact: true });

/** A category card of the Court Journal. */
export const categoryCard = (page: Page, category: string): Locator => page.getByRole('list', { name: 'Categories' }).getByRole('listitem', { name: category, exact: true });

/**
 * The next download that starts in a tab this page opens (Download opens a new tab at the click and
 * sends it to the file). Listening on the context from before the click means no event is missed.
 */
export function nextDownloadInNewTab(page: Page): Promise<{ tab: Page; download: Download }> {
  const context = page.context();
  return new Promise((resolve) => {
    const onPage = (tab: Page) => {
      tab.once('download', (download) => {
        context.off('page', onPage);
        resolve({ tab, download });
      });
    };
    context.on('page', onPage);
  });
}

/** The bytes of a finished download. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every request the page makes to start an upload (client-side refusals must make none). */
export function countUploadTickets(page: Page): () => number {
  let count = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/court/uploads') count++;
  });
  return () => count;
}

/**
 * Closes the toasts on screen and waits until none is left, so that the next toast a check waits
 * for is a new one, not an earlier one with the same words.
 */
export async function clearToasts(page: Page): Promise<void> {
  const all = toasts(page);
  // Stacked toasts overlap and one may be leaving already, so a click can miss; and sonner pauses a toast
  // while the pointer rests on it. Close the first, move the pointer away, and try again until none is left.
  await expect(async () => {
    if ((await all.count()) > 0) {
      await all.first().getByRole('button', { name: 'Close toast' }).click({ force: true, timeout: 1_000 }).catch(() => undefined);
    }
    await page.mouse.move(0, 0);
    await expect(all).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}
