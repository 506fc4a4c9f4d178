import type {
  AccessKeySummary, AccessRequest, AccessRequestPage, RequestFormInfo, RequestSetting, ApproveAccessRequestBody, CreateAccessKeyBody, IssuedAccessKey, KeyDraft, KeyStatusReply, Letter, OpenedViewSession, SubmitAccessRequestBody,
  ViewerConsent, ViewerEntry, ViewerTokenGrant, ViewSection, ViewSessionSummary,
} from '@lv/contracts';
import { api } from './api.js';
import { sendRequest } from './client.js';

// Family access. The owner's calls go through `api` (bearer token, refresh on 401). The request
// form, redemption and the viewer's calls are sent bare (sendRequest): a family member has no session
// to refresh, and a refused key must never sign a parent out of his own tab.

const fetchImpl = (input: string, init?: RequestInit) => globalThis.fetch(input, init);

export const accessKeys = {
  requests: ['access', 'requests'] as const,
  keys: ['access', 'keys'] as const,
  sessions: ['access', 'sessions'] as const,
  consent: ['access', 'consent'] as const,
  requestSetting: ['access', 'request-setting'] as const,
};

// --- public ---------------------------------------------------------------------------------------

export function submitAccessRequest(body: SubmitAccessRequestBody, token?: string | null): Promise<{ success: true }> {
  return sendRequest(fetchImpl, '/api/access/requests', { method: 'POST', body, token });
}

/** A request link's vault (issue 28): whether it takes requests, and whose it is. */
export function fetchRequestForm(ownerId: string, signal?: AbortSignal): Promise<RequestFormInfo> {
  return sendRequest(fetchImpl, `/api/access/request-form/${encodeURIComponent(ownerId)}`, { signal });
}

export function fetchConsent(signal?: AbortSignal): Promise<ViewerConsent> {
  return sendRequest(fetchImpl, '/api/access/consent', { signal });
}

export function redeemAccessKey(body: { access_key: string; owner: string | null; consent: { version: string; text_hash: string } }): Promise<OpenedViewSession> {
  return sendRequest(fetchImpl, '/api/view/redeem', { method: 'POST', body });
}

/** A key's landing page, before the disclaimer: active, expired or revoked, and whose vault (issue 28). */
export function checkKeyStatus(body: { access_key: string; owner: string | null }, signal?: AbortSignal): Promise<KeyStatusReply> {
  return sendRequest(fetchImpl, '/api/view/key-status', { method: 'POST', body, signal });
}

export function exchangeViewSession(session: string): Promise<ViewerTokenGrant> {
  return sendRequest(fetchImpl, '/api/view/token', { method: 'POST', body: { session } });
}

export function closeViewSession(session: string): Promise<void> {
  return sendRequest(fetchImpl, '/api/view/close', { method: 'POST', body: { session } });
}

/** The one letter a milestone key opens (its grant names it). */
export function fetchReleasedLetter(viewerToken: string, signal?: AbortSignal): Promise<Letter> {
  return sendRequest(fetchImpl, '/api/view/letter', { token: viewerToken, signal });
}

export function fetchViewerEntries(section: ViewSection, viewerToken: string, signal?: AbortSignal): Promise<ViewerEntry[]> {
  return sendRequest(fetchImpl, `/api/view/entries/${section}`, { token: viewerToken, signal });
}

// --- owner ----------------------------------------------------------------------------------------

export function fetchPendingRequests(signal?: AbortSignal): Promise<AccessRequestPage> {
  return api.get('/api/access/requests?status=pending', { signal });
}

/** The owner's switch for his request link (issue 28). */
export function fetchRequestSetting(signal?: AbortSignal): Promise<RequestSetting> {
  return api.get('/api/access/request-setting', { signal });
}

export function saveRequestSetting(body: RequestSetting): Promise<RequestSetting> {
  return api.request('/api/access/request-setting', { method: 'PUT', body });
}

export function approveAccessRequest(id: string, body: ApproveAccessRequestBody = {}): Promise<IssuedAccessKey> {
  return api.post(`/api/access/requests/${encodeURIComponent(id)}/approve`, body);
}

export function declineAccessRequest(id: string): Promise<AccessRequest> {
  return api.post(`/api/access/requests/${encodeURIComponent(id)}/decline`);
}

export function fetchAccessKeys(signal?: AbortSignal): Promise<AccessKeySummary[]> {
  return api.get('/api/access/keys', { signal });
}

/** "Generate Access Key": the server makes the key; Save sends it back with this draft. */
export function draftAccessKey(): Promise<KeyDraft> {
  return api.post('/api/access/keys/draft');
}

export function createAccessKey(body: CreateAccessKeyBody): Promise<IssuedAccessKey> {
  return api.post('/api/access/keys', body);
}

export function revokeAccessKey(id: string): Promise<AccessKeySummary> {
  return api.post(`/api/access/keys/${encodeURIComponent(id)}/revoke`);
}

export function fetchViewSessions(signal?: AbortSignal): Promise<ViewSessionSummary[]> {
  return api.get('/api/access/sessions', { signal });
}

export function revokeViewSession(id: string): Promise<ViewSessionSummary> {
  return api.post(`/api/access/sessions/${encodeURIComponent(id)}/revoke`);
}
