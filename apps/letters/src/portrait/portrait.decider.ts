import { normalisePortrait, type PortraitInput, type PortraitWords } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A user's Who I Am portrait: one stream per user, `portrait-{userId}`. Its events as the rules see
 * them, with the words in the clear; the store seals them on the way in (portrait-sealing.ts).
 * `portrait` is null only if the stream's key were gone.
 */
export type PortraitEvent = { type: 'PortraitSaved'; data: { ownerId: string; portrait: PortraitWords | null; savedAt: string } };

export interface PortraitState {
  ownerId: string | null;
  portrait: PortraitWords | null;
  version: number;
}

/** Save Profile saves the whole portrait. `ownerId` is the verified caller; `now` is when the service received it. */
export type PortraitCommand = { type: 'SavePortrait'; ownerId: string; portrait: PortraitInput; now: string };

export const PORTRAIT_STREAM_TYPE = 'portrait';
export const portraitStreamId = (userId: string) => `portrait-${userId}`;

export function ownerIdOfPortraitStream(streamId: string): string {
  if (!streamId.startsWith('portrait-')) throw new Error(`not a portrait stream: ${streamId}`);
  return streamId.slice('portrait-'.length);
}

const samePortrait = (a: PortraitWords, b: PortraitWords) => JSON.stringify(a) === JSON.stringify(b);

export const portraitDecider: Decider<PortraitState, PortraitCommand, PortraitEvent> = {
  initialState: () => ({ ownerId: null, portrait: null, version: 0 }),

  decide(command, state) {
    // Cannot happen through the service (the stream is the caller's own): refuse rather than write.
    if (state.ownerId !== null && state.ownerId !== command.ownerId) throw new DomainError('NOT_FOUND');
    const { portrait, errors } = normalisePortrait(command.portrait);
    const [first] = Object.values(errors);
    if (first) throw validationError(errors, first);
    // The same portrait again (a retry, a second tab, a double click) records nothing.
    if (state.portrait && samePortrait(state.portrait, portrait)) return [];
    return [{ type: 'PortraitSaved', data: { ownerId: command.ownerId, portrait, savedAt: command.now } }];
  },

  evolve(state, event) {
    return { ownerId: event.data.ownerId, portrait: event.data.portrait, version: state.version + 1 };
  },
};
