import type { AddTrusteeRequest, Trustee, TrusteeAnswerRequest, TrusteeLink, TrusteeReport, TrusteeReportHistoryEntry, TrusteeReportKind, TrusteeView } from '@lv/contracts';
import { api } from './api.js';

export const trusteeKeys = { list: ['if-im-not-there', 'trustees'] as const, report: ['if-im-not-there', 'trustee-report'] as const };

/** The owner's trustees (the delivery settings' single trustee, if any, first and not yet invited). */
export function fetchTrustees(signal?: AbortSignal): Promise<Trustee[]> {
  return api.get<Trustee[]>('/api/if-im-not-there/trustees', { signal });
}

/** Names a trustee under the browser's id for them (a retried add adds and invites once); the invitation is e-mailed. */
export function addTrustee(trustee: AddTrusteeRequest): Promise<Trustee> {
  return api.request<Trustee>('/api/if-im-not-there/trustees', { method: 'POST', body: trustee });
}

/** The invitation again, with a new link (the old one stops working). */
export function resendTrusteeInvitation(id: string): Promise<Trustee> {
  return api.request<Trustee>(`/api/if-im-not-there/trustees/${encodeURIComponent(id)}/invitation`, { method: 'POST' });
}

export function removeTrustee(id: string): Promise<Trustee> {
  return api.request<Trustee>(`/api/if-im-not-there/trustees/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The owner's side: a trustee's report under way (the banner) or null, and every report so far, newest first. */
export function fetchTrusteeReport(signal?: AbortSignal): Promise<{ report: TrusteeReport | null; history: TrusteeReportHistoryEntry[] }> {
  return api.get<{ report: TrusteeReport | null; history: TrusteeReportHistoryEntry[] }>('/api/if-im-not-there/trustee-report', { signal });
}

/** "I'm still here": the report ends and the delivery it started is cancelled. */
export function vetoTrusteeReport(): Promise<{ message: string }> {
  return api.request<{ message: string }>('/api/if-im-not-there/trustee-report/veto', { method: 'POST' });
}

/** The trustee's page (public): the e-mailed link's signed parameters, as they came. */
export function viewAsTrustee(link: TrusteeLink): Promise<TrusteeView> {
  return api.request<TrusteeView>('/api/trustee/view', { method: 'POST', body: link });
}

export function answerAsTrustee(answer: TrusteeAnswerRequest): Promise<TrusteeView> {
  return api.request<TrusteeView>('/api/trustee/answer', { method: 'POST', body: answer });
}

/** An accepted trustee's report (what happened, an optional note): the owner is told and may veto. */
export function reportAsTrustee(link: TrusteeLink, kind: TrusteeReportKind, note: string): Promise<TrusteeView> {
  return api.request<TrusteeView>('/api/trustee/report', { method: 'POST', body: { ...link, kind, note } });
}

/** "Send me my trustee link": the same answer whether or not the address is a trustee's. */
export function requestTrusteeLink(email: string): Promise<{ message: string }> {
  return api.request<{ message: string }>('/api/trustee/link', { method: 'POST', body: { email } });
}
