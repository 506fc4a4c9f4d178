import { http } from './api.js';
import { bareHttp, type Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type AccountDeletionStatus = Schema<'AccountDeletionStatusDto'>;
export type AccountDeletionRequest = Schema<'AccountDeletionDto'>;
export type KeepAccountLink = Schema<'EmailChangeLinkDto'>;

export const accountDeletionKey = ['settings', 'account-deletion'] as const;

/** Whether the signed-in account is scheduled for deletion, and when. */
export function fetchAccountDeletion(signal?: AbortSignal): Promise<AccountDeletionStatus> {
  return http.get('/api/me/account-deletion', { signal });
}

/** Schedules the deletion (sudo mode: the client asks for the password again when the gateway says so). */
export function requestAccountDeletion(body: AccountDeletionRequest): Promise<AccountDeletionStatus> {
  return http.post('/api/me/account-deletion', { body });
}

/** "Keep my account", signed in. */
export function keepAccount(): Promise<AccountDeletionStatus> {
  return http.del('/api/me/account-deletion');
}

/** "Keep my account" from the e-mailed link: public, its token is the proof (no session needed). */
export function keepAccountByLink(body: KeepAccountLink): Promise<AccountDeletionStatus> {
  return bareHttp().post('/api/auth/keep-account', { body });
}
