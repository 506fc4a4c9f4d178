import { ApiError } from '../../api/client.js';

export const AUTH_ERROR_TITLE = 'Authentication Error';
export const AUTH_ERROR_FALLBACK = 'An error occurred during authentication';

/**
 * The toast description for a failed sign-in or sign-up: the server's message from its ErrorBody
 * (wrong credentials, email taken, 429 "Too many sign-in attempts..."), or a generic text.
 */
export function authErrorDescription(error: unknown): string {
  if (error instanceof ApiError && error.body.message.trim()) return error.body.message;
  return AUTH_ERROR_FALLBACK;
}

/** Per-field messages a VALIDATION_FAILED answer may carry for the email and password fields. */
export function serverFieldErrors(error: unknown): { email?: string; password?: string } {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED' || !error.body.fields) return {};
  const { email, password } = error.body.fields;
  return { ...(email ? { email } : {}), ...(password ? { password } : {}) };
}
