import { z } from 'zod';
import { RELATIONSHIP_OPTIONS, TRUSTEE_NAME_MAX } from './if-im-not-there.js';
import { safeText } from './text.schemas.js';
import { TRUSTEE_REPORT_CLOSE_REASONS, TRUSTEE_REPORT_KINDS, TRUSTEE_REPORT_NOTE_MAX, TRUSTEE_STATUSES, TrusteeMessages } from './trustees.js';

// The trustees' bodies and replies (their words and limits: trustees.ts).

const EMAIL_MAX = 254;
const requiredText = (max: number) => safeText({ error: TrusteeMessages.nameAndEmailRequired }).trim().min(1, TrusteeMessages.nameAndEmailRequired).max(max, TrusteeMessages.fieldTooLong);
const emailField = () => requiredText(EMAIL_MAX).pipe(z.email({ error: TrusteeMessages.emailInvalid })).transform((e) => e.toLowerCase());

/** One trustee as the owner's list shows them. */
export const trusteeSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  relationship: z.enum(RELATIONSHIP_OPTIONS),
  status: z.enum(TRUSTEE_STATUSES),
  invitedAt: z.string().nullable(),
  /** When the current invitation link stops working (null once answered, or never invited). */
  invitationExpiresAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
  removedAt: z.string().nullable(),
});
export type Trustee = z.infer<typeof trusteeSchema>;

/** POST /api/if-im-not-there/trustees: `id` is the browser's UUID, so a retried add adds (and invites) once. */
export const addTrusteeBodySchema = z.object({
  id: z.uuid({ error: 'A trustee id is a UUID.' }),
  name: requiredText(TRUSTEE_NAME_MAX),
  email: emailField(),
  relationship: z.enum(RELATIONSHIP_OPTIONS, { error: TrusteeMessages.relationshipInvalid }),
});
export type AddTrusteePayload = z.output<typeof addTrusteeBodySchema>;

export const trusteeByIdPayloadSchema = z.object({ id: safeText().max(64) });

/** A trustee link's parameters, as signed (`/trustee?t=&n=&u=&exp=&sig=`). */
export const trusteeLinkBodySchema = z.object({
  t: z.uuid(),
  n: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  u: z.uuid(),
  exp: z.string().regex(/^\d{1,12}$/),
  sig: z.string().min(1).max(100),
});
export type TrusteeLink = z.infer<typeof trusteeLinkBodySchema>;

/** What a trustee's page shows: who named them, and their answer. Never anything of the vault. */
export const trusteeViewSchema = z.object({
  ownerName: z.string(),
  trusteeName: z.string(),
  relationship: z.enum(RELATIONSHIP_OPTIONS),
  status: z.enum(TRUSTEE_STATUSES),
  /** This trustee's report under way (what, when, when the owner's veto window ends), or null. */
  report: z.object({ kind: z.enum(TRUSTEE_REPORT_KINDS), reportedAt: z.string(), vetoEndsAt: z.string() }).nullable(),
  /** After the owner vetoed this trustee's report: when they may report again (null: not blocked). */
  blockedUntil: z.string().nullable(),
});
export type TrusteeView = z.infer<typeof trusteeViewSchema>;

export const trusteeAnswerBodySchema = trusteeLinkBodySchema.extend({ answer: z.enum(['accept', 'decline']) });
export type TrusteeAnswerRequest = z.infer<typeof trusteeAnswerBodySchema>;

/** POST /api/trustee/report: an accepted trustee reports what happened, with an optional note. */
export const trusteeReportBodySchema = trusteeLinkBodySchema.extend({
  kind: z.enum(TRUSTEE_REPORT_KINDS, { error: TrusteeMessages.reportInvalid }),
  note: safeText({ error: TrusteeMessages.noteTooLong }).trim().max(TRUSTEE_REPORT_NOTE_MAX, TrusteeMessages.noteTooLong).default(''),
});
export type TrusteeReportPayload = z.output<typeof trusteeReportBodySchema>;

/** The owner's side: the report under way (who reported what, when the veto window ends), or null. */
export const trusteeReportSchema = z.object({
  reportId: z.uuid(),
  trusteeName: z.string(),
  kind: z.enum(TRUSTEE_REPORT_KINDS),
  note: z.string(),
  reportedAt: z.string(),
  vetoEndsAt: z.string(),
});
export type TrusteeReport = z.infer<typeof trusteeReportSchema>;
/** One report in the owner's history: who reported what and when, and how it ended (closedAt/closedBy null while open). */
export const trusteeReportHistoryEntrySchema = z.object({
  reportId: z.uuid(),
  trusteeName: z.string(),
  kind: z.enum(TRUSTEE_REPORT_KINDS),
  reportedAt: z.string(),
  vetoEndsAt: z.string(),
  closedAt: z.string().nullable(),
  closedBy: z.enum(TRUSTEE_REPORT_CLOSE_REASONS).nullable(),
});
export type TrusteeReportHistoryEntry = z.infer<typeof trusteeReportHistoryEntrySchema>;
/** The report under way (the banner) and every report so far, newest first (the history). */
export const openTrusteeReportReplySchema = z.object({ report: trusteeReportSchema.nullable(), history: z.array(trusteeReportHistoryEntrySchema) });
export const vetoTrusteeReportReplySchema = z.object({ message: z.literal(TrusteeMessages.vetoed) });

/** POST /api/trustee/link: "send me my trustee link". */
export const trusteeLinkRequestBodySchema = z.object({ email: emailField() });
export const trusteeLinkRequestReplySchema = z.object({ message: z.literal(TrusteeMessages.linkRequested) });

/** notifications' question before it sends a trustee link: is it still the trustee's current link? */
export const trusteeLinkStatePayloadSchema = z.object({ ownerId: z.uuid(), trusteeId: z.uuid(), linkId: z.uuid() });
export const trusteeLinkStateReplySchema = z.object({ state: z.enum(['current', 'stale', 'unknown']) });

/**
 * notifications' question before it sends a report e-mail: is the report committed, still open (or
 * closed, for the withdrawn notice), and what to say. Only the words that notice needs.
 */
export const trusteeReportNoticeStatePayloadSchema = z.object({ ownerId: z.uuid(), reportId: z.uuid() });
export const trusteeReportNoticeStateReplySchema = z.object({
  state: z.enum(['open', 'closed', 'unknown']),
  report: z.object({
    kind: z.enum(TRUSTEE_REPORT_KINDS),
    note: z.string(),
    reportedAt: z.string(),
    vetoEndsAt: z.string(),
    trusteeName: z.string(),
    trusteeEmail: z.string(),
    closedAt: z.string().nullable(),
  }).nullable(),
});
export type TrusteeReportNoticeState = z.infer<typeof trusteeReportNoticeStateReplySchema>;
