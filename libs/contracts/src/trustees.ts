import { RELATIONSHIP_OPTIONS } from './if-im-not-there.js';

// Trustees (issue 31): the people an owner names on /if-im-not-there who may one day report that he
// has died or is incapacitated. access-keys keeps them in one stream per owner, `trustees-{ownerId}`
// (names and addresses sealed); a trustee has no account and acts through e-mailed links, each signed
// for one trustee of one owner, valid 14 days, used once, and only its hash kept. No zod here: the
// SPA's pages import these words, and a schema would bring zod into their first load
// (trustees.schemas.ts holds the bodies and replies).

export const TRUSTEES_MAX = 5;
export const TRUSTEE_LINK_VALID_DAYS = 14;
/** "Send me my trustee link": per client address an hour, and per address e-mailed a day (same answer either way). */
export const TRUSTEE_LINK_REQUESTS_PER_HOUR = 5;
/**
 * Trustee invitation e-mails an owner may send a day (every trustee invited twice), and invitations
 * one address may receive a day from all owners together: the product's name is nobody's mail relay.
 */
export const TRUSTEE_INVITATIONS_PER_OWNER_PER_DAY = 2 * 5;
export const TRUSTEE_INVITATIONS_PER_ADDRESS_PER_DAY = 3;

export const TRUSTEE_STATUSES = ['named', 'invited', 'accepted', 'declined', 'removed'] as const;
export type TrusteeStatus = (typeof TRUSTEE_STATUSES)[number];

/** A trustee's report (issue 31): what happened to the owner. */
export const TRUSTEE_REPORT_KINDS = ['died', 'incapacitated'] as const;
export type TrusteeReportKind = (typeof TRUSTEE_REPORT_KINDS)[number];
export const TRUSTEE_REPORT_NOTE_MAX = 1000;
/** The owner's veto window after a report: never below this in production (access-keys refuses to boot). */
export const TRUSTEE_REPORT_VETO_HOURS_MIN = 72;
/** After the owner vetoes a report, its reporter cannot report again for this long. */
export const TRUSTEE_REPORT_BLOCK_DAYS = 30;
export const TRUSTEE_REPORT_LABELS: Record<TrusteeReportKind, string> = { died: 'has passed away', incapacitated: 'is incapacitated (e.g. in hospital)' };
/** What ends an open report: the owner's "I'm still here", his signing in, or a check-in (a warning's link, the inactivity page's button). */
export const TRUSTEE_REPORT_CLOSE_REASONS = ['veto', 'sign-in', 'check-in'] as const;
export type TrusteeReportCloseReason = (typeof TRUSTEE_REPORT_CLOSE_REASONS)[number];
/** How the owner's report history says a report ended ("open": still under way). */
export const TRUSTEE_REPORT_OUTCOME_LABELS: Record<TrusteeReportCloseReason | 'open', string> = {
  open: 'Open',
  veto: 'Withdrawn: you answered "I\'m still here"',
  'sign-in': 'Withdrawn: you signed in',
  'check-in': 'Withdrawn: you checked in',
};
/** The owner's reminders during the veto window: halfway, and this long before it ends (when that is later than halfway). */
export const TRUSTEE_REPORT_LAST_REMINDER_HOURS = 24;

/** The sealing context of a trustee link inside its e-mail job (notifications opens it). */
export const trusteeLinkSealContext = (linkId: string) => `trustee-link:${linkId}`;

export const TrusteeMessages = {
  tooManyTrustees: `You can name at most ${TRUSTEES_MAX} trustees.`,
  nameAndEmailRequired: 'Please provide name and email.',
  emailInvalid: 'Please enter a valid email address.',
  relationshipInvalid: `Choose a relationship: ${RELATIONSHIP_OPTIONS.join(', ')}.`,
  fieldTooLong: 'This is too long.',
  trusteeNotFound: 'That trustee is no longer in your list.',
  duplicateEmail: 'This person is already one of your trustees.',
  cannotResend: 'This trustee has already answered; there is no invitation to send again.',
  invited: (email: string) => `Invitation sent to ${email}.`,
  removed: 'Trustee removed',
  linkRequested: 'If this address belongs to a trustee, their link is on its way.',
  accepted: 'Thank you. You are now a trustee.',
  declined: 'You have declined. The owner will see your answer.',
  tooManyLinkRequests: 'Too many requests. Please wait an hour and try again.',
  tooManyInvitations: 'Too many trustee invitations today. Please try again tomorrow.',
  /** EMAIL_NOT_VERIFIED: an invitation is an e-mail in the owner's name, sent once his own address is verified. */
  verifyEmailFirst: 'Verify your e-mail address first: we send trustee invitations in your name only once you have opened the link we e-mailed you.',
  reported: 'Thank you. The owner has been told and can answer that he is still here; nothing is released before the waiting time ends.',
  noteTooLong: `A note is at most ${TRUSTEE_REPORT_NOTE_MAX} characters.`,
  reportInvalid: 'Choose what happened: has passed away, or is incapacitated.',
  vetoed: 'Report withdrawn. Nothing will be released.',
  noOpenReport: 'There is no report to answer.',
} as const;
