import { z } from 'zod';

/**
 * Letters Unsent (owner-core spec, sections 2, 3, 5, 7, 8): letters a parent writes to a child and
 * keeps in the vault. A letter is an event stream `letter-{id}` in the letters service.
 */

/** The list shows the first 100 characters of a letter (spec, section 9). */
export const LETTER_PREVIEW_LENGTH = 100;
/** Limits the spec does not state, chosen so a letter always fits one NATS message. */
export const LETTER_TITLE_MAX = 200;
export const LETTER_CONTENT_MAX = 100_000;
/** Page size of GET /api/letters (default and maximum). */
export const LETTERS_PAGE_DEFAULT = 100;
export const LETTERS_PAGE_MAX = 200;

/** The words a person sees when a letter is refused, whichever layer catches it (SPA, gateway, service). */
export const LetterMessages = {
  titleRequired: 'Please give your letter a title.',
  contentRequired: 'Please write something in your letter.',
  titleTooLong: `The title can be at most ${LETTER_TITLE_MAX} characters.`,
  contentTooLong: `A letter can be at most ${LETTER_CONTENT_MAX.toLocaleString('en-GB')} characters.`,
  notFound: 'Letter not found',
  idTaken: 'A different letter was already saved under this id.',
} as const;

/** Trims and checks a letter's title and body: both must be non-blank (spec, section 5). */
export function validateLetterInput(input: { title?: unknown; content?: unknown }): { title: string; content: string; errors: { title?: string; content?: string } | null } {
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  const content = typeof input.content === 'string' ? input.content.trim() : '';
  const errors: { title?: string; content?: string } = {};
  if (!title) errors.title = LetterMessages.titleRequired;
  else if (title.length > LETTER_TITLE_MAX) errors.title = LetterMessages.titleTooLong;
  if (!content) errors.content = LetterMessages.contentRequired;
  else if (content.length > LETTER_CONTENT_MAX) errors.content = LetterMessages.contentTooLong;
  return { title, content, errors: Object.keys(errors).length ? errors : null };
}

/** Words separated by white space; an empty or blank letter has none. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/u).length : 0;
}

/** The first 100 characters (code points, so a letter never ends in half an emoji). */
export function letterPreview(content: string): string {
  const chars = Array.from(content);
  return chars.length <= LETTER_PREVIEW_LENGTH ? content : chars.slice(0, LETTER_PREVIEW_LENGTH).join('');
}

/** One row of the list: never the whole letter. `version` is what an editor sends back as `expectedVersion`. */
export const letterSummarySchema = z.object({
  id: z.uuid(),
  title: z.string().max(LETTER_TITLE_MAX),
  preview: z.string().meta({ description: 'The first 100 characters of the letter.' }),
  word_count: z.number().int().min(0),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  version: z.number().int().min(1).meta({ description: 'Send it back as expectedVersion when saving an edit.' }),
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
const letterTitle = z.string({ error: LetterMessages.titleRequired }).trim().min(1, LetterMessages.titleRequired).max(LETTER_TITLE_MAX, LetterMessages.titleTooLong);
const letterContent = z.string({ error: LetterMessages.contentRequired }).trim().min(1, LetterMessages.contentRequired).max(LETTER_CONTENT_MAX, LetterMessages.contentTooLong);

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
export type WriteLetterRequest = z.input<typeof writeLetterBodySchema>;

/** PUT /api/letters/:id. `expectedVersion` is the version the editor showed: a newer one is a CONFLICT. */
export const reviseLetterBodySchema = z.object({
  title: letterTitle,
  content: letterContent,
  expectedVersion: z.number({ error: LetterApiMessages.expectedVersion }).int(LetterApiMessages.expectedVersion).min(0, LetterApiMessages.expectedVersion),
});
export type ReviseLetterRequest = z.input<typeof reviseLetterBodySchema>;

/** GET /api/letters?limit=&cursor= */
export const listLettersQuerySchema = z.object({
  limit: z.coerce.number({ error: LetterApiMessages.limit }).int(LetterApiMessages.limit).min(1, LetterApiMessages.limit).max(LETTERS_PAGE_MAX, LetterApiMessages.limit).optional(),
  cursor: z.string().min(1, LetterApiMessages.cursor).max(200, LetterApiMessages.cursor).optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot name a letter is simply not found (never a 400 that tells ids apart). */
export function isLetterId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

// RPC payloads (rpc.letters.*, LettersRpc in messaging.ts). Checked by the service too (it does not
// trust its callers). Blank or over-long words are the decider's to refuse, with the shared
// messages; a malformed id is NOT_FOUND in the service. These only bound what may arrive.
export const listLettersPayloadSchema = z.object({ limit: z.number().int().min(1).max(LETTERS_PAGE_MAX).optional(), cursor: z.string().max(200).optional() });
export const letterByIdPayloadSchema = z.object({ id: z.string().max(64) });
export const writeLetterPayloadSchema = z.object({ id: z.uuid(), title: z.string(), content: z.string() });
export const reviseLetterPayloadSchema = z.object({ id: z.string().max(64), title: z.string(), content: z.string(), expectedVersion: z.number().int().min(0) });
export type ListLettersRequest = z.input<typeof listLettersPayloadSchema>;
export type WriteLetterPayload = z.input<typeof writeLetterPayloadSchema>;
export type ReviseLetterPayload = z.input<typeof reviseLetterPayloadSchema>;

// Events of the stream `letter-{id}`, as the service stores them. Title and content are sealed with
// the letter's own data key (AES-256-GCM): deleting the letter destroys the key, so the words in
// every past event become unreadable while the fact that the letter existed stays in the history.

/** AES-256-GCM output, base64. */
export interface SealedText {
  alg: 'A256GCM';
  iv: string;
  tag: string;
  ct: string;
}

export interface LetterWrittenData { letterId: string; ownerId: string; title: SealedText; content: SealedText; wordCount: number; writtenAt: string }
export interface LetterRevisedData { letterId: string; ownerId: string; title: SealedText; content: SealedText; wordCount: number; revisedAt: string }
export interface LetterDeletedData { letterId: string; ownerId: string; deletedAt: string }

export type StoredLetterEvent =
  | { type: 'LetterWritten'; data: LetterWrittenData }
  | { type: 'LetterRevised'; data: LetterRevisedData }
  | { type: 'LetterDeleted'; data: LetterDeletedData };

export type LetterEventType = StoredLetterEvent['type'];

// What leaves the service on JetStream (LettersEvents subjects): ids, counts and times, never a
// word of the letter. The timeline fetches titles from the letters service when it renders.
export interface LetterWrittenV1 { letterId: string; ownerId: string; wordCount: number; writtenAt: string }
export interface LetterRevisedV1 { letterId: string; ownerId: string; wordCount: number; revisedAt: string }
export interface LetterDeletedV1 { letterId: string; ownerId: string; deletedAt: string }

// ---------------------------------------------------------------------------------------------
// The vault home's "Thoughts & Feelings" reflection (owner-core spec, section 2 "Vault home").
// One per user, kept by the letters (writing) service as the stream `reflection-{userId}`, its text
// sealed in the events with that stream's own key, like a letter's words. The original product kept
// it in the browser's localStorage `vault_thoughts`; that is now only read once, to migrate it.

/** A reflection's limit, after trimming (a limit the spec does not state; fits one NATS message). */
export const REFLECTION_MAX = 20_000;

export const ReflectionMessages = {
  tooLong: `A reflection can be at most ${REFLECTION_MAX.toLocaleString('en-GB')} characters.`,
  saved: 'Thoughts saved privately',
  saveFailed: 'Could not save your reflection',
  tryAgain: 'Please try again.',
} as const;

/** Trims a reflection and checks its length. A blank one is valid: saving it clears the reflection. */
export function validateReflectionText(input: unknown): { text: string; error: string | null } {
  const text = typeof input === 'string' ? input.trim() : '';
  return { text, error: text.length > REFLECTION_MAX ? ReflectionMessages.tooLong : null };
}

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
  text: z.string({ error: ReflectionApiMessages.text }).trim().max(REFLECTION_MAX, ReflectionMessages.tooLong),
});
export type SaveReflectionRequest = z.input<typeof saveReflectionBodySchema>;

/** rpc.letters.reflection.save. Length is the decider's to refuse (after trimming); this only bounds the payload. */
export const saveReflectionPayloadSchema = z.object({ text: z.string().max(REFLECTION_MAX * 4) });

// Events of the stream `reflection-{userId}`, as stored: the text sealed with the stream's key.
// None of them is published: nothing outside the letters service needs to know about a reflection.
export interface ReflectionSavedData { ownerId: string; text: SealedText; savedAt: string }
export interface ReflectionClearedData { ownerId: string; clearedAt: string }

export type StoredReflectionEvent =
  | { type: 'ReflectionSaved'; data: ReflectionSavedData }
  | { type: 'ReflectionCleared'; data: ReflectionClearedData };
