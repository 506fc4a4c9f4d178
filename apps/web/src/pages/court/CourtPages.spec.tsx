import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import {
  COURT_FILE_KINDS, COURT_FILE_MAX_BYTES, COURT_CATEGORIES, COURT_JOURNAL_TIPS, COURT_TIP_ROTATION_MS, CourtMessages, courtKindForName,
  type CourtCategory, type CourtDocument, type CourtVariant,
} from '@lv/contracts';
import { renderApp, quietConsole } from '../../test/app-harness.js';
import { TipCard } from './CourtJournalPage.js';
import { formatDayHeading } from './court-text.js';
import { formatDate } from '../../lib/dates.js';

// /court-documents and /court-journal in the whole app (router, session, shell, toasts), with the
// gateway's /api/court routes replaced by a small in-memory stand-in behind fetch. The stand-in
// checks uploaded bytes by their first bytes, like the service: a PNG named .pdf is refused.


interface Call { method: string; path: string; body?: any; contentType?: string }

/** jsdom's Blob has no arrayBuffer(): read it the old way. */
function readBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(blob);
  });
}

const MAGIC: Record<string, string> = { pdf: '%PDF', png: '\x89PNG', jpeg: '\xff\xd8\xff' };

function fakeGateway(initial: CourtDocument[] = []) {
  const documents = [...initial];
  const calls: Call[] = [];
  const pending = new Map<string, { title: string; category: CourtCategory; variant: CourtVariant; description?: string; fileName: string; size: number }>();
  const failures: { method: string; path: RegExp; status: number; code: string; message: string }[] = [];
  let seq = 0;
  const json = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const handler = async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const url = new URL(input, 'http://vault.test');
    const headers = (init.headers ?? {}) as Record<string, string>;
    const isJson = typeof init.body === 'string';
    calls.push({ method, path: url.pathname + url.search, body: isJson ? JSON.parse(init.body as string) : init.body, contentType: headers['Content-Type'] });
    const failure = failures.findIndex((f) => f.method === method && f.path.test(url.pathname));
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1);
      return json(f!.status, { code: f!.code, message: f!.message });
    }
    if (url.pathname === '/api/auth/session') return json(200, { session: null });
    if (url.pathname === '/api/vault/stats') return json(200, { videosSaved: 0, lettersWritten: documents.length, daysActive: 1 });
    if (url.pathname === '/api/court/documents' && method === 'GET') {
      const category = url.searchParams.get('category');
      const list = documents.filter((d) => !category || d.category === category).sort((a, b) => b.upload_date.localeCompare(a.upload_date));
      return json(200, list);
    }
    if (url.pathname === '/api/court/uploads' && method === 'POST') {
      const id = `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
      pending.set(id, JSON.parse(init.body as string));
      return json(201, { uploadId: id, uploadUrl: `/api/court/uploads/${id}`, maxBytes: COURT_FILE_MAX_BYTES });
    }
    const upload = /^\/api\/court\/uploads\/([^/]+)$/.exec(url.pathname);
    if (upload && method === 'PUT') {
      const meta = pending.get(upload[1]!);
      if (!meta) return json(404, { code: 'NOT_FOUND', message: CourtMessages.notFound });
      const bytes = await readBytes(init.body as Blob);
      const head = String.fromCharCode(...bytes.slice(0, 4));
      const kind = courtKindForName(meta.fileName, meta.variant)!;
      if (MAGIC[kind] && !head.startsWith(MAGIC[kind]!)) return json(415, { code: 'UNSUPPORTED_MEDIA', message: CourtMessages.typeMismatch });
      const now = new Date().toISOString();
      const document: CourtDocument = {
        id: upload[1]!, title: meta.title, description: meta.description ?? null, category: meta.category, variant: meta.variant, file_name: meta.fileName,
        file_kind: kind, file_type: COURT_FILE_KINDS[kind].contentType, file_path: `u1/${upload[1]}`, size: bytes.length, sha256: 'a'.repeat(64),
        previewable: COURT_FILE_KINDS[kind].previewable, is_key_evidence: false, upload_date: now, created_at: now,
      };
      documents.unshift(document);
      return json(201, document);
    }
    if (url.pathname === '/api/court/evidence/bundle-link' && method === 'POST') return json(200, { url: '/api/court/evidence/bundle?u=u1&exp=1&sig=s', expiresAt: Date.now() + 300_000 });
    const link = /^\/api\/court\/documents\/([^/]+)\/link$/.exec(url.pathname);
    if (link && method === 'POST') {
      const d = (init.body ? JSON.parse(init.body as string) : {}) as { disposition: string };
      if (!documents.some((x) => x.id === link[1])) return json(404, { code: 'NOT_FOUND', message: CourtMessages.notFound });
      return json(200, { url: `/api/court/files/${link[1]}?d=${d.disposition}&u=u1&exp=1&sig=s`, expiresAt: Date.now() + 300_000 });
    }
    const one = /^\/api\/court\/documents\/([^/]+)$/.exec(url.pathname);
    const index = one ? documents.findIndex((d) => d.id === one[1]) : -1;
    if (index < 0) return json(404, { code: 'NOT_FOUND', message: CourtMessages.notFound });
    if (method === 'PATCH') {
      documents[index] = { ...documents[index]!, is_key_evidence: JSON.parse(init.body as string).is_key_evidence };
      return json(200, documents[index]);
    }
    if (method === 'DELETE') {
      documents.splice(index, 1);
      return new Response(null, { status: 204 });
    }
    return json(405, { code: 'VALIDATION_FAILED', message: 'x' });
  };
  return {
    documents,
    calls,
    fetch: jest.fn(handler),
    fail(method: string, path: RegExp, status: number, code: string, message = 'refused') {
      failures.push({ method, path, status, code, message });
    },
  };
}

let idSeq = 100;
const doc = (over: Partial<CourtDocument>): CourtDocument => {
  const id = `00000000-0000-4000-8000-${String(++idSeq).padStart(12, '0')}`;
  return {
    id, title: 'Custody order', description: null, category: 'Legal Notices or Orders', variant: 'documents', file_name: 'order.pdf', file_kind: 'pdf', file_type: 'application/pdf',
    file_path: `u1/${id}`, size: 2.5 * 1024 * 1024, sha256: 'b'.repeat(64), previewable: true, is_key_evidence: false,
    upload_date: '2026-11-20T10:00:00.000Z', created_at: '2026-11-20T10:00:00.000Z', ...over,
  };
};

let gateway: ReturnType<typeof fakeGateway>;

const renderAt = (path: string) => renderApp(path);

const pdf = (name = 'order.pdf') => new File(['%PDF-1.7\n1 0 obj\n'], name, { type: 'application/pdf' });
const png = (name = 'photo.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], name, { type: 'image/png' });
const sized = (file: File, size: number) => {
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

const uploadForm = () => screen.getByRole('region', { name: 'Upload Court Document' });
const item = (title: string) => screen.getByRole('listitem', { name: title });
const submitUpload = () => fireEvent.click(within(uploadForm()).getByRole('button', { name: 'Upload Document' }));

/** Fills the /court-documents form (any field left undefined stays as it is). */
function fillDocumentForm({ title, category, description, file }: { title?: string; category?: string; description?: string; file?: File }) {
  const form = uploadForm();
  if (title !== undefined) fireEvent.change(within(form).getByLabelText('Title'), { target: { value: title } });
  if (category !== undefined) fireEvent.change(within(form).getByLabelText('Category'), { target: { value: category } });
  if (description !== undefined) fireEvent.change(within(form).getByLabelText('Description (optional)'), { target: { value: description } });
  if (file !== undefined) fireEvent.change(within(form).getByLabelText('File'), { target: { files: [file] } });
}

/** Waits for a toast showing `title` (and `description`, when given); earlier toasts may still be on screen. */
async function expectToast(title: string, description?: string) {
  await waitFor(() => {
    const toasts = Array.from(document.querySelectorAll('[data-sonner-toast]'), (t) => t.textContent ?? '');
    if (!toasts.some((text) => text.includes(title) && (!description || text.includes(description)))) throw new Error(`no toast "${title}" / "${description ?? ''}" among ${JSON.stringify(toasts)}`);
  });
}

/** Dismisses every toast and waits until they are gone, so the next check sees only new ones. */
async function clearToasts() {
  act(() => {
    toast.dismiss();
  });
  await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0));
}

const posts = (path: string) => gateway.calls.filter((c) => c.method === 'POST' && c.path === path);

beforeEach(() => {
  gateway = fakeGateway();
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  quietConsole();
});

afterEach(() => {
  cleanup();
  act(() => {
    toast.dismiss();
  });
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('Court Documents (/court-documents)', () => {
  it('shows the form, the security notice, "Your Documents (0)" and "No documents uploaded yet"', async () => {
    renderAt('/court-documents');
    await screen.findByRole('heading', { level: 1, name: 'Court Documents' });
    await screen.findByText('No documents uploaded yet');
    expect(screen.getByRole('heading', { name: 'Your Documents (0)' })).toBeTruthy();
    expect(screen.getByRole('note', { name: 'Security notice' }).textContent).toBe(CourtMessages.securityNotice);
    const category = within(uploadForm()).getByLabelText('Category') as HTMLSelectElement;
    // The Court Journal's six cards, in the spec's words: what is filed here counts on a card.
    expect(Array.from(category.options).map((o) => o.value)).toEqual(['', 'Receipts or Payment Records', 'Photo Evidence', 'Emails or Messages', 'Witness Statements', 'Timeline of Events', 'Legal Notices or Orders']);
    expect(Array.from(category.options).map((o) => o.text)).toEqual(['Select a category', ...COURT_CATEGORIES]);
    expect((within(uploadForm()).getByLabelText('File') as HTMLInputElement).accept).toBe('.pdf,.doc,.docx,.jpg,.jpeg,.png');
    expect(within(uploadForm()).getByLabelText('Description (optional)')).toBeTruthy();
  });

  it('says "Missing Information" for a missing title, category or file, and sends nothing', async () => {
    renderAt('/court-documents');
    await screen.findByText('No documents uploaded yet');
    submitUpload();
    await expectToast('Missing Information', 'Please fill in all required fields and select a file.');
    await clearToasts();
    fillDocumentForm({ title: 'Order', file: pdf() });
    submitUpload();
    await expectToast('Missing Information', 'Please fill in all required fields and select a file.');
    await clearToasts();
    fillDocumentForm({ title: '   ', category: 'Legal Notices or Orders' });
    submitUpload();
    await expectToast('Missing Information');
    expect(posts('/api/court/uploads')).toHaveLength(0);
  });

  it('says "File Too Large" over 10MB, and refuses a type it does not accept, before any request', async () => {
    renderAt('/court-documents');
    await screen.findByText('No documents uploaded yet');
    fillDocumentForm({ title: 'Big scan', category: 'Legal Notices or Orders', file: sized(pdf('scan.pdf'), COURT_FILE_MAX_BYTES + 1) });
    submitUpload();
    await expectToast('File Too Large', 'Please select a file smaller than 10MB.');
    fillDocumentForm({ file: new File(['notes'], 'notes.txt', { type: 'text/plain' }) });
    submitUpload();
    await expectToast('Upload Failed', CourtMessages.unsupportedType);
    expect(posts('/api/court/uploads')).toHaveLength(0);
  });

  it('uploads: ticket, then the bytes; "Document Uploaded", the form resets and the list reloads', async () => {
    renderAt('/court-documents');
    await screen.findByText('No documents uploaded yet');
    const file = pdf('march-order.pdf');
    fillDocumentForm({ title: '  March order ', category: 'Timeline of Events', description: 'Weekend schedule', file });
    expect(await screen.findByText('Unsaved changes')).toBeTruthy();
    submitUpload();
    await expectToast('Document Uploaded', 'Your court document has been securely stored.');
    // The filled form counted as unsaved work; once it is stored and emptied, it no longer does
    // (at once, well before the 5 s periodic check).
    await waitFor(() => expect(screen.queryByText('Unsaved changes')).toBeNull(), { timeout: 1000 });
    expect(posts('/api/court/uploads')[0]!.body).toEqual({ title: 'March order', category: 'Timeline of Events', variant: 'documents', description: 'Weekend schedule', fileName: 'march-order.pdf', size: file.size });
    const put = gateway.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toBe(file);
    expect(put.contentType).toBe('application/octet-stream');
    // The form is empty again.
    expect((within(uploadForm()).getByLabelText('Title') as HTMLInputElement).value).toBe('');
    expect((within(uploadForm()).getByLabelText('Category') as HTMLSelectElement).value).toBe('');
    expect((within(uploadForm()).getByLabelText('Description (optional)') as HTMLTextAreaElement).value).toBe('');
    expect((within(uploadForm()).getByLabelText('File') as HTMLInputElement).value).toBe('');
    // The list, from the server again.
    await screen.findByRole('heading', { name: 'Your Documents (1)' });
    const listed = item('March order');
    expect(listed.textContent).toContain('Timeline of Events');
    expect(listed.textContent).toContain('march-order.pdf');
    expect(listed.textContent).toContain(`${file.size} bytes`);
    expect(listed.textContent).toContain('Weekend schedule');
    expect(gateway.calls.filter((c) => c.method === 'GET' && c.path === '/api/court/documents').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the server\'s refusal under "Upload Failed" (a PNG named .pdf), and keeps the form', async () => {
    renderAt('/court-documents');
    await screen.findByText('No documents uploaded yet');
    fillDocumentForm({ title: 'Disguised', category: 'Witness Statements', file: png('disguised.pdf') });
    submitUpload();
    await expectToast('Upload Failed', CourtMessages.typeMismatch);
    expect((within(uploadForm()).getByLabelText('Title') as HTMLInputElement).value).toBe('Disguised');
    expect(screen.getByRole('heading', { name: 'Your Documents (0)' })).toBeTruthy();
  });

  it('says "Failed to upload document. Please try again." when the service fails', async () => {
    renderAt('/court-documents');
    await screen.findByText('No documents uploaded yet');
    gateway.fail('POST', /^\/api\/court\/uploads$/, 503, 'SERVICE_UNAVAILABLE', 'The vault is temporarily unavailable. Please try again in a moment.');
    fillDocumentForm({ title: 'Order', category: 'Legal Notices or Orders', file: pdf() });
    submitUpload();
    await expectToast('Upload Failed', 'Failed to upload document. Please try again.');
  });

  it('lists each document with title, category, date, file name, size and the key evidence badge', async () => {
    gateway.documents.push(doc({ title: 'Support receipts', category: 'Receipts or Payment Records', file_name: 'receipts.pdf', is_key_evidence: true }), doc({ title: 'Hearing letter', file_name: 'letter.docx', file_kind: 'docx', size: 310 * 1024 }));
    renderAt('/court-documents');
    await screen.findByRole('heading', { name: 'Your Documents (2)' });
    const receipts = item('Support receipts');
    expect(receipts.textContent).toContain('Receipts or Payment Records');
    expect(receipts.textContent).toContain('receipts.pdf');
    expect(receipts.textContent).toContain('2.5 MB');
    expect(within(receipts).getByText('Key evidence')).toBeTruthy();
    expect(within(receipts).getByText(formatDate('2026-11-20T10:00:00.000Z'))).toBeTruthy();
    expect(within(receipts).getByRole('button', { name: 'Unmark key evidence' })).toBeTruthy();
    const letter = item('Hearing letter');
    expect(letter.textContent).toContain('310 KB');
    expect(within(letter).queryByText('Key evidence')).toBeNull();
    for (const name of ['Preview', 'Download', 'Mark as key evidence', 'Delete']) expect(within(letter).getByRole('button', { name })).toBeTruthy();
  });

  it('says "Error" / "Failed to load court documents." when the list cannot be loaded', async () => {
    gateway.fail('GET', /^\/api\/court\/documents$/, 500, 'INTERNAL');
    renderAt('/court-documents');
    await expectToast('Error', 'Failed to load court documents.');
    expect(screen.getByRole('alert').textContent).toContain('Failed to load court documents.');
  });

  it('previews a PDF in a frame and an image as an image, through an inline link', async () => {
    gateway.documents.push(doc({ title: 'Order scan' }), doc({ title: 'Bruise photo', file_name: 'photo.jpg', file_kind: 'jpeg', file_type: 'image/jpeg' }));
    renderAt('/court-documents');
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Order scan' })).getByRole('button', { name: 'Preview' }));
    const pdfPreview = await screen.findByRole('dialog', { name: 'Order scan' });
    const frame = (await within(pdfPreview).findByTitle('Preview of Order scan')) as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.src).toMatch(/\/api\/court\/files\/[0-9a-f-]+\?d=inline&/);
    fireEvent.click(within(pdfPreview).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(item('Bruise photo')).getByRole('button', { name: 'Preview' }));
    const imagePreview = await screen.findByRole('dialog', { name: 'Bruise photo' });
    const image = (await within(imagePreview).findByRole('img', { name: 'Preview of Bruise photo' })) as HTMLImageElement;
    expect(image.src).toMatch(/\?d=inline&/);
    expect(posts(`/api/court/documents/${gateway.documents[1]!.id}/link`).map((c) => c.body)).toEqual([{ disposition: 'inline' }]);
    // The image does not load: "Unable to load preview."
    fireEvent.error(image);
    expect(within(imagePreview).getByRole('alert').textContent).toBe('Unable to load preview.');
  });

  it('says "This file type can\'t be previewed directly." for a Word file without asking for a link, and "Unable to load preview." when the link fails', async () => {
    gateway.documents.push(doc({ title: 'Statement', file_name: 'statement.docx', file_kind: 'docx', previewable: false }), doc({ title: 'Gone', file_kind: 'png', file_name: 'g.png' }));
    renderAt('/court-documents');
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Statement' })).getByRole('button', { name: 'Preview' }));
    const dialog = await screen.findByRole('dialog', { name: 'Statement' });
    expect(within(dialog).getByText("This file type can't be previewed directly.")).toBeTruthy();
    expect(gateway.calls.filter((c) => c.path.endsWith('/link'))).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    gateway.fail('POST', /\/link$/, 404, 'NOT_FOUND', CourtMessages.notFound);
    fireEvent.click(within(item('Gone')).getByRole('button', { name: 'Preview' }));
    const failed = await screen.findByRole('dialog', { name: 'Gone' });
    expect((await within(failed).findByRole('alert')).textContent).toBe('Unable to load preview.');
  });

  it('downloads in a new tab opened at the click, sent to an attachment link', async () => {
    gateway.documents.push(doc({ title: 'Order' }));
    const tab = { opener: window as unknown, location: { href: 'about:blank' }, close: jest.fn() };
    const open = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    renderAt('/court-documents');
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Order' })).getByRole('button', { name: 'Download' }));
    // Opened synchronously, inside the click, before the link was even asked for.
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() => expect(tab.location.href).toMatch(/^http:\/\/localhost\/api\/court\/files\/[0-9a-f-]+\?d=attachment&/));
    expect(posts(`/api/court/documents/${gateway.documents[0]!.id}/link`).map((c) => c.body)).toEqual([{ disposition: 'attachment' }]);
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('says "Download Failed" / "Failed to download document." and closes the empty tab when the link is refused', async () => {
    gateway.documents.push(doc({ title: 'Order' }));
    const tab = { opener: null, location: { href: 'about:blank' }, close: jest.fn() };
    jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    gateway.fail('POST', /\/link$/, 503, 'SERVICE_UNAVAILABLE');
    renderAt('/court-documents');
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Order' })).getByRole('button', { name: 'Download' }));
    await expectToast('Download Failed', 'Failed to download document.');
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('about:blank');
  });

  it('marks and unmarks key evidence, and says "Failed to update document" when that fails', async () => {
    gateway.documents.push(doc({ title: 'Order' }));
    renderAt('/court-documents');
    const order = await screen.findByRole('listitem', { name: 'Order' });
    fireEvent.click(within(order).getByRole('button', { name: 'Mark as key evidence' }));
    await within(order).findByText('Key evidence');
    await expectToast(CourtMessages.keyEvidenceMarked);
    expect(gateway.calls.find((c) => c.method === 'PATCH')!.body).toEqual({ is_key_evidence: true });
    expect(gateway.documents[0]!.is_key_evidence).toBe(true);

    fireEvent.click(within(order).getByRole('button', { name: 'Unmark key evidence' }));
    await waitFor(() => expect(within(order).queryByText('Key evidence')).toBeNull());
    expect(gateway.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ is_key_evidence: true }, { is_key_evidence: false }]);

    gateway.fail('PATCH', /^\/api\/court\/documents\//, 500, 'INTERNAL');
    fireEvent.click(within(order).getByRole('button', { name: 'Mark as key evidence' }));
    await expectToast('Failed to update document');
    expect(within(order).queryByText('Key evidence')).toBeNull();
  });

  it('deletes only after the confirmation, and says "Failed to delete document" when that fails', async () => {
    gateway.documents.push(doc({ title: 'Order' }));
    renderAt('/court-documents');
    const order = await screen.findByRole('listitem', { name: 'Order' });
    fireEvent.click(within(order).getByRole('button', { name: 'Delete' }));
    let confirm = await screen.findByRole('alertdialog', { name: CourtMessages.deleteConfirmTitle });
    expect(confirm.textContent).toContain(CourtMessages.deleteConfirm);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(gateway.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    gateway.fail('DELETE', /^\/api\/court\/documents\//, 500, 'INTERNAL');
    fireEvent.click(within(item('Order')).getByRole('button', { name: 'Delete' }));
    confirm = await screen.findByRole('alertdialog', { name: CourtMessages.deleteConfirmTitle });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await expectToast('Failed to delete document');
    expect(gateway.documents).toHaveLength(1);

    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Order' })).toBeNull());
    expect(gateway.documents).toHaveLength(0);
    await screen.findByText('No documents uploaded yet');
    expect(screen.getByRole('heading', { name: 'Your Documents (0)' })).toBeTruthy();
  });
});

describe('Court Journal (/court-journal)', () => {
  const card = (category: string) => within(screen.getByRole('list', { name: 'Categories' })).getByRole('listitem', { name: category });

  it('has the six category cards, each with Upload and View All, the tip card and the timeline', async () => {
    renderAt('/court-journal');
    await screen.findByRole('heading', { level: 1, name: 'Court Journal' });
    const cards = within(screen.getByRole('list', { name: 'Categories' })).getAllByRole('listitem');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Receipts or Payment Records', 'Photo Evidence', 'Emails or Messages', 'Witness Statements', 'Timeline of Events', 'Legal Notices or Orders',
    ]);
    for (const c of cards) {
      expect(within(c).getByRole('button', { name: 'Upload' })).toBeTruthy();
      expect(within(c).getByRole('button', { name: 'View All' })).toBeTruthy();
    }
    expect(COURT_JOURNAL_TIPS).toContain(within(screen.getByRole('complementary', { name: 'Tip' })).getByTestId('court-tip').textContent);
    expect(screen.getByRole('heading', { level: 2, name: 'Court Journal Timeline' })).toBeTruthy();
    await screen.findByText('No documents uploaded yet');
    expect(screen.getByRole('button', { name: 'Export evidence bundle' })).toBeTruthy();
  });

  it('uploads into a category from its card: title and file only, .txt accepted, "Please provide a title and select a file"', async () => {
    renderAt('/court-journal');
    await screen.findByText('No documents uploaded yet');
    fireEvent.click(within(card('Witness Statements')).getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload to Witness Statements' });
    expect(within(dialog).queryByLabelText('Category')).toBeNull();
    expect(within(dialog).queryByLabelText('Description (optional)')).toBeNull();
    const input = within(dialog).getByLabelText('File') as HTMLInputElement;
    expect(input.accept).toBe('.pdf,.doc,.docx,.jpg,.jpeg,.png,.txt');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await expectToast('Missing Information', 'Please provide a title and select a file');
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'What the neighbour saw' } });
    fireEvent.change(input, { target: { files: [new File(['MZ'], 'tool.exe')] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await expectToast('Upload Failed', CourtMessages.journalUnsupportedType);
    fireEvent.change(input, { target: { files: [sized(new File(['x'], 'long.txt'), COURT_FILE_MAX_BYTES + 1)] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await expectToast('File Too Large', 'Please select a file smaller than 10MB.');
    expect(posts('/api/court/uploads')).toHaveLength(0);

    fireEvent.change(input, { target: { files: [new File(['She saw him arrive at 6pm.'], 'statement.txt', { type: 'text/plain' })] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await expectToast('Document Uploaded', 'Your court document has been securely stored.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/court/uploads')[0]!.body).toEqual({ title: 'What the neighbour saw', category: 'Witness Statements', variant: 'journal', fileName: 'statement.txt', size: 26 });
    // The timeline and the card's count reload.
    await screen.findByRole('listitem', { name: 'What the neighbour saw' });
    expect(card('Witness Statements').textContent).toContain('1 document');
  });

  it('says "Failed to upload document" when the journal upload fails', async () => {
    renderAt('/court-journal');
    await screen.findByText('No documents uploaded yet');
    fireEvent.click(within(card('Photo Evidence')).getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload to Photo Evidence' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Photo' } });
    fireEvent.change(within(dialog).getByLabelText('File'), { target: { files: [png()] } });
    gateway.fail('PUT', /^\/api\/court\/uploads\//, 502, 'SERVICE_UNAVAILABLE');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await expectToast('Upload Failed', 'Failed to upload document');
    expect(screen.getByRole('dialog', { name: 'Upload to Photo Evidence' })).toBeTruthy();
  });

  it('counts a document filed on /court-documents on its card, and View All filters to it: no card says 0 above its documents', async () => {
    renderAt('/court-documents');
    await screen.findByText('No documents uploaded yet');
    fillDocumentForm({ title: 'Statement of the nanny', category: 'Witness Statements', description: 'Signed', file: pdf('nanny.pdf') });
    submitUpload();
    await expectToast('Document Uploaded');
    expect(posts('/api/court/uploads')[0]!.body).toMatchObject({ category: 'Witness Statements', variant: 'documents' });
    gateway.documents.push(doc({ title: 'Rent receipt', category: 'Receipts or Payment Records', variant: 'journal' }));
    cleanup();

    renderAt('/court-journal');
    await screen.findByRole('listitem', { name: 'Statement of the nanny' });
    expect(card('Witness Statements').textContent).toContain('1 document');
    expect(card('Receipts or Payment Records').textContent).toContain('1 document');
    // Every document of the journal's timeline is counted on exactly one card.
    const counted = COURT_CATEGORIES.reduce((n, c) => n + Number(/(\d+) documents?/.exec(card(c).textContent ?? '')?.[1] ?? 0), 0);
    const timeline = screen.getByRole('region', { name: 'Court Journal Timeline' });
    expect(within(timeline).getAllByRole('heading', { level: 4 }).length).toBe(counted);
    fireEvent.click(within(card('Witness Statements')).getByRole('button', { name: 'View All' }));
    const dialog = await screen.findByRole('dialog', { name: 'Witness Statements' });
    const list = await within(dialog).findByRole('list', { name: 'Witness Statements documents' });
    expect(within(list).getAllByRole('listitem').map((li) => within(li).getByRole('heading').textContent)).toEqual(['Statement of the nanny']);
  });

  it("View All lists that category's documents only", async () => {
    gateway.documents.push(
      doc({ title: 'Receipt one', category: 'Receipts or Payment Records', variant: 'journal' }),
      doc({ title: 'Photo one', category: 'Photo Evidence', variant: 'journal', file_kind: 'png', file_name: 'p.png' }),
      doc({ title: 'Receipt two', category: 'Receipts or Payment Records', variant: 'journal', upload_date: '2026-11-21T10:00:00.000Z' }),
    );
    renderAt('/court-journal');
    await screen.findByRole('listitem', { name: 'Receipt one' });
    expect(card('Receipts or Payment Records').textContent).toContain('2 documents');
    fireEvent.click(within(card('Receipts or Payment Records')).getByRole('button', { name: 'View All' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receipts or Payment Records' });
    const list = await within(dialog).findByRole('list', { name: 'Receipts or Payment Records documents' });
    expect(within(list).getAllByRole('listitem').map((li) => within(li).getByRole('heading').textContent)).toEqual(['Receipt two', 'Receipt one']);
    expect(gateway.calls.some((c) => c.path === '/api/court/documents?category=Receipts%20or%20Payment%20Records')).toBe(true);
    // A document in the dialog works as anywhere else: its preview opens over the list, and closes back to it.
    fireEvent.click(within(within(list).getByRole('listitem', { name: 'Receipt two' })).getByRole('button', { name: 'Preview' }));
    const preview = await screen.findByRole('dialog', { name: 'Receipt two' });
    await within(preview).findByTitle('Preview of Receipt two');
    fireEvent.click(within(preview).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Receipt two' })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Receipts or Payment Records' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(card('Legal Notices or Orders')).getByRole('button', { name: 'View All' }));
    const empty = await screen.findByRole('dialog', { name: 'Legal Notices or Orders' });
    await within(empty).findByText('No documents uploaded yet');
  });

  it('groups the timeline by day, newest day first, with both kinds of document', async () => {
    gateway.documents.push(
      doc({ title: 'Monday receipt', category: 'Receipts or Payment Records', variant: 'journal', upload_date: new Date(2026, 10, 16, 9).toISOString() }),
      doc({ title: 'Tuesday order', category: 'Legal Notices or Orders', upload_date: new Date(2026, 10, 17, 8).toISOString() }),
      doc({ title: 'Tuesday photo', category: 'Photo Evidence', variant: 'journal', file_kind: 'png', upload_date: new Date(2026, 10, 17, 19).toISOString() }),
    );
    renderAt('/court-journal');
    await screen.findByRole('listitem', { name: 'Monday receipt' });
    const timeline = screen.getByRole('heading', { name: 'Court Journal Timeline' }).closest('section')!;
    const days = within(timeline).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(days).toEqual([formatDayHeading('2026-11-17'), formatDayHeading('2026-11-16')]);
    const tuesday = within(timeline).getByRole('region', { name: formatDayHeading('2026-11-17') });
    expect(within(tuesday).getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual(['Tuesday photo', 'Tuesday order']);
    const monday = within(timeline).getByRole('region', { name: formatDayHeading('2026-11-16') });
    expect(within(monday).getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual(['Monday receipt']);
    // The same document component as /court-documents.
    expect(within(tuesday).getAllByRole('button', { name: 'Preview' })).toHaveLength(2);
  });

  it('uses the journal\'s words: "Failed to load documents", "Failed to download file"', async () => {
    gateway.fail('GET', /^\/api\/court\/documents$/, 500, 'INTERNAL');
    renderAt('/court-journal');
    await expectToast('Error', 'Failed to load documents');
    cleanup();
    act(() => {
      toast.dismiss();
    });

    gateway.documents.push(doc({ title: 'Receipt', category: 'Receipts or Payment Records', variant: 'journal' }));
    jest.spyOn(window, 'open').mockReturnValue(null);
    gateway.fail('POST', /\/link$/, 500, 'INTERNAL');
    renderAt('/court-journal');
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Receipt' })).getByRole('button', { name: 'Download' }));
    await expectToast('Download Failed', 'Failed to download file');
  });

  it('exports the evidence bundle through a short-lived link, and says so when that fails', async () => {
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    });
    renderAt('/court-journal');
    await screen.findByText('No documents uploaded yet');
    fireEvent.click(screen.getByRole('button', { name: 'Export evidence bundle' }));
    await waitFor(() => expect(clicked).toEqual(['http://localhost/api/court/evidence/bundle?u=u1&exp=1&sig=s']));
    expect(posts('/api/court/evidence/bundle-link')).toHaveLength(1);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Export evidence bundle' }) as HTMLButtonElement).disabled).toBe(false));

    gateway.fail('POST', /^\/api\/court\/evidence\/bundle-link$/, 503, 'SERVICE_UNAVAILABLE');
    fireEvent.click(screen.getByRole('button', { name: 'Export evidence bundle' }));
    await expectToast(CourtMessages.exportFailed);
    expect(clicked).toHaveLength(1);
  });
});

describe('the tip card', () => {
  it(`moves to the next tip every ${COURT_TIP_ROTATION_MS} ms, and round again`, () => {
    jest.useFakeTimers();
    render(<TipCard />);
    const tip = () => screen.getByTestId('court-tip').textContent;
    expect(tip()).toBe(COURT_JOURNAL_TIPS[0]);
    act(() => jest.advanceTimersByTime(COURT_TIP_ROTATION_MS - 1));
    expect(tip()).toBe(COURT_JOURNAL_TIPS[0]);
    act(() => jest.advanceTimersByTime(1));
    expect(tip()).toBe(COURT_JOURNAL_TIPS[1]);
    act(() => jest.advanceTimersByTime(COURT_TIP_ROTATION_MS * (COURT_JOURNAL_TIPS.length - 1)));
    expect(tip()).toBe(COURT_JOURNAL_TIPS[0]);
  });
});

it('keeps the six categories in the spec\'s order', () => {
  expect([...COURT_CATEGORIES]).toEqual(['Receipts or Payment Records', 'Photo Evidence', 'Emails or Messages', 'Witness Statements', 'Timeline of Events', 'Legal Notices or Orders']);
});
