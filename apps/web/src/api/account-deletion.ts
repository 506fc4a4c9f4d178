import type { AccountDeletionRequest, AccountDeletionStatus, EmailChangeLinkRequest } from '@lv/contracts';
import { api } from './api.js';
import { sendRequest } from './client.js';

export const accountDeletionKey = ['settings', 'account-deletion'] as const;

/** Whether the signed-in account is scheduled for deletion, and when. */
export function fetchAccountDeletion(signal?: AbortSignal): Promise<AccountDeletionStatus> {
  return api.get<AccountDeletionStatus>('/api/me/account-deletion', { signal });
}

/** Schedules the deletion (sudo mode: the client asks for the password again when the gateway says so). */
export function requestAccountDeletion(body: AccountDeletionRequest): Promise<AccountDeletionStatus> {
  return api.post<AccountDeletionStatus>('/api/me/account-deletion', body);
}

/** "Keep my account", signed in. */
export function keepAccount(): Promise<AccountDeletionStatus> {
  return api.request<AccountDeletionStatus>('/api/me/account-deletion', { method: 'DELETE' });
}

/** "Keep my account" from the e-mailed link: public, its token is the proof (no session needed). */
export function keepAccountByLink(body: EmailChangeLinkRequest): Promise<AccountDeletionStatus> {
  return sendRequest<AccountDeletionStatus>((input, init) => globalThis.fetch(input, init), '/api/auth/keep-account', { method: 'POST', body });
}
