import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { CourtMessages } from '@lv/contracts';
import { appSession } from './app-session.js';
import { ApiError } from './client.js';
import { fetchCourtDocuments, uploadCourtDocument } from './court.js';

interface Seen { method: string; url: string; headers: Record<string, string>; body: unknown }

const json = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let seen: Seen[];
let answers: ((call: Seen) => Response | undefined)[];

beforeEach(() => {
  seen = [];
  answers = [];
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (input: string, init: RequestInit = {}) => {
    const call: Seen = { method: init.method ?? 'GET', url: input, headers: { ...(init.headers as Record<string, string>) }, body: init.body };
    seen.push(call);
    for (const answer of answers) {
      const response = answer(call);
      if (response) return response;
    }
    return json(500, { code: 'INTERNAL', message: 'unexpected' });
  });
});

afterEach(() => {
  jest.restoreAllMocks();
});

const ticket = { uploadId: '9f0a1b2c-3d4e-4c59-8d3e-0b7a2d2e5d4f', uploadUrl: '/api/court/uploads/9f0a1b2c-3d4e-4c59-8d3e-0b7a2d2e5d4f', maxBytes: 10 * 1024 * 1024 };

describe('uploadCourtDocument', () => {
  it('asks for a ticket with the fields, then PUTs the file itself as plain bytes with the access token', async () => {
    jest.spyOn(appSession, 'getAccessToken').mockReturnValue('tok-1');
    const file = new File(['%PDF-1.7 court order'], 'order.pdf', { type: 'application/pdf' });
    answers.push((c) => (c.method === 'POST' && c.url === '/api/court/uploads' ? json(201, ticket) : undefined));
    answers.push((c) => (c.method === 'PUT' && c.url === ticket.uploadUrl ? json(201, { id: 'doc-1', title: 'Order' }) : undefined));
    const document = await uploadCourtDocument({ title: 'Order', category: 'Legal Notices or Orders', variant: 'documents', description: 'The March order', file });
    expect(document).toEqual({ id: 'doc-1', title: 'Order' });
    expect(seen).toHaveLength(2);
    expect(JSON.parse(String(seen[0]!.body))).toEqual({ title: 'Order', category: 'Legal Notices or Orders', variant: 'documents', description: 'The March order', fileName: 'order.pdf', size: file.size });
    expect(seen[0]!.headers.Authorization).toBe('Bearer tok-1');
    expect(seen[1]!.body).toBe(file);
    expect(seen[1]!.headers['Content-Type']).toBe('application/octet-stream');
    expect(seen[1]!.headers.Authorization).toBe('Bearer tok-1');
  });

  it('leaves out an empty description', async () => {
    answers.push((c) => (c.method === 'POST' ? json(201, ticket) : undefined));
    answers.push((c) => (c.method === 'PUT' ? json(201, { id: 'doc-2' }) : undefined));
    await uploadCourtDocument({ title: 'Photo', category: 'Photo Evidence', variant: 'journal', file: new File(['x'], 'p.png') });
    expect(JSON.parse(String(seen[0]!.body))).toEqual({ title: 'Photo', category: 'Photo Evidence', variant: 'journal', fileName: 'p.png', size: 1 });
  });

  it("rejects with the server's refusal of the bytes (415, its message)", async () => {
    answers.push((c) => (c.method === 'POST' ? json(201, ticket) : undefined));
    answers.push((c) => (c.method === 'PUT' ? json(415, { code: 'UNSUPPORTED_MEDIA', message: CourtMessages.typeMismatch }) : undefined));
    const error = await uploadCourtDocument({ title: 'Fake', category: 'Witness Statements', variant: 'documents', file: new File(['\x89PNG'], 'fake.pdf') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(415);
    expect((error as ApiError).message).toBe(CourtMessages.typeMismatch);
  });

  it('sends no bytes when the ticket is refused', async () => {
    answers.push((c) => (c.method === 'POST' ? json(400, { code: 'VALIDATION_FAILED', message: CourtMessages.fileTooLarge }) : undefined));
    await expect(uploadCourtDocument({ title: 'Big', category: 'Witness Statements', variant: 'documents', file: new File(['x'], 'a.pdf') })).rejects.toThrow(CourtMessages.fileTooLarge);
    expect(seen.map((c) => c.method)).toEqual(['POST']);
  });

  it('refreshes the session once when the PUT meets an expired token, and sends again', async () => {
    let token = 'old';
    jest.spyOn(appSession, 'getAccessToken').mockImplementation(() => token);
    const refresh = jest.spyOn(appSession, 'refresh').mockImplementation(async () => {
      token = 'new';
      return true;
    });
    answers.push((c) => (c.method === 'POST' ? json(201, ticket) : undefined));
    answers.push((c) => (c.method === 'PUT' && c.headers.Authorization === 'Bearer old' ? json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' }) : undefined));
    answers.push((c) => (c.method === 'PUT' && c.headers.Authorization === 'Bearer new' ? json(201, { id: 'doc-3' }) : undefined));
    await expect(uploadCourtDocument({ title: 'T', category: 'Legal Notices or Orders', variant: 'documents', file: new File(['x'], 'a.docx') })).resolves.toEqual({ id: 'doc-3' });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(seen.filter((c) => c.method === 'PUT')).toHaveLength(2);
  });
});

describe('fetchCourtDocuments', () => {
  it('asks for one category or for all', async () => {
    answers.push(() => json(200, []));
    await fetchCourtDocuments('Receipts or Payment Records');
    await fetchCourtDocuments(null);
    expect(seen.map((c) => c.url)).toEqual(['/api/court/documents?category=Receipts%20or%20Payment%20Records', '/api/court/documents']);
  });
});
