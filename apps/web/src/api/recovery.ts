import type { EmailChangeLinkReply, EmailChangeLinkRequest, ForgotPasswordReply, ResetPasswordReply, ResetPasswordRequest, VerifyEmailReply, VerifyEmailRequest } from '@lv/contracts';
import { sendRequest } from './client.js';

// Account recovery: public calls, made without a session (no bearer token, no refresh on failure).
const post = <T>(path: string, body: unknown) => sendRequest<T>((input, init) => globalThis.fetch(input, init), path, { method: 'POST', body });

/** "Forgot password?": the answer is the same whether or not the address has an account. */
export function requestPasswordReset(email: string): Promise<ForgotPasswordReply> {
  return post<ForgotPasswordReply>('/api/auth/forgot-password', { email });
}

/** The reset link's page: a new password; every session of the account ends. */
export function resetPassword(body: ResetPasswordRequest): Promise<ResetPasswordReply> {
  return post<ResetPasswordReply>('/api/auth/reset-password', body);
}

/** The confirm link sent to a new address: the address changes; every other session ends. */
export function confirmEmailChange(body: EmailChangeLinkRequest): Promise<EmailChangeLinkReply> {
  return post<EmailChangeLinkReply>('/api/auth/confirm-email', body);
}

/** The "this wasn't me" link sent to the old address: it stays (or comes back), every session ends, a reset link follows. */
export function undoEmailChange(body: EmailChangeLinkRequest): Promise<EmailChangeLinkReply> {
  return post<EmailChangeLinkReply>('/api/auth/undo-email-change', body);
}

/** The "this wasn't me" link of a new-sign-in e-mail: every session ends, a reset link follows. */
export function disownSignIn(body: EmailChangeLinkRequest): Promise<EmailChangeLinkReply> {
  return post<EmailChangeLinkReply>('/api/auth/not-me', body);
}

/** The verification link e-mailed to a new account's address: the address is verified. */
export function verifyEmail(body: VerifyEmailRequest): Promise<VerifyEmailReply> {
  return post<VerifyEmailReply>('/api/auth/verify-email', body);
}
