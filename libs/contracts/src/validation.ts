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
  tooManySignIns: 'Too many sign-in attempts. Please wait a few minutes and try again, or use “Forgot password?” to choose a new password by e-mail and sign in now.',
  /** RATE_LIMITED of sign-up: accounts made from one address in an hour. */
  tooManySignUps: 'Too many accounts were created from this network recently. Please try again later.',
  /** A new password (sign-up, change, reset): NIST SP 800-63B asks for 8 characters at least. */
  newPasswordTooShort: 'Password must be at least 8 characters',
  /** A new password found in the list of common and breached passwords, or one character repeated. */
  passwordTooCommon: 'This password is too common and easy to guess. Please choose another one.',
} as const;

/** Changing the sign-in address: it takes effect only once the new address confirms; the old one can undo it. */
export const EmailChangeMessages = {
  sent: (email: string) => `We sent a confirmation link to ${email}. Your e-mail address changes when you open it (within 24 hours); until then you sign in with your current address.`,
  confirmed: 'Your e-mail address has been changed, and every other session of your account was signed out.',
  undone: 'The change of your e-mail address was undone and every session of your account was signed out. We sent a link to your address to choose a new password.',
} as const;

/**
 * Deleting the account (/settings, danger zone): in sudo mode, with the word typed, it is scheduled for
 * ACCOUNT_DELETION_GRACE_SECONDS (identity's setting, 7 days) later; until then the owner keeps it from Settings or the e-mailed link.
 */
export const AccountDeletionMessages = {
  /** What the owner types to confirm, exactly (letter case aside). */
  confirmationWord: 'DELETE',
  confirmationWrong: 'Type DELETE to confirm that you want to delete your account.',
  alreadyScheduled: 'Your account is already scheduled for deletion.',
  notScheduled: 'Your account is not scheduled for deletion.',
  scheduled: (date: string) => `Your account will be deleted on ${date}. Until then you can keep it: press "Keep my account" in Settings, or open the link we e-mailed you.`,
  kept: 'Your account is kept: its deletion was cancelled.',
} as const;

/**
 * Verifying the account's address (/verify-email, the banner): until it is verified the product sends
 * no e-mail on the owner's behalf (key e-mails, trustee invitations), and the screens that would say so.
 */
export const EmailVerifyMessages = {
  bannerTitle: 'Verify your e-mail address',
  bannerText: (email: string) => `We sent a link to ${email}. Until you open it, Legacy Vault sends no e-mail on your behalf: no access keys, no trustee invitations.`,
  resend: 'Resend verification e-mail',
  sent: (email: string) => `We sent a new verification link to ${email}. It works once, for 24 hours.`,
  alreadyVerified: 'Your e-mail address is already verified.',
  verified: 'Your e-mail address is verified. Access keys and trustee invitations can now be e-mailed for you.',
  tooManyResends: 'Too many verification e-mails. Please wait an hour and try again.',
  /** A key made while unverified: made, not e-mailed (the owner can copy and share it himself). */
  keyNotEmailed: 'Not e-mailed: verify your e-mail address first. Copy the key and share it yourself.',
} as const;

/** The "this wasn't me" link of a new-sign-in alert (/not-me). */
export const NewSignInMessages = {
  disowned: 'Every browser was signed out of your account. We sent a link to your address to choose a new password.',
} as const;

/** Forgot password (/auth) and the reset link's page: the same words whatever the address. */
export const ResetMessages = {
  requested: 'If an account uses this address, we have sent it a link to choose a new password. The link works once, for 30 minutes.',
  tooManyRequests: 'Too many password reset requests. Please wait a while and try again.',
  done: 'Your password has been changed and every session of your account was signed out. Please sign in with your new password.',
  passwordsDoNotMatch: 'The passwords do not match.',
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
/** Sign-in still takes the old 6-character passwords; every new one (sign-up, change, reset) needs 8. */
export const NEW_PASSWORD_MIN_LENGTH = 8;
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


/**
 * What is wrong with a new password (sign-up, change, reset), or undefined. Length counts characters as
 * a person sees them (code points); one character repeated is as weak as a listed password. identity
 * also checks its list of common and breached passwords, which the SPA does not ship.
 */
export function newPasswordProblem(password: string): string | undefined {
  if (!isSafeText(password)) return TextMessages.unsafe;
  if (!password) return AuthMessages.passwordRequired;
  if (password.trim() === '') return AuthMessages.passwordOnlySpaces;
  const characters = Array.from(password);
  if (characters.length < NEW_PASSWORD_MIN_LENGTH) return AuthMessages.newPasswordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (characters.every((c) => c === characters[0])) return AuthMessages.passwordTooCommon;
  return undefined;
}
