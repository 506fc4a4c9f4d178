import type {
  AccountSession, AccountSessions, SessionsEnded, ChangeEmailRequest, ChangePasswordReply, ChangePasswordRequest, NotificationPreferences, NotificationPreferencesView, UpdateProfileRequest, UserProfile, VerifyEmailReply,
  RecoveryCodes, TwoStepCodeRequest, TwoStepDisableRequest, TwoStepSetup, TwoStepStatus, SessionView,
} from '@lv/contracts';
import { api } from './api.js';
import { appSession } from './app-session.js';

export const settingsKeys = { notifications: ['settings', 'notifications'] as const, sessions: ['settings', 'sessions'] as const, twoStep: ['settings', 'two-step'] as const };

export type { AccountSession };

/** The account's signed-in browsers, this one marked `current`. */
export function fetchSessions(signal?: AbortSignal): Promise<AccountSessions> {
  return api.get<AccountSessions>('/api/me/sessions', { signal });
}

export function endSession(sessionId: string): Promise<SessionsEnded> {
  return api.request<SessionsEnded>(`/api/me/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' });
}

/** "Sign out everywhere else": every session but this one. */
export function endOtherSessions(): Promise<SessionsEnded> {
  return api.request<SessionsEnded>('/api/me/sessions/sign-out-others', { method: 'POST' });
}

/** "Resend verification e-mail": a new link to the account's address (the one before stops working); 429 past 3 an hour. */
export function resendVerification(): Promise<VerifyEmailReply> {
  return api.request<VerifyEmailReply>('/api/me/verify-email/resend', { method: 'POST' });
}

export const EXPORT_DOWNLOAD_PATH = '/api/me/export';

export function updateName(fullName: string): Promise<UserProfile> {
  const body: UpdateProfileRequest = { full_name: fullName };
  return api.request<UserProfile>('/api/me', { method: 'PATCH', body });
}

export function changeEmail(body: ChangeEmailRequest): Promise<UserProfile> {
  return api.request<UserProfile>('/api/me/email', { method: 'PUT', body });
}

/** Every other session of the account ends; this tab stays signed in. */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordReply> {
  return api.request<ChangePasswordReply>('/api/me/password', { method: 'PUT', body });
}

export function fetchNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferencesView> {
  return api.get<NotificationPreferencesView>('/api/me/notifications', { signal });
}

export function saveNotificationPreferences(preferences: NotificationPreferences): Promise<NotificationPreferencesView> {
  return api.request<NotificationPreferencesView>('/api/me/notifications', { method: 'PUT', body: preferences });
}

/**
 * Sudo mode: the password again. The new token (same session, a fresh proof) replaces the tab's, so the
 * refused action can be retried with it.
 */
export async function confirmIdentity(currentPassword: string): Promise<void> {
  const view = await api.post<SessionView>('/api/me/confirm-identity', { currentPassword });
  appSession.acceptConfirmedIdentity(view);
}

/**
 * Starts "Export Vault Data": the gateway sets a short-lived cookie for the download (a navigation
 * carries no Bearer header), then the browser saves the ZIP as it streams, never holding it in memory.
 */
export async function downloadVaultExport(start: (href: string) => void = clickDownload): Promise<void> {
  await api.request<void>('/api/me/export/session', { method: 'POST' });
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
  return api.get<TwoStepStatus>('/api/me/two-step', { signal });
}

/** A new secret for the app; nothing changes until its first code confirms it. */
export function startTwoStepSetup(): Promise<TwoStepSetup> {
  return api.request<TwoStepSetup>('/api/me/two-step/setup', { method: 'POST' });
}

/** Turns two-step sign-in on; the answer holds the ten recovery codes, this once. */
export function confirmTwoStep(body: TwoStepCodeRequest): Promise<RecoveryCodes> {
  return api.request<RecoveryCodes>('/api/me/two-step/confirm', { method: 'POST', body });
}

export function disableTwoStep(body: TwoStepDisableRequest): Promise<TwoStepStatus> {
  return api.request<TwoStepStatus>('/api/me/two-step/disable', { method: 'POST', body });
}

/** Ten new recovery codes (the old ones stop working), this once. */
export function regenerateRecoveryCodes(body: TwoStepCodeRequest): Promise<RecoveryCodes> {
  return api.request<RecoveryCodes>('/api/me/two-step/recovery-codes', { method: 'POST', body });
}
