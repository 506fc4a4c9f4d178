import { z } from 'zod';

/** The sign-in / sign-up messages are the spec's exact texts (owner-core spec, section 5). */
export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooLong: 'Password must be at most 1024 characters',
  passwordOnlySpaces: 'Password cannot be only spaces',
} as const;

export const MIN_PASSWORD_LENGTH = 6;

/** Email: required, trimmed and lower-cased before it is checked and forwarded. */
const email = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }));

/** Password: sent as typed (never trimmed). The sign-up checklist (8+, mixed case...) is guidance only. */
const password = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(MIN_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(1024, AUTH_MESSAGES.passwordTooLong);

export const credentialsSchema = z.object({ email, password });

/** A new password must hold something besides whitespace (sign-in still takes whatever was typed). */
export const signUpSchema = z.object({ email, password: password.refine((value) => value.trim() !== '', AUTH_MESSAGES.passwordOnlySpaces) });
