/**
 * Validation shared by the SPA, the gateway and identity, so a person sees the same words whichever
 * layer catches the problem (owner-core spec, section 5: login / sign-up).
 */
export const AuthMessages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  /** Sign-up only: a new password must hold something besides whitespace (sign-in takes whatever was typed). */
  passwordOnlySpaces: 'Password cannot be only spaces',
  /** RATE_LIMITED of sign-in (the shared error table's text is neutral). */
  tooManySignIns: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  /** RATE_LIMITED of sign-up: accounts made from one address in an hour. */
  tooManySignUps: 'Too many accounts were created from this network recently. Please try again later.',
} as const;

/**
 * PostgreSQL refuses U+0000 in text, and a lone surrogate (half of an emoji, \uD800-\uDFFF unpaired)
 * is not Unicode at all: both are refused wherever text is accepted, with this message, instead of
 * failing later as a server error.
 */
export const TextMessages = {
  unsafe: 'Text cannot contain control character U+0000 or broken characters.',
} as const;

// With the u flag a paired surrogate is one code point, so \p{Cs} matches only the unpaired halves.
const UNSAFE_TEXT = /\u0000|\p{Cs}/u;

/** True when the text holds neither U+0000 nor a lone surrogate. */
export function isSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID (any version): every id of the API is one, so anything else names nothing. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

export const PASSWORD_MIN_LENGTH = 6;
/** argon2 accepts long inputs, but there is no reason to hash megabytes sent by an attacker. */
export const PASSWORD_MAX_LENGTH = 256;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Returns per-field messages, or null when both fields are acceptable. */
export function validateCredentials(input: { email?: unknown; password?: unknown }): { email?: string; password?: string } | null {
  const errors: { email?: string; password?: string } = {};
  const email = typeof input.email === 'string' ? input.email.trim() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  if (!isSafeText(email)) errors.email = TextMessages.unsafe;
  else if (!email) errors.email = AuthMessages.emailRequired;
  else if (!EMAIL_PATTERN.test(email) || email.length > 254) errors.email = AuthMessages.emailInvalid;
  if (!isSafeText(password)) errors.password = TextMessages.unsafe;
  else if (!password) errors.password = AuthMessages.passwordRequired;
  else if (password.length < PASSWORD_MIN_LENGTH) errors.password = AuthMessages.passwordTooShort;
  else if (password.length > PASSWORD_MAX_LENGTH) errors.password = `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return Object.keys(errors).length ? errors : null;
}

