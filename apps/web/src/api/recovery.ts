import { bareHttp, type Schema } from './typed-api.js';

// Account recovery: public calls, made without a session (no bearer token, no refresh on failure).
// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type ResetPasswordRequest = Schema<'ResetPasswordDto'>;
export type EmailChangeLinkRequest = Schema<'EmailChangeLinkDto'>;
export type EmailChangeLinkReply = Schema<'EmailChangeLinkReplyDto'>;
export type VerifyEmailRequest = Schema<'VerifyEmailDto'>;

/** "Forgot password?": the answer is the same whether or not the address has an account. */
export function requestPasswordReset(email: string): Promise<Schema<'ForgotPasswordReplyDto'>> {
  return bareHttp().post('/api/auth/forgot-password', { body: { email } });
}

/** The reset link's page: a new password; every session of the account ends. */
export function resetPassword(body: ResetPasswordRequest): Promise<Schema<'ResetPasswordReplyDto'>> {
  return bareHttp().post('/api/auth/reset-password', { body });
}

/** The confirm link sent to a new address: the address changes; every other session ends. */
export function confirmEmailChange(body: EmailChangeLinkRequest): Promise<EmailChangeLinkReply> {
  return bareHttp().post('/api/auth/confirm-email', { body });
}

/** The "this wasn't me" link sent to the old address: it stays (or comes back), every session ends, a reset link follows. */
export function undoEmailChange(body: EmailChangeLinkRequest): Promise<EmailChangeLinkReply> {
  return bareHttp().post('/api/auth/undo-email-change', { body });
}

/** The "this wasn't me" link of a new-sign-in e-mail: every session ends, a reset link follows. */
export function disownSignIn(body: EmailChangeLinkRequest): Promise<EmailChangeLinkReply> {
  return bareHttp().post('/api/auth/not-me', { body });
}

/** The verification link e-mailed to a new account's address: the address is verified. */
export function verifyEmail(body: VerifyEmailRequest): Promise<Schema<'VerifyEmailReplyDto'>> {
  return bareHttp().post('/api/auth/verify-email', { body });
}
