import { newPasswordProblem } from '@lv/contracts';

/** Sign-in / sign-up validation (owner-core spec, section 5 "Login / sign-up"). */
export const MIN_PASSWORD_LENGTH = 6;

export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
} as const;

export interface CredentialErrors {
  email?: string;
  password?: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

/**
 * Checked on submit; an empty object means the form may be sent. A new account's password follows the
 * new-password rules (8 characters at least; identity also refuses common ones), a sign-in's takes the
 * 6 characters older accounts were made with.
 */
export function validateCredentials({ email, password }: { email: string; password: string }, mode: 'login' | 'signup' = 'login'): CredentialErrors {
  const errors: CredentialErrors = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = VALIDATION_MESSAGES.emailRequired;
  else if (!isValidEmail(trimmed)) errors.email = VALIDATION_MESSAGES.emailInvalid;
  if (!password) errors.password = VALIDATION_MESSAGES.passwordRequired;
  else if (password.length < MIN_PASSWORD_LENGTH) errors.password = VALIDATION_MESSAGES.passwordTooShort;
  if (mode === 'signup' && password) {
    const problem = newPasswordProblem(password);
    if (problem) errors.password = problem;
  }
  return errors;
}

export interface PasswordRequirement {
  id: 'length' | 'lowercase' | 'uppercase' | 'number' | 'symbol';
  label: string;
  met: boolean;
}

/** The sign-up checklist: guidance only, never enforced on submit. */
export function passwordRequirements(password: string): PasswordRequirement[] {
  return [
    { id: 'length', label: 'At least 8 characters', met: Array.from(password).length >= 8 },
    { id: 'lowercase', label: 'One lowercase letter', met: /\p{Ll}/u.test(password) },
    { id: 'uppercase', label: 'One uppercase letter', met: /\p{Lu}/u.test(password) },
    { id: 'number', label: 'One number', met: /\p{Nd}/u.test(password) },
    { id: 'symbol', label: 'One special symbol', met: /[^\p{L}\p{N}\s]/u.test(password) },
  ];
}
