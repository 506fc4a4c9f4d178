/**
 * Every domain error the system can report, with the HTTP status the gateway answers with and the
 * text a person sees. Services raise these codes; one filter per transport maps them.
 */
export const ErrorCodes = {
  VALIDATION_FAILED: { status: 400, message: 'Some fields are not valid.' },
  UNAUTHENTICATED: { status: 401, message: 'Not authenticated' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid login credentials' },
  SESSION_EXPIRED: { status: 401, message: 'Your session has expired. Please sign in again.' },
  FORBIDDEN: { status: 403, message: 'Access denied' },
  CROSS_SITE_REFUSED: { status: 403, message: 'This request came from another site and was refused. Open Legacy Vault directly and try again.' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists. Try logging in instead.' },
  CONFLICT: { status: 409, message: 'This was changed elsewhere. Reload to see the latest version.' },
  DUPLICATE_MEDIA: { status: 409, message: 'Duplicate: Recording already exists.' },
  /** The address itself cannot be read (broken percent-encoding such as %ED%A0%80, or %ZZ). */
  BAD_ADDRESS: { status: 400, message: 'This address is not valid. Check the link and try again.' },
  /** The request's headers or its body did not arrive in time (a stalled or very slow connection). */
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive. Please try again.' },
  /** The request's headers are larger than the server reads (usually too many or too large cookies). */
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large. Clear this site’s cookies and try again.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The file is too large.' },
  UNSUPPORTED_MEDIA: { status: 415, message: 'This file type is not supported.' },
  JSON_REQUIRED: { status: 415, message: 'The API accepts JSON bodies only (Content-Type: application/json).' },
  UPLOAD_INCOMPLETE: { status: 400, message: 'The recording did not arrive complete. Please try again.' },
  /** Redemption: unknown, expired, revoked or another vault's key, never saying which (spec 8). */
  INVALID_OR_EXPIRED_KEY: { status: 401, message: 'That access key is invalid, expired, or already used.' },
  /** A view session that ended (expired, revoked by the owner, closed): the viewer's words (spec 8). */
  VIEW_SESSION_ENDED: { status: 401, message: 'This access has expired or is invalid. Please request a new link.' },
  CONSENT_REQUIRED: { status: 400, message: 'Please read and accept the viewer disclaimer first.' },
  ALREADY_DECIDED: { status: 409, message: 'This request has already been answered.' },
  KEY_TAKEN: { status: 409, message: 'This key is already in use. Generate a new one.' },
  /** The owner turned his request link off: the request page shows this instead of the form (RequestLinkMessages.requestsClosed). */
  REQUESTS_CLOSED: { status: 403, message: 'This vault is not taking access requests at the moment. Please contact its owner directly.' },
  /** Each gate passes the plans table's words for its feature (planRequiredMessage); this is the fallback. */
  UPGRADE_REQUIRED: { status: 403, message: 'Your plan does not include this. See the plans on the pricing page.' },
  /** Neutral on purpose: each limit passes its own message (sign-in: AuthMessages.tooManySignIns). */
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please wait a few minutes and try again.' },
  /** The check-in link of an inactivity warning: forged, altered, expired or already used, never saying which. */
  CHECK_IN_LINK_INVALID: { status: 400, message: 'This check-in link is invalid, expired, or already used. Sign in to check in instead.' },
  /** A password reset link: used, expired, altered or another account's, never saying which. */
  RESET_LINK_INVALID: { status: 400, message: 'This password reset link is invalid, expired, or already used. Please ask for a new one.' },
  /** An e-mail change's link (confirm, or undo): used, expired, altered, replaced or another account's, never saying which. */
  EMAIL_CHANGE_LINK_INVALID: { status: 400, message: 'This e-mail change link is invalid, expired, or already used.' },
  /** An e-mail verification link: used, expired, altered, replaced or another account's, never saying which. */
  EMAIL_VERIFY_LINK_INVALID: { status: 400, message: 'This verification link is invalid, expired, or already used. Sign in and ask for a new one.' },
  /** Something that e-mails a third party on the owner's behalf, asked before his own address is verified. */
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Verify your e-mail address first: until then Legacy Vault sends no e-mail on your behalf.' },
  /** An account deletion's "keep my account" link: used, lapsed, altered, of a deletion undone since or another account's, never saying which. */
  ACCOUNT_DELETION_LINK_INVALID: { status: 400, message: 'This link is invalid, expired, or already used. Sign in to see whether your account is still scheduled for deletion.' },
  /** A new-sign-in alert's "this wasn't me" link: used, lapsed, altered or another account's, never saying which. */
  SIGN_IN_ALERT_LINK_INVALID: { status: 400, message: 'This link is invalid, expired, or already used. If someone else is in your account, choose a new password with "Forgot password?" on the sign-in page.' },
  /** Two-step sign-in's second step: a wrong, used or another account's code, a lapsed, altered, used or another account's challenge, never saying which (TwoStepMessages.signInRefused). */
  TWO_STEP_INVALID: { status: 401, message: 'That code is not valid, or this sign-in took too long. Check the code and try again, or sign in again with your password.' },
  /** A passkey's answer refused: an unknown, removed or another account's passkey, a bad signature, origin or counter, a lapsed or used challenge, never saying which (PasskeyMessages.refused). 400, not 401: the SPA's client takes a 401 for an ended session. */
  PASSKEY_INVALID: { status: 400, message: 'That passkey could not be used. Try again, or use your password.' },
  /** Sudo mode: a sensitive action, and this session's last proof of who he is is older than SUDO_WINDOW_SECONDS. */
  SUDO_REQUIRED: { status: 403, message: 'For your safety, enter your password again to continue.' },
  /** A trustee's e-mailed link: forged, altered, expired, used, replaced or of a removed trustee, never saying which. */
  TRUSTEE_LINK_INVALID: { status: 400, message: 'This trustee link is invalid, expired, or already used. Ask for a new one below.' },
  /** A trustee whose last report the owner vetoed, within 30 days of the veto. */
  TRUSTEE_REPORT_BLOCKED: { status: 403, message: 'The owner said he is still here. You cannot report again for 30 days after that.' },
  /** A trustee who has not accepted the role (invited, declined) cannot report. */
  TRUSTEE_NOT_ACCEPTED: { status: 403, message: 'Only a trustee who has accepted the role can report.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The vault is temporarily unavailable. Please try again in a moment.' },
  INTERNAL: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ErrorCodes;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCodes, value);
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The generic code for an HTTP status, for answers that carry no ErrorBody of their own (a framework
 * 404, a proxy's 503). Undefined where no single code fits; callers choose their own fallback.
 */
export function errorCodeForStatus(status: number): ErrorCode | undefined {
  return CODE_BY_STATUS[status];
}
