import { createHash } from 'node:crypto';
import {
  countWords, dayIn, isCalendarDay, isTimeZone, LetterMessages, MILESTONE_EMAIL_MAX, MILESTONE_MAX_YEARS, MILESTONE_NAME_MAX, MilestoneMessages, startOfDayIn, validateLetterInput,
  type LetterDeletedData, type LetterKeyIssuedData, type LetterReleasedData, type LetterUnsealedData,
} from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A letter's events as the rules see them: with the words in the clear. The store seals title and
 * content on the way in and opens them on the way out (letter-event-store.ts); when the letter's key
 * is gone (it was deleted), the words of its past events come back as null ("shredded").
 */
export interface LetterWords {
  title: string | null;
  content: string | null;
}
/** Who a sealed letter is for, and the owner's address its key e-mail names: sealed like the words (null once shredded). */
export interface MilestoneRecipient {
  recipientName: string | null;
  recipientEmail: string | null;
  sharedBy: string | null;
}
export type LetterEvent =
  | { type: 'LetterWritten'; data: { letterId: string; ownerId: string; wordCount: number; writtenAt: string } & LetterWords }
  | { type: 'LetterRevised'; data: { letterId: string; ownerId: string; wordCount: number; revisedAt: string } & LetterWords }
  | { type: 'LetterDeleted'; data: LetterDeletedData }
  | { type: 'LetterSealed'; data: { letterId: string; ownerId: string; releaseId: string; until: string; timeZone: string; dueAt: string; sealedAt: string } & MilestoneRecipient }
  | { type: 'LetterUnsealed'; data: LetterUnsealedData }
  | { type: 'LetterReleased'; data: LetterReleasedData }
  | { type: 'LetterKeyIssued'; data: LetterKeyIssuedData };

/** A letter sealed until a day for one recipient; released once, on that day; its key recorded once issued. */
export interface MilestoneState {
  releaseId: string;
  until: string;
  timeZone: string;
  dueAt: string;
  recipientName: string | null;
  recipientEmail: string | null;
  status: 'sealed' | 'released';
  keyId: string | null;
}

/** A letter's stream: `letter-{id}`. State is only what the rules need. */
export interface LetterState {
  status: 'none' | 'written' | 'deleted';
  ownerId: string | null;
  /** Events so far: what an editor saw is compared with it (optimistic concurrency). */
  version: number;
  /** Digest of the words the letter was first written with: a retried WriteLetter carries the same. */
  writtenDigest: string | null;
  title: string | null;
  content: string | null;
  milestone: MilestoneState | null;
}

/**
 * `ownerId` is always the verified caller (from the access token), never something the client sent.
 * `now` is the time the service received the command: the decider reads no clock.
 */
export type LetterCommand =
  | { type: 'WriteLetter'; letterId: string; ownerId: string; title: string; content: string; now: string }
  | { type: 'ReviseLetter'; letterId: string; ownerId: string; title: string; content: string; expectedVersion: number; now: string }
  | { type: 'DeleteLetter'; letterId: string; ownerId: string; now: string }
  /** `releaseId` is new for every seal: a job of an earlier seal never releases a later one. `sharedBy` is the owner's address. */
  | {
      type: 'SealLetter'; letterId: string; ownerId: string; releaseId: string; until: string; timeZone: string; recipientName: string; recipientEmail: string;
      sharedBy: string; now: string;
    }
  | { type: 'UnsealLetter'; letterId: string; ownerId: string; now: string }
  /** The due job (or the operator's due check), for the release it was scheduled for. */
  | { type: 'ReleaseLetter'; letterId: string; releaseId: string; now: string }
  /** access-keys issued the recipient's key for this release. */
  | { type: 'RecordLetterKey'; letterId: string; releaseId: string; keyId: string; now: string };

export const letterStreamId = (letterId: string) => `letter-${letterId}`;
export const LETTER_STREAM_TYPE = 'letter';

export function letterIdOfStream(streamId: string): string {
  if (!streamId.startsWith('letter-')) throw new Error(`not a letter stream: ${streamId}`);
  return streamId.slice('letter-'.length);
}

export const wordsDigest = (title: string, content: string) => createHash('sha256').update(title).update('\u0000').update(content).digest('hex');

/** Another owner's letter, a letter that never existed and a deleted one look the same: not found. */
function requireOwnLetter(state: LetterState, ownerId: string): void {
  if (state.status !== 'written' || state.ownerId !== ownerId) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
}

function checkWords(command: { title: string; content: string }): { title: string; content: string } {
  const { title, content, errors } = validateLetterInput(command);
  if (errors) throw validationError(errors, errors.title ?? errors.content);
  return { title, content };
}

/** A seal's day, time zone and recipient, trimmed and checked against `now` (the day must be after today where the owner is). */
function checkSeal(command: Extract<LetterCommand, { type: 'SealLetter' }>): { until: string; timeZone: string; recipientName: string; recipientEmail: string; dueAt: string } {
  const errors: Record<string, string> = {};
  const until = command.until.trim();
  const timeZone = command.timeZone.trim();
  const recipientName = command.recipientName.trim();
  const recipientEmail = command.recipientEmail.trim().toLowerCase();
  if (!isTimeZone(timeZone)) errors.time_zone = MilestoneMessages.timeZone;
  if (!isCalendarDay(until)) errors.until = MilestoneMessages.untilRequired;
  else if (!errors.time_zone) {
    const today = dayIn(new Date(command.now), timeZone);
    const latest = `${String(Number(today.slice(0, 4)) + MILESTONE_MAX_YEARS).padStart(4, '0')}${today.slice(4)}`;
    if (until <= today) errors.until = MilestoneMessages.untilInFuture;
    else if (until > latest) errors.until = MilestoneMessages.untilTooFar;
  }
  if (!recipientName) errors.recipient_name = MilestoneMessages.nameRequired;
  else if (recipientName.length > MILESTONE_NAME_MAX) errors.recipient_name = MilestoneMessages.nameTooLong;
  if (!recipientEmail) errors.recipient_email = MilestoneMessages.emailRequired;
  else if (recipientEmail.length > MILESTONE_EMAIL_MAX || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(recipientEmail)) errors.recipient_email = MilestoneMessages.emailInvalid;
  const first = Object.values(errors)[0];
  if (first) throw validationError(errors, first);
  return { until, timeZone, recipientName, recipientEmail, dueAt: startOfDayIn(until, timeZone) };
}

/** A released letter is its recipient's: its seal can no longer be changed or removed. */
function requireNotReleased(state: LetterState): void {
  if (state.milestone?.status === 'released') throw new DomainError('CONFLICT', MilestoneMessages.released);
}

/** A letter is due at `now` only while sealed and once the first instant of its day has come. */
export const isMilestoneDue = (state: LetterState, now: string) =>
  state.status === 'written' && state.milestone?.status === 'sealed' && Date.parse(now) >= Date.parse(state.milestone.dueAt);

export const letterDecider: Decider<LetterState, LetterCommand, LetterEvent> = {
  initialState: () => ({ status: 'none', ownerId: null, version: 0, writtenDigest: null, title: null, content: null, milestone: null }),

  decide(command, state) {
    switch (command.type) {
      case 'WriteLetter': {
        const { title, content } = checkWords(command);
        if (state.status === 'none') {
          return [{ type: 'LetterWritten', data: { letterId: command.letterId, ownerId: command.ownerId, title, content, wordCount: countWords(content), writtenAt: command.now } }];
        }
        // The same owner sending the same letter again (a retry after a lost answer) changes nothing.
        if (state.status === 'written' && state.ownerId === command.ownerId && state.writtenDigest === wordsDigest(title, content)) return [];
        throw new DomainError('CONFLICT', LetterMessages.idTaken);
      }

      case 'ReviseLetter': {
        requireOwnLetter(state, command.ownerId);
        if (command.expectedVersion !== state.version) throw new DomainError('CONFLICT');
        const { title, content } = checkWords(command);
        if (title === state.title && content === state.content) return [];
        return [{ type: 'LetterRevised', data: { letterId: command.letterId, ownerId: command.ownerId, title, content, wordCount: countWords(content), revisedAt: command.now } }];
      }

      case 'DeleteLetter':
        requireOwnLetter(state, command.ownerId);
        return [{ type: 'LetterDeleted', data: { letterId: command.letterId, ownerId: command.ownerId, deletedAt: command.now } }];

      case 'SealLetter': {
        requireOwnLetter(state, command.ownerId);
        requireNotReleased(state);
        const seal = checkSeal(command);
        const current = state.milestone;
        // The same seal sent again (a retried save) changes nothing and keeps its release.
        if (current && current.until === seal.until && current.timeZone === seal.timeZone && current.recipientName === seal.recipientName && current.recipientEmail === seal.recipientEmail) return [];
        return [{
          type: 'LetterSealed',
          data: {
            letterId: command.letterId, ownerId: command.ownerId, releaseId: command.releaseId, until: seal.until, timeZone: seal.timeZone, dueAt: seal.dueAt, sealedAt: command.now,
            recipientName: seal.recipientName, recipientEmail: seal.recipientEmail, sharedBy: command.sharedBy,
          },
        }];
      }

      case 'UnsealLetter':
        requireOwnLetter(state, command.ownerId);
        requireNotReleased(state);
        if (!state.milestone) return [];
        return [{ type: 'LetterUnsealed', data: { letterId: command.letterId, ownerId: command.ownerId, releaseId: state.milestone.releaseId, unsealedAt: command.now } }];

      case 'ReleaseLetter': {
        const milestone = state.milestone;
        // A job of a removed or replaced seal, of a deleted letter, a duplicate or a retry after the release: nothing.
        if (state.status !== 'written' || !milestone || milestone.releaseId !== command.releaseId || milestone.status !== 'sealed') return [];
        // Never early: a job that wakes before the day is refused, and the service schedules it again.
        if (!isMilestoneDue(state, command.now)) throw new DomainError('CONFLICT', 'This letter is not due yet.');
        return [{ type: 'LetterReleased', data: { letterId: command.letterId, ownerId: state.ownerId!, releaseId: milestone.releaseId, dueAt: milestone.dueAt, releasedAt: command.now } }];
      }

      case 'RecordLetterKey': {
        const milestone = state.milestone;
        if (state.status !== 'written' || milestone?.status !== 'released' || milestone.releaseId !== command.releaseId || milestone.keyId !== null) return [];
        return [{ type: 'LetterKeyIssued', data: { letterId: command.letterId, ownerId: state.ownerId!, releaseId: milestone.releaseId, keyId: command.keyId, issuedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    const version = state.version + 1;
    switch (event.type) {
      case 'LetterWritten': {
        const { title, content, ownerId } = event.data;
        return {
          ...state, status: 'written', ownerId, version, title, content,
          writtenDigest: title !== null && content !== null ? wordsDigest(title, content) : null,
        };
      }
      case 'LetterRevised':
        return { ...state, version, title: event.data.title, content: event.data.content };
      case 'LetterDeleted':
        return { ...state, status: 'deleted', version, title: null, content: null, milestone: null };
      case 'LetterSealed': {
        const { releaseId, until, timeZone, dueAt, recipientName, recipientEmail } = event.data;
        return { ...state, version, milestone: { releaseId, until, timeZone, dueAt, recipientName, recipientEmail, status: 'sealed', keyId: null } };
      }
      case 'LetterUnsealed':
        return { ...state, version, milestone: null };
      case 'LetterReleased':
        return { ...state, version, milestone: state.milestone && { ...state.milestone, status: 'released' } };
      case 'LetterKeyIssued':
        return { ...state, version, milestone: state.milestone && { ...state.milestone, keyId: event.data.keyId } };
    }
  },
};
