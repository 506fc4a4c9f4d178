import { createHash } from 'node:crypto';
import { countWords, LetterMessages, validateLetterInput, type LetterDeletedData } from '@lv/contracts';
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
export type LetterEvent =
  | { type: 'LetterWritten'; data: { letterId: string; ownerId: string; wordCount: number; writtenAt: string } & LetterWords }
  | { type: 'LetterRevised'; data: { letterId: string; ownerId: string; wordCount: number; revisedAt: string } & LetterWords }
  | { type: 'LetterDeleted'; data: LetterDeletedData };

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
}

/**
 * `ownerId` is always the verified caller (from the access token), never something the client sent.
 * `now` is the time the service received the command: the decider reads no clock.
 */
export type LetterCommand =
  | { type: 'WriteLetter'; letterId: string; ownerId: string; title: string; content: string; now: string }
  | { type: 'ReviseLetter'; letterId: string; ownerId: string; title: string; content: string; expectedVersion: number; now: string }
  | { type: 'DeleteLetter'; letterId: string; ownerId: string; now: string };

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

export const letterDecider: Decider<LetterState, LetterCommand, LetterEvent> = {
  initialState: () => ({ status: 'none', ownerId: null, version: 0, writtenDigest: null, title: null, content: null }),

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
        return { ...state, status: 'deleted', version, title: null, content: null };
    }
  },
};
