import { http } from './api.js';
import { appSession } from './app-session.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts), under the names the screens use.
export type AccountSessions = Schema<'AccountSessionsDto'>;
export type AccountSession = AccountSessions['sessions'][number];
export type SessionsEnded = Schema<'SessionsEndedDto'>;
export type VerifyEmailReply = Schema<'VerifyEmailReplyDto'>;
export type UserProfile = Schema<'UserProfileDto'>;
export type ChangeEmailRequest = Schema<'ChangeEmailDto'>;
export type ChangePasswordRequest = Schema<'ChangePasswordDto'>;
export type ChangePasswordReply = Schema<'ChangePasswordReplyDto'>;
export type NotificationPreferencesView = Schema<'NotificationPreferencesDto'>;
export type NotificationPreferences = Schema<'SaveNotificationPreferencesDto'>;
export type TwoStepStatus = Schema<'TwoStepStatusDto'>;
export type TwoStepSetup = Schema<'TwoStepSetupDto'>;
export type TwoStepCodeRequest = Schema<'TwoStepCodeDto'>;
export type TwoStepDisableRequest = Schema<'TwoStepDisableDto'>;
export type RecoveryCodes = Schema<'RecoveryCodesDto'>;

export const settingsKeys = { notifications: ['settings', 'notifications'] as const, sessions: ['settings', 'sessions'] as const, twoStep: ['settings', 'two-step'] as const };

/** The account's signed-in browsers, this one marked `current`. */
export function fetchSessions(signal?: AbortSignal): Promise<AccountSessions> {
  return http.get('/api/me/sessions', { signal });
}

export function endSession(sessionId: string): Promise<SessionsEnded> {
  return http.del('/api/me/sessions/{sessionId}', { path: { sessionId } });
}

/** "Sign out everywhere else": every session but this one. */
export function endOtherSessions(): Promise<SessionsEnded> {
  return http.post('/api/me/sessions/sign-out-others');
}

/** "Resend verification e-mail": a new link to the account's address (the one before stops working); 429 past 3 an hour. */
export function resendVerification(): Promise<VerifyEmailReply> {
  return http.post('/api/me/verify-email/resend');
}

export const EXPORT_DOWNLOAD_PATH = '/api/me/export';

export function updateName(fullName: string): Promise<UserProfile> {
  return http.patch('/api/me', { body: { full_name: fullName } });
}

export function changeEmail(body: ChangeEmailRequest): Promise<UserProfile> {
  return http.put('/api/me/email', { body });
}

/** Every other session of the account ends; this tab stays signed in. */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordReply> {
  return http.put('/api/me/password', { body });
}

export function fetchNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferencesView> {
  return http.get('/api/me/notifications', { signal });
}

export function saveNotificationPreferences(preferences: NotificationPreferences): Promise<NotificationPreferencesView> {
  return http.put('/api/me/notifications', { body: preferences });
}

/**
 * Sudo mode: the password again. The new token (same session, a fresh proof) replaces the tab's, so the
 * refused action can be retried with it.
 */
export async function confirmIdentity(currentPassword: string): Promise<void> {
  const view = await http.post('/api/me/confirm-identity', { body: { currentPassword } });
  appSession.acceptConfirmedIdentity(view);
}

/**
 * Starts "Export Vault Data": the gateway sets a short-lived cookie for the download (a navigation
 * carries no Bearer header), then the browser saves the ZIP as it streams, never holding it in memory.
 */
export async function downloadVaultExport(start: (href: string) => void = clickDownload): Promise<void> {
  await http.post('/api/me/export/session');
  start(EXPORT_DOWNLOAD_PATH);
}

function clickDownload(href: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

// Two-step sign-in with an authenticator app.

export function fetchTwoStepStatus(signal?: AbortSignal): Promise<TwoStepStatus> {
  return http.get('/api/me/two-step', { signal });
}

/** A new secret for the app; nothing changes until its first code confirms it. */
export function startTwoStepSetup(): Promise<TwoStepSetup> {
  return http.post('/api/me/two-step/setup');
}

/** Turns two-step sign-in on; the answer holds the ten recovery codes, this once. */
export function confirmTwoStep(body: TwoStepCodeRequest): Promise<RecoveryCodes> {
  return http.post('/api/me/two-step/confirm', { body });
}

export function disableTwoStep(body: TwoStepDisableRequest): Promise<TwoStepStatus> {
  return http.post('/api/me/two-step/disable', { body });
}

/** Ten new recovery codes (the old ones stop working), this once. */
export function regenerateRecoveryCodes(body: TwoStepCodeRequest): Promise<RecoveryCodes> {
  return http.post('/api/me/two-step/recovery-codes', { body });
}
