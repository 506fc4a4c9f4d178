import { z } from 'zod';
import { queryInteger, safeText } from './text.schemas.js';
import { LETTER_CONTENT_MAX, LETTER_TITLE_MAX, LETTERS_PAGE_MAX, LetterMessages, REFLECTION_MAX, ReflectionMessages, isCalendarDay, isTimeZone, MILESTONE_EMAIL_MAX, MILESTONE_NAME_MAX, MilestoneMessages } from './letters.js';

// The shapes of letters and the reflection on the wire, as zod schemas (the types are inferred from
// them). Kept apart from letters.ts so the SPA, which imports only types and messages from here,
// never bundles zod.

/**
 * A letter sealed until a day for one recipient: shown to its owner only (a viewer's reply has none).
 * `due_at` is the first instant of `until` in `time_zone`, when the letter opens.
 */
export const letterMilestoneSchema = z.object({
  until: z.string().meta({ description: 'The day the letter opens (YYYY-MM-DD), in time_zone.' }),
  time_zone: z.string(),
  due_at: z.iso.datetime(),
  recipient_name: z.string(),
  recipient_email: z.string(),
  status: z.enum(['sealed', 'released']),
  released_at: z.iso.datetime().nullable(),
});
export type LetterMilestone = z.infer<typeof letterMilestoneSchema>;

/** One row of the list: never the whole letter. `version` is what an editor sends back as `expectedVersion`. */
export const letterSummarySchema = z.object({
  id: z.uuid(),
  title: z.string().max(LETTER_TITLE_MAX),
  preview: z.string().meta({ description: 'The first 100 characters of the letter.' }),
  word_count: z.number().int().min(0),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  version: z.number().int().min(1).meta({ description: 'Send it back as expectedVersion when saving an edit.' }),
  milestone: letterMilestoneSchema.nullable().optional().meta({ description: 'Sealed until a day for one recipient (owner only).' }),
});
export type LetterSummary = z.infer<typeof letterSummarySchema>;

/** A whole letter, for the viewer and the editor. */
export const letterSchema = letterSummarySchema.extend({ content: z.string().max(LETTER_CONTENT_MAX) });
export type Letter = z.infer<typeof letterSchema>;

/** A page of the list, newest first; `nextCursor` fetches the next (older) page, null at the end. */
export const letterPageSchema = z.object({
  letters: z.array(letterSummarySchema),
  nextCursor: z.string().nullable().meta({ description: 'Pass as ?cursor= for the next (older) page; null at the end.' }),
});
export type LetterPage = z.infer<typeof letterPageSchema>;

export const deleteLetterReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type DeleteLetterReply = z.infer<typeof deleteLetterReplySchema>;

// HTTP bodies (gateway), validated at the edge with the words a person sees. The owner is never
// part of a body or payload: services take it from the verified access token.

/** Extra texts of the letters API (the words of the letter itself use LetterMessages). */
export const LetterApiMessages = {
  id: 'A letter id is a UUID.',
  expectedVersion: 'Send the version of the letter you edited (expectedVersion).',
  limit: `limit is a whole number from 1 to ${LETTERS_PAGE_MAX}.`,
  cursor: 'This list position is not valid. Reload the list.',
} as const;

// Trimmed at the edge (the service trims too, and refuses blank words with the same messages).
const letterTitle = safeText({ error: LetterMessages.titleRequired }).trim().min(1, LetterMessages.titleRequired).max(LETTER_TITLE_MAX, LetterMessages.titleTooLong);
const letterContent = safeText({ error: LetterMessages.contentRequired }).trim().min(1, LetterMessages.contentRequired).max(LETTER_CONTENT_MAX, LetterMessages.contentTooLong);

/** POST /api/letters. `id` (a UUID the client makes up per new letter) makes a retried save harmless. Other fields are dropped. */
export const writeLetterBodySchema = z.object({
  id: z
    .uuid({ error: LetterApiMessages.id })
    .transform((id) => id.toLowerCase())
    .optional()
    .meta({ description: 'Chosen by the client for each new letter: sending the same letter again with the same id returns the first save instead of a copy.' }),
  title: letterTitle,
  content: letterContent,
});

/** PUT /api/letters/:id. `expectedVersion` is the version the editor showed: a newer one is a CONFLICT. */
export const reviseLetterBodySchema = z.object({
  title: letterTitle,
  content: letterContent,
  expectedVersion: z.number({ error: LetterApiMessages.expectedVersion }).int(LetterApiMessages.expectedVersion).min(0, LetterApiMessages.expectedVersion),
});
export type ReviseLetterRequest = z.input<typeof reviseLetterBodySchema>;

/** GET /api/letters?limit=&cursor= */
export const listLettersQuerySchema = z.object({
  limit: queryInteger(1, LETTERS_PAGE_MAX, LetterApiMessages.limit).optional(),
  cursor: safeText().min(1, LetterApiMessages.cursor).max(200, LetterApiMessages.cursor).optional(),
});

// RPC payloads (rpc.letters.*, LettersRpc in letters.messaging.ts). Checked by the service too (it does not
// trust its callers). Blank or over-long words are the decider's to refuse, with the shared
// messages; a malformed id is NOT_FOUND in the service. These only bound what may arrive.
export const listLettersPayloadSchema = z.object({ limit: z.number().int().min(1).max(LETTERS_PAGE_MAX).optional(), cursor: safeText().max(200).optional() });
export const letterByIdPayloadSchema = z.object({ id: safeText().max(64) });
export const writeLetterPayloadSchema = z.object({ id: z.uuid(), title: safeText(), content: safeText() });
export const reviseLetterPayloadSchema = z.object({ id: safeText().max(64), title: safeText(), content: safeText(), expectedVersion: z.number().int().min(0) });
export type ListLettersRequest = z.input<typeof listLettersPayloadSchema>;

/**
 * GET and PUT /api/vault/reflection (rpc.letters.reflection.get / .save): the caller's own
 * reflection; `text` is '' and `updated_at` null when none is saved (or it was cleared).
 */
export const reflectionSchema = z.object({
  text: z.string().max(REFLECTION_MAX).meta({ description: 'The saved reflection; empty when none is saved.' }),
  updated_at: z.iso.datetime().nullable().meta({ description: 'When it was last saved; null when none is saved.' }),
});
export type Reflection = z.infer<typeof reflectionSchema>;

export const ReflectionApiMessages = {
  text: 'Send the reflection as text (an empty text clears it).',
} as const;

/**
 * PUT /api/vault/reflection. Trimmed at the edge (the service trims and checks again); a blank text
 * is valid and clears the reflection. Any other field (an owner, a date) is dropped.
 */
export const saveReflectionBodySchema = z.object({
  text: safeText({ error: ReflectionApiMessages.text }).trim().max(REFLECTION_MAX, ReflectionMessages.tooLong),
});

/** rpc.letters.reflection.save. Length is the decider's to refuse (after trimming); this only bounds the payload. */
export const saveReflectionPayloadSchema = z.object({ text: safeText().max(REFLECTION_MAX * 4) });


/**
 * PUT /api/letters/:id/seal: seal the letter until a future day (in the owner's time zone, which the
 * browser sends) for one recipient; sealing again replaces the day and the recipient.
 */
export const sealLetterBodySchema = z.object({
  until: safeText({ error: MilestoneMessages.untilRequired }).trim().min(1, MilestoneMessages.untilRequired).refine(isCalendarDay, MilestoneMessages.untilRequired),
  time_zone: safeText({ error: MilestoneMessages.timeZone }).trim().min(1, MilestoneMessages.timeZone).max(64, MilestoneMessages.timeZone).refine(isTimeZone, MilestoneMessages.timeZone),
  recipient_name: safeText({ error: MilestoneMessages.nameRequired }).trim().min(1, MilestoneMessages.nameRequired).max(MILESTONE_NAME_MAX, MilestoneMessages.nameTooLong),
  recipient_email: safeText({ error: MilestoneMessages.emailRequired }).trim().min(1, MilestoneMessages.emailRequired).max(MILESTONE_EMAIL_MAX, MilestoneMessages.emailInvalid)
    .pipe(z.email({ error: MilestoneMessages.emailInvalid })).transform((e) => e.toLowerCase()),
});
export type SealLetterRequest = z.input<typeof sealLetterBodySchema>;

/** rpc.letters.seal: the body's fields and the letter's id; the decider checks them again. */
export const sealLetterPayloadSchema = z.object({ id: safeText().max(64), until: safeText().max(16), time_zone: safeText().max(64), recipient_name: safeText().max(MILESTONE_NAME_MAX * 4), recipient_email: safeText().max(MILESTONE_EMAIL_MAX) });
export type SealLetterPayload = z.input<typeof sealLetterPayloadSchema>;

/** rpc.letters.milestone-release (access-keys only): has this release committed, and for whom? */
export const milestoneReleasePayloadSchema = z.object({ letter_id: z.uuid(), release_id: z.uuid() });
export const milestoneReleaseReplySchema = z.union([
  z.object({ state: z.literal('released'), owner_id: z.uuid(), recipient_name: z.string(), recipient_email: z.string(), shared_by: z.string() }),
  z.object({ state: z.literal('unknown') }),
]);
export type MilestoneReleaseReply = z.infer<typeof milestoneReleaseReplySchema>;

/** rpc.letters.op.milestones-due (ops CLI): releases what is due now (never anything early) and finishes releases whose key is missing. */
export const milestonesDueReplySchema = z.object({ released: z.number().int().min(0), keys_issued: z.number().int().min(0), not_due: z.number().int().min(0) });
export type MilestonesDueReply = z.infer<typeof milestonesDueReplySchema>;
