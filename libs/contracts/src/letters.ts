/**
 * Letters Unsent (owner-core spec, sections 2, 3, 5, 7, 8): letters a parent writes to a child and
 * keeps in the vault. A letter is an event stream `letter-{id}` in the letters service.
 */
import { formatCount } from './count-format.js';
import type { SealedText } from './sealed-text.schemas.js';

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
  contentTooLong: `A letter can be at most ${formatCount(LETTER_CONTENT_MAX)} characters.`,
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

// Events of the stream `letter-{id}`, as the service stores them. Title and content are sealed with
// the letter's own data key (AES-256-GCM): deleting the letter destroys the key, so the words in
// every past event become unreadable while the fact that the letter existed stays in the history.

export interface LetterWrittenData { letterId: string; ownerId: string; title: SealedText; content: SealedText; wordCount: number; writtenAt: string }
export interface LetterRevisedData { letterId: string; ownerId: string; title: SealedText; content: SealedText; wordCount: number; revisedAt: string }
export interface LetterDeletedData { letterId: string; ownerId: string; deletedAt: string }

export type StoredLetterEvent =
  | { type: 'LetterWritten'; data: LetterWrittenData }
  | { type: 'LetterRevised'; data: LetterRevisedData }
  | { type: 'LetterDeleted'; data: LetterDeletedData };

export type LetterEventType = StoredLetterEvent['type'];

// What leaves the service on JetStream: LettersEvents (letters.messaging.ts), words-free.

// ---------------------------------------------------------------------------------------------
// The vault home's "Thoughts & Feelings" reflection (owner-core spec, section 2 "Vault home").
// One per user, kept by the letters (writing) service as the stream `reflection-{userId}`, its text
// sealed in the events with that stream's own key, like a letter's words. The original product kept
// it in the browser's localStorage `vault_thoughts`; that is now only read once, to migrate it.

/** A reflection's limit, after trimming (a limit the spec does not state; fits one NATS message). */
export const REFLECTION_MAX = 20_000;

export const ReflectionMessages = {
  tooLong: `A reflection can be at most ${formatCount(REFLECTION_MAX)} characters.`,
  saved: 'Thoughts saved privately',
  saveFailed: 'Could not save your reflection',
  tryAgain: 'Please try again.',
} as const;

/** Trims a reflection and checks its length. A blank one is valid: saving it clears the reflection. */
export function validateReflectionText(input: unknown): { text: string; error: string | null } {
  const text = typeof input === 'string' ? input.trim() : '';
  return { text, error: text.length > REFLECTION_MAX ? ReflectionMessages.tooLong : null };
}

// Events of the stream `reflection-{userId}`, as stored: the text sealed with the stream's key.
// None of them is published: nothing outside the letters service needs to know about a reflection.
export interface ReflectionSavedData { ownerId: string; text: SealedText; savedAt: string }
export interface ReflectionClearedData { ownerId: string; clearedAt: string }

export type StoredReflectionEvent =
  | { type: 'ReflectionSaved'; data: ReflectionSavedData }
  | { type: 'ReflectionCleared'; data: ReflectionClearedData };

// ---------------------------------------------------------------------------------------------
// Letters for a milestone (beyond the spec): the owner seals a letter until a day ("on her 18th
// birthday") for one recipient. Until that day no key reads it; on the day the letters service
// releases it once and access-keys e-mails the recipient a key limited to that one letter.

/** The furthest a letter can be sealed ahead: a child's 18th birthday fits many times over. */
export const MILESTONE_MAX_YEARS = 100;
export const MILESTONE_NAME_MAX = 120;
export const MILESTONE_EMAIL_MAX = 254;

export const MilestoneMessages = {
  untilRequired: 'Choose the day this letter may be opened.',
  untilInFuture: 'Choose a day after today.',
  untilTooFar: `Choose a day within ${MILESTONE_MAX_YEARS} years.`,
  timeZone: 'Unknown time zone.',
  nameRequired: 'Please enter who this letter is for.',
  nameTooLong: `A name can be at most ${MILESTONE_NAME_MAX} characters.`,
  emailRequired: 'Please enter their email address.',
  emailInvalid: 'Please enter a valid email address.',
  released: 'This letter has already been opened by its recipient and can no longer be changed.',
  verifyEmailFirst: 'Verify your e-mail address first: we e-mail a sealed letter to its recipient in your name only once you have opened the link we e-mailed you.',
  sealed: 'Letter sealed',
  unsealed: 'Seal removed',
} as const;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written YYYY-MM-DD (no 2027-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * The first instant of `day` in `timeZone` (ISO, UTC): when a letter sealed until that day opens. The
 * offset is looked up for that very day, so summer time is right; a midnight that a clock change
 * skips falls on the first instant the day exists.
 */
export function startOfDayIn(day: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let guess = utcMidnight;
  // Two rounds settle the offset (it can differ between the guess and the answer across a change).
  for (let round = 0; round < 2; round++) {
    guess = utcMidnight - offsetMs(new Date(guess), timeZone);
  }
  // Never before the day has begun there (a skipped midnight): step forward a minute at a time.
  while (dayIn(new Date(guess), timeZone) < day) guess += 60_000;
  while (dayIn(new Date(guess - 60_000), timeZone) === day) guess -= 60_000;
  return new Date(guess).toISOString();
}

function offsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The stored events of a letter's milestone (same stream `letter-{id}`); recipient and sharer sealed with the letter's key. */
export interface LetterSealedData {
  letterId: string; ownerId: string; releaseId: string; until: string; timeZone: string; dueAt: string; sealedAt: string;
  recipientName: SealedText; recipientEmail: SealedText; sharedBy: SealedText;
}
export interface LetterUnsealedData { letterId: string; ownerId: string; releaseId: string; unsealedAt: string }
export interface LetterReleasedData { letterId: string; ownerId: string; releaseId: string; dueAt: string; releasedAt: string }
export interface LetterKeyIssuedData { letterId: string; ownerId: string; releaseId: string; keyId: string; issuedAt: string }

/** Not published: no other service needs a milestone's facts (access-keys asks letters directly). */
export type StoredLetterMilestoneEvent =
  | { type: 'LetterSealed'; data: LetterSealedData }
  | { type: 'LetterUnsealed'; data: LetterUnsealedData }
  | { type: 'LetterReleased'; data: LetterReleasedData }
  | { type: 'LetterKeyIssued'; data: LetterKeyIssuedData };
