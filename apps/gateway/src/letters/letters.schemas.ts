import { z } from 'zod';
import { LETTER_CONTENT_MAX, LETTER_TITLE_MAX, LETTERS_PAGE_MAX, LetterMessages } from '@lv/contracts';

/** Extra texts of the letters API (the words of the letter itself use the contracts' LetterMessages). */
export const LETTER_API_MESSAGES = {
  id: 'A letter id is a UUID.',
  expectedVersion: 'Send the version of the letter you edited (expectedVersion).',
  limit: `limit is a whole number from 1 to ${LETTERS_PAGE_MAX}.`,
  cursor: 'This list position is not valid. Reload the list.',
} as const;

// Trimmed at the edge (the service trims too, and refuses blank words with the same messages).
const title = z.string({ error: LetterMessages.titleRequired }).trim().min(1, LetterMessages.titleRequired).max(LETTER_TITLE_MAX, LetterMessages.titleTooLong);
const content = z.string({ error: LetterMessages.contentRequired }).trim().min(1, LetterMessages.contentRequired).max(LETTER_CONTENT_MAX, LetterMessages.contentTooLong);

/** POST /api/letters. Any other field (an owner, a date, a version) is dropped. */
export const writeLetterSchema = z.object({
  id: z.uuid({ error: LETTER_API_MESSAGES.id }).transform((id) => id.toLowerCase()).optional(),
  title,
  content,
});

/** PUT /api/letters/:id. */
export const reviseLetterSchema = z.object({
  title,
  content,
  expectedVersion: z.number({ error: LETTER_API_MESSAGES.expectedVersion }).int(LETTER_API_MESSAGES.expectedVersion).min(0, LETTER_API_MESSAGES.expectedVersion),
});

/** GET /api/letters?limit=&cursor= */
export const listLettersQuerySchema = z.object({
  limit: z.coerce.number({ error: LETTER_API_MESSAGES.limit }).int(LETTER_API_MESSAGES.limit).min(1, LETTER_API_MESSAGES.limit).max(LETTERS_PAGE_MAX, LETTER_API_MESSAGES.limit).optional(),
  cursor: z.string().min(1, LETTER_API_MESSAGES.cursor).max(200, LETTER_API_MESSAGES.cursor).optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot name a letter is simply not found (never a 400 that tells ids apart). */
export function isLetterId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
