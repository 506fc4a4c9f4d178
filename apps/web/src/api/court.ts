import { appSession } from './app-session.js';
import { http } from './api.js';
import { ApiError, NetworkError, toErrorBody } from './client.js';
import type { Schema } from './typed-api.js';

// Court documents and the Court Journal over the gateway's /api/court routes (the list at the top of
// libs/contracts/src/court-journal.schemas.ts). Every call and shape is the gateway's OpenAPI
// document's (openapi.gen.ts), under the names the screens use.

export type CourtDocument = Schema<'CourtDocumentDto'>;
export type CourtFileLink = Schema<'CourtFileLinkDto'>;
export type CourtUploadTicket = Schema<'CourtUploadTicketDto'>;
export type StartCourtUploadRequest = Schema<'StartCourtUploadDto'>;
/** The six cards (the upload also takes an old page's category; the list filters by card only). */
export type CourtCategory = CourtDocument['category'];
type CourtVariant = NonNullable<StartCourtUploadRequest['variant']>;

export const courtKeys = {
  all: ['court'] as const,
  /** Every document of the owner (category null) or one category's. */
  list: (category: CourtCategory | null) => ['court', 'list', category ?? 'all'] as const,
};

export function fetchCourtDocuments(category: CourtCategory | null, signal?: AbortSignal): Promise<CourtDocument[]> {
  return http.get('/api/court/documents', { query: category ? { category } : {}, signal });
}

export function startCourtUpload(request: StartCourtUploadRequest): Promise<CourtUploadTicket> {
  return http.post('/api/court/uploads', { body: request });
}

export function setKeyEvidence(id: string, isKeyEvidence: boolean): Promise<CourtDocument> {
  return http.patch('/api/court/documents/{id}', { path: { id }, body: { is_key_evidence: isKeyEvidence } });
}

export function deleteCourtDocument(id: string): Promise<void> {
  return http.del('/api/court/documents/{id}', { path: { id } });
}

/** A short-lived link to the file, bound to this owner (the gateway also sets the binding cookie). */
export function fetchCourtFileLink(id: string, disposition: 'inline' | 'attachment'): Promise<CourtFileLink> {
  return http.post('/api/court/documents/{id}/link', { path: { id }, body: { disposition } });
}

/** A short-lived link to the owner's evidence bundle (a ZIP, served as an attachment). */
export function fetchEvidenceBundleLink(): Promise<CourtFileLink> {
  return http.post('/api/court/evidence/bundle-link');
}

async function putOnce(url: string, file: Blob, token: string | null, signal?: AbortSignal): Promise<CourtDocument> {
  // The service decides the kind from the bytes, never from a declared type, so the body is sent as
  // plain bytes whatever the browser thinks the file is.
  const headers: Record<string, string> = { 'Content-Type': 'application/octet-stream', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await globalThis.fetch(url, { method: 'PUT', headers, body: file, credentials: 'include', signal });
  } catch (cause) {
    throw new NetworkError('The vault could not be reached. Check your connection and try again.', { cause });
  }
  const text = await response.text().catch(() => '');
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    payload = undefined;
  }
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response.status, payload));
  return payload as CourtDocument;
}

/**
 * PUTs the file's bytes to the ticket's upload URL (through the gateway, streamed to the service).
 * A 401 (the token expired meanwhile) refreshes the session once and sends again: the gateway
 * refused it before any byte reached the service.
 */
export async function uploadCourtFile(ticket: CourtUploadTicket, file: Blob, signal?: AbortSignal): Promise<CourtDocument> {
  try {
    return await putOnce(ticket.uploadUrl, file, appSession.getAccessToken(), signal);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    if (!(await appSession.refresh().catch(() => false))) throw error;
    return putOnce(ticket.uploadUrl, file, appSession.getAccessToken(), signal);
  }
}

export interface CourtUploadInput {
  title: string;
  category: CourtCategory;
  /** The screen it is sent from: the /court-documents form, or a Court Journal card (which also takes .txt). */
  variant: CourtVariant;
  description?: string;
  file: File;
}

/** The whole upload: ask for a ticket (the fields are checked there), then send the bytes. */
export async function uploadCourtDocument(input: CourtUploadInput, signal?: AbortSignal): Promise<CourtDocument> {
  const request: StartCourtUploadRequest = { title: input.title, category: input.category, variant: input.variant, fileName: input.file.name, size: input.file.size };
  if (input.description) request.description = input.description;
  const ticket = await startCourtUpload(request);
  return uploadCourtFile(ticket, input.file, signal);
}
