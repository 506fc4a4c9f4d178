import { validateReflectionText, type ReflectionClearedData } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A user's vault-home reflection ("Thoughts & Feelings"): one stream per user,
 * `reflection-{userId}`. Its events as the rules see them, with the text in the clear; the store
 * seals it on the way in (reflection-sealing.ts). `text` is null only if the stream's key were gone.
 */
export type ReflectionEvent =
  | { type: 'ReflectionSaved'; data: { ownerId: string; text: string | null; savedAt: string } }
  | { type: 'ReflectionCleared'; data: ReflectionClearedData };

export interface ReflectionState {
  ownerId: string | null;
  /** The saved text, null when there is none (never saved, or cleared). */
  text: string | null;
  version: number;
}

/**
 * Saving is the one command: a blank text clears the reflection. `ownerId` is the verified caller,
 * and the stream is named after it, so a user can only ever reach their own reflection. `now` is
 * when the service received the command: the decider reads no clock.
 */
export type ReflectionCommand = { type: 'SaveReflection'; ownerId: string; text: string; now: string };

export const REFLECTION_STREAM_TYPE = 'reflection';
export const reflectionStreamId = (userId: string) => `reflection-${userId}`;

export function ownerIdOfReflectionStream(streamId: string): string {
  if (!streamId.startsWith('reflection-')) throw new Error(`not a reflection stream: ${streamId}`);
  return streamId.slice('reflection-'.length);
}

export const reflectionDecider: Decider<ReflectionState, ReflectionCommand, ReflectionEvent> = {
  initialState: () => ({ ownerId: null, text: null, version: 0 }),

  decide(command, state) {
    // Cannot happen through the service (the stream is the caller's own): refuse rather than write.
    if (state.ownerId !== null && state.ownerId !== command.ownerId) throw new DomainError('NOT_FOUND');
    const { text, error } = validateReflectionText(command.text);
    if (error) throw validationError({ text: error }, error);
    if (text === '') {
      // Clearing what is not there records nothing.
      return state.text === null ? [] : [{ type: 'ReflectionCleared', data: { ownerId: command.ownerId, clearedAt: command.now } }];
    }
    // The same words again (a retry, a second tab, a double click) record nothing.
    if (text === state.text) return [];
    return [{ type: 'ReflectionSaved', data: { ownerId: command.ownerId, text, savedAt: command.now } }];
  },

  evolve(state, event) {
    const version = state.version + 1;
    switch (event.type) {
      case 'ReflectionSaved':
        return { ownerId: event.data.ownerId, text: event.data.text, version };
      case 'ReflectionCleared':
        return { ownerId: event.data.ownerId, text: null, version };
    }
  },
};
