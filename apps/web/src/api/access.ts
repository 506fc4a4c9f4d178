import type { ViewSection } from '@lv/contracts';
import { http } from './api.js';
import { bareHttp, type Schema } from './typed-api.js';

// Family access. The owner's calls go through `http` (bearer token, refresh on 401). The request
// form, redemption and the viewer's calls are sent bare (bareHttp): a family member has no session
// to refresh, and a refused key must never sign a parent out of his own tab. Every call and shape is
// the gateway's OpenAPI document's (openapi.gen.ts).

export type SubmitAccessRequestBody = Schema<'SubmitAccessRequestDto'>;
export type RequestFormInfo = Schema<'RequestFormInfoDto'>;
export type ViewerConsent = Schema<'ViewerConsentDto'>;
export type RedeemKeyBody = Schema<'RedeemKeyDto'>;
export type OpenedViewSession = Schema<'OpenedViewSessionDto'>;
export type KeyStatusBody = Schema<'KeyStatusDto'>;
export type KeyStatusReply = Schema<'KeyStatusReplyDto'>;
export type ViewerTokenGrant = Schema<'ViewerTokenGrantDto'>;
export type ViewerEntry = Schema<'ViewerEntryDto'>;
export type AccessRequestPage = Schema<'AccessRequestPageDto'>;
export type AccessRequest = Schema<'AccessRequestDto'>;
export type RequestSetting = Schema<'RequestSettingDto'>;
export type RequestSettingReply = Schema<'RequestSettingReplyDto'>;
export type ApproveAccessRequestBody = Schema<'ApproveAccessRequestDto'>;
export type IssuedAccessKey = Schema<'IssuedAccessKeyDto'>;
export type AccessKeySummary = Schema<'AccessKeySummaryDto'>;
export type KeyDraft = Schema<'KeyDraftDto'>;
export type CreateAccessKeyBody = Schema<'CreateAccessKeyDto'>;
export type ViewSessionSummary = Schema<'ViewSessionSummaryDto'>;
type ReleasedLetter = Schema<'LetterDto'>;

export const accessKeys = {
  requests: ['access', 'requests'] as const,
  keys: ['access', 'keys'] as const,
  sessions: ['access', 'sessions'] as const,
  consent: ['access', 'consent'] as const,
  requestSetting: ['access', 'request-setting'] as const,
};

// --- public ---------------------------------------------------------------------------------------

export function submitAccessRequest(body: SubmitAccessRequestBody, token?: string | null): Promise<Schema<'SubmitAccessRequestReplyDto'>> {
  return bareHttp(token).post('/api/access/requests', { body });
}

/** A request link's vault (issue 28): whether it takes requests, and whose it is. */
export function fetchRequestForm(ownerId: string, signal?: AbortSignal): Promise<RequestFormInfo> {
  return bareHttp().get('/api/access/request-form/{id}', { path: { id: ownerId }, signal });
}

export function fetchConsent(signal?: AbortSignal): Promise<ViewerConsent> {
  return bareHttp().get('/api/access/consent', { signal });
}

export function redeemAccessKey(body: RedeemKeyBody): Promise<OpenedViewSession> {
  return bareHttp().post('/api/view/redeem', { body });
}

/** A key's landing page, before the disclaimer: active, expired or revoked, and whose vault (issue 28). */
export function checkKeyStatus(body: KeyStatusBody, signal?: AbortSignal): Promise<KeyStatusReply> {
  return bareHttp().post('/api/view/key-status', { body, signal });
}

export function exchangeViewSession(session: string): Promise<ViewerTokenGrant> {
  return bareHttp().post('/api/view/token', { body: { session } });
}

export function closeViewSession(session: string): Promise<void> {
  return bareHttp().post('/api/view/close', { body: { session } });
}

/** The one letter a milestone key opens (its grant names it). */
export function fetchReleasedLetter(viewerToken: string, signal?: AbortSignal): Promise<ReleasedLetter> {
  return bareHttp(viewerToken).get('/api/view/letter', { signal });
}

export function fetchViewerEntries(section: ViewSection, viewerToken: string, signal?: AbortSignal): Promise<ViewerEntry[]> {
  return bareHttp(viewerToken).get('/api/view/entries/{section}', { path: { section }, signal });
}

// --- owner ----------------------------------------------------------------------------------------

export function fetchPendingRequests(signal?: AbortSignal): Promise<AccessRequestPage> {
  return http.get('/api/access/requests', { query: { status: 'pending' }, signal });
}

/** The owner's switch for his request link (issue 28). */
export function fetchRequestSetting(signal?: AbortSignal): Promise<RequestSettingReply> {
  return http.get('/api/access/request-setting', { signal });
}

export function saveRequestSetting(body: RequestSetting): Promise<RequestSettingReply> {
  return http.put('/api/access/request-setting', { body });
}

export function approveAccessRequest(id: string, body: ApproveAccessRequestBody = {}): Promise<IssuedAccessKey> {
  return http.post('/api/access/requests/{id}/approve', { path: { id }, body });
}

export function declineAccessRequest(id: string): Promise<AccessRequest> {
  return http.post('/api/access/requests/{id}/decline', { path: { id } });
}

export function fetchAccessKeys(signal?: AbortSignal): Promise<AccessKeySummary[]> {
  return http.get('/api/access/keys', { signal });
}

/** "Generate Access Key": the server makes the key; Save sends it back with this draft. */
export function draftAccessKey(): Promise<KeyDraft> {
  return http.post('/api/access/keys/draft');
}

export function createAccessKey(body: CreateAccessKeyBody): Promise<IssuedAccessKey> {
  return http.post('/api/access/keys', { body });
}

export function revokeAccessKey(id: string): Promise<AccessKeySummary> {
  return http.post('/api/access/keys/{id}/revoke', { path: { id } });
}

export function fetchViewSessions(signal?: AbortSignal): Promise<ViewSessionSummary[]> {
  return http.get('/api/access/sessions', { signal });
}

export function revokeViewSession(id: string): Promise<ViewSessionSummary> {
  return http.post('/api/access/sessions/{id}/revoke', { path: { id } });
}
