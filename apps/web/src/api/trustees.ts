import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type Trustee = Schema<'TrusteeDto'>;
export type AddTrusteeRequest = Schema<'AddTrusteeDto'>;
export type OpenTrusteeReport = Schema<'OpenTrusteeReportDto'>;
export type TrusteeLink = Schema<'TrusteeLinkDto'>;
export type TrusteeView = Schema<'TrusteeViewDto'>;
export type TrusteeAnswerRequest = Schema<'TrusteeAnswerDto'>;
export type TrusteeReportKind = Schema<'TrusteeReportDto'>['kind'];

export const trusteeKeys = { list: ['if-im-not-there', 'trustees'] as const, report: ['if-im-not-there', 'trustee-report'] as const };

/** The owner's trustees (the delivery settings' single trustee, if any, first and not yet invited). */
export function fetchTrustees(signal?: AbortSignal): Promise<Trustee[]> {
  return http.get('/api/if-im-not-there/trustees', { signal });
}

/** Names a trustee under the browser's id for them (a retried add adds and invites once); the invitation is e-mailed. */
export function addTrustee(trustee: AddTrusteeRequest): Promise<Trustee> {
  return http.post('/api/if-im-not-there/trustees', { body: trustee });
}

/** The invitation again, with a new link (the old one stops working). */
export function resendTrusteeInvitation(id: string): Promise<Trustee> {
  return http.post('/api/if-im-not-there/trustees/{id}/invitation', { path: { id } });
}

export function removeTrustee(id: string): Promise<Trustee> {
  return http.del('/api/if-im-not-there/trustees/{id}', { path: { id } });
}

/** The owner's side: a trustee's report under way (the banner) or null, and every report so far, newest first. */
export function fetchTrusteeReport(signal?: AbortSignal): Promise<OpenTrusteeReport> {
  return http.get('/api/if-im-not-there/trustee-report', { signal });
}

/** "I'm still here": the report ends and the delivery it started is cancelled. */
export function vetoTrusteeReport(): Promise<Schema<'TrusteeReportVetoedDto'>> {
  return http.post('/api/if-im-not-there/trustee-report/veto');
}

/** The trustee's page (public): the e-mailed link's signed parameters, as they came. */
export function viewAsTrustee(link: TrusteeLink): Promise<TrusteeView> {
  return http.post('/api/trustee/view', { body: link });
}

export function answerAsTrustee(answer: TrusteeAnswerRequest): Promise<TrusteeView> {
  return http.post('/api/trustee/answer', { body: answer });
}

/** An accepted trustee's report (what happened, an optional note): the owner is told and may veto. */
export function reportAsTrustee(link: TrusteeLink, kind: TrusteeReportKind, note: string): Promise<TrusteeView> {
  return http.post('/api/trustee/report', { body: { ...link, kind, note } });
}

/** "Send me my trustee link": the same answer whether or not the address is a trustee's. */
export function requestTrusteeLink(email: string): Promise<Schema<'TrusteeLinkRequestReplyDto'>> {
  return http.post('/api/trustee/link', { body: { email } });
}
