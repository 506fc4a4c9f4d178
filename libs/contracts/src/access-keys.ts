import { readKeyLink } from './key-links.js';

/**
 * Family access (spec 02, sections 2-9): access requests, access keys, view sessions and the consent
 * a viewer gives before the first view. Types and constants only (the SPA imports them without zod);
 * the wire schemas are in access-keys.schemas.ts.
 */

/** The five parts of a vault a key can open (the viewer's tabs), in the viewer's order. */
export const VIEW_SECTIONS = ['timeline', 'letters', 'court-journal', 'who-i-am', 'if-im-not-there'] as const;
export type ViewSection = (typeof VIEW_SECTIONS)[number];

/** Spec 9: an approved key and a view session both live 30 days. */
export const ACCESS_KEY_LIFETIME_DAYS = 30;
export const VIEW_SESSION_LIFETIME_DAYS = 30;
/** Generate Keys tab: "Expiry days default to 30"; an owner may choose 1 to 365. */
export const KEY_EXPIRY_DAYS_DEFAULT = 30;
export const KEY_EXPIRY_DAYS_MIN = 1;
export const KEY_EXPIRY_DAYS_MAX = 365;
/** Spec 9: pending list page size. */
export const PENDING_REQUESTS_PAGE_SIZE = 50;

/** Redemption and session exchange: failures per client address per minute before 429. */
export const REDEEM_FAILURES_PER_MINUTE = 5;
/** Public request form: submissions per client address per hour. */
export const ACCESS_REQUESTS_PER_HOUR = 10;

export const ACCESS_FIELD_MAX = {
  email: 254,
  name: 100,
  relationship: 100,
  message: 2000,
  childName: 100,
  keyName: 100,
} as const;

/** Spec 5: "a UUID of versions 1 to 5 in the standard form (case-insensitive)". */
export const ACCESS_KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const isAccessKeyFormat = (value: string): boolean => ACCESS_KEY_PATTERN.test(value.trim());

/**
 * The key in what a person pasted: the text itself, or, when it is a link, its `k`, `token` or `key`
 * parameter (spec 5), in the fragment or the query. Undefined when a link carries none of them.
 */
export function extractAccessKey(input: string): string | undefined {
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) return text;
  try {
    // A link's fragment (`#k=`, key-links.ts) or, for e-mails sent before it, its query.
    return readKeyLink(new URL(text), ['k', 'token', 'key']).key ?? undefined;
  } catch {
    return undefined;
  }
}

/** Spec 6: the consent a recipient accepts before viewing (UK and EU data protection and misuse warning). */
export const CONSENT_VERSION = 'v1.0';
export const VIEWER_CONSENT_TEXT =
  'You are about to view private material that a parent has chosen to share with you. It may contain personal data about him, ' +
  'his children and other people, protected by the UK GDPR, the Data Protection Act 2018 and the EU General Data Protection ' +
  'Regulation. View it only for yourself and for the purpose it was shared with you. Do not copy, record, publish or pass it on, ' +
  'and do not use it against anyone: misuse may be unlawful. Your access, the time of each view and this agreement are recorded ' +
  'and can be seen by the vault owner.';

/** How a key came to be: approving a request, or the owner's Generate Keys tab. */
/** Who a key came from: an approved request, the owner's Generate Keys tab, an emergency contact's toggle, or a vault delivery. */
/** `milestone`: a key limited to one letter, issued to its recipient on the day it was sealed until. */
export const ACCESS_KEY_SOURCES = ['request', 'owner', 'contact', 'delivery', 'milestone'] as const;
export type AccessKeySource = (typeof ACCESS_KEY_SOURCES)[number];

/**
 * Spec strings of the access pages, the viewer and the owner's screens (sections 2, 5 and 8), word
 * for word: the server's validation and the SPA both use them.
 */
export const AccessMessages = {
  /** Spec 5 named an environment variable here; a family member gets plain words (issue 28). */
  missingOwner: "To ask for access you need the vault owner's request link. Please ask them to send it to you: they find it in Legacy Vault, under Access Control.",
  emailRequired: 'Please provide your email address.',
  emailInvalid: 'Please enter a valid email address.',
  relationshipRequired: 'Please specify your relationship.',
  reasonRequired: 'Please provide a reason for access.',
  childDobInvalid: 'Please enter the child’s date of birth as a real, past date.',
  fieldTooLong: 'This is too long.',
  submitted: '✅ Your request was submitted. You’ll receive an email if it’s approved.',
  submitFailed: (status: number, detail: string) => `❌ Submit failed (${status}): ${detail}`,
  failedToSubmit: (message: string) => `❌ Failed to submit: ${message}`,
  unknownError: 'Unknown error occurred',
  tooManyRequests: 'Too many requests from this address. Please wait an hour and try again.',
  submissionReused: 'This form was already sent with other details. Please reload the page and send it again.',

  keyEmpty: 'Paste your access key (or the full link).',
  keyMalformed: 'That doesn’t look like a valid access key.',
  keyInvalid: 'That access key is invalid, expired, or already used.',
  tooManyKeyAttempts: 'Too many attempts. Please wait a minute and try again.',
  consentRequired: 'Please read and accept the viewer disclaimer first.',
  viewExpired: 'This access has expired or is invalid. Please request a new link.',
  noViewSession: 'No view session. Open this page from a valid access key link.',
  noSessionId: 'No session id returned.',
  sessionFailed: 'Failed to create a view session.',
  accessCleared: 'Access cleared. Paste a new key or open a fresh link.',
  missingOwnerOrToken: 'Missing owner or token in URL.',
  linkNoLongerValid: 'This access link is no longer valid.',
  noKeyProvided: '❌ No access key provided.',
  redeemFailed: (error: string) => `❌ Redeem failed: ${error}`,
  unexpectedResponse: '❌ Unexpected response. Please contact support.',
  redeemError: (message: string) => `❌ Error: ${message}`,
  sectionNotShared: 'This part of the vault was not shared with you.',
  allowDownloadInvalid: 'Choose whether downloads are allowed.',

  notSignedIn: 'Not signed in. Please log in again.',
  approveFailed: 'Approve failed',
  alreadyDecided: 'This request has already been answered.',
  keyCopied: 'Key copied to clipboard.',
  missingName: 'Missing name: Please enter the family member name.',
  missingEmail: 'Missing email: Please enter the recipient email.',
  noKeyGenerated: 'No key generated: Click "Generate Access Key" first.',
  keyExpiryInvalid: `Expiry must be a whole number of days from ${KEY_EXPIRY_DAYS_MIN} to ${KEY_EXPIRY_DAYS_MAX}.`,
  keyTaken: 'This key is already in use. Generate a new one.',
  keyDraftInvalid: 'This key was not generated here, or over an hour ago. Click "Generate Access Key" again.',
  scopesRequired: 'Choose at least one part of the vault to share.',
  saveFailed: 'Save failed',
  couldNotSaveKey: 'Could not save key.',
  couldNotGenerateKey: 'Could not generate a key. Try again.',
  emailSendFailed: 'Email Send Failed',
  emailDailyLimit: 'Email not sent: the daily limit of key e-mails was reached. Copy the key and share it yourself, or issue it again tomorrow.',
} as const;

/** Spec 2: the viewer's empty texts, per tab. */
export const VIEWER_EMPTY_TEXTS: Record<ViewSection, string> = {
  timeline: 'No timeline entries yet.',
  letters: 'No letters yet.',
  'court-journal': 'No court journal items yet.',
  'who-i-am': 'No “Who I Am” entries yet.',
  'if-im-not-there': 'No entries yet.',
};

/** Spec 2: the viewer's tab names. */
export const VIEWER_TAB_LABELS: Record<ViewSection, string> = {
  timeline: 'Timeline',
  letters: 'Letters',
  'court-journal': 'Court Journal',
  'who-i-am': 'Who I Am',
  'if-im-not-there': "If I'm Not There",
};

// Events (stored in access-keys' event store). Published payloads carry ids, statuses and times only:
// never an e-mail address, a name, a message or a key (keys are never stored either, only hashes).

// What leaves on JetStream (ids and times only): AccessKeysEvents, access-keys.messaging.ts; notifications'
// key e-mail events, which access-keys reads back: NotificationsEvents, notifications.messaging.ts.
