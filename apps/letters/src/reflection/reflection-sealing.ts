import type { StoredReflectionEvent } from '@lv/contracts';
import { DataKeys, openSealedText as open, sealText as seal, typedSealing, type StreamSealing } from '@lv/platform/event-store';
import { ownerIdOfReflectionStream, REFLECTION_STREAM_TYPE, type ReflectionEvent } from './reflection.decider.js';

/** The text is bound to its owner: a sealed reflection copied into another user's stream fails to open. */
export const reflectionSealContext = (ownerId: string) => `reflection:${ownerId}:text`;

/** One data key per user's reflection stream (table reflection_keys), created with the first save. */
export class ReflectionKeys extends DataKeys {
  constructor() {
    super({ table: 'reflection_keys', idColumn: 'owner_id' });
  }
}

/**
 * A reflection's text sealed under its stream's key, exactly like a letter's words. Clearing keeps
 * the key (the stream lives on and may be saved again), so a cleared text is not shredded: erasing
 * it would need a key per save.
 */
export function reflectionSealing(keys: ReflectionKeys): StreamSealing {
  return typedSealing<ReflectionEvent, StoredReflectionEvent>({
    streamType: REFLECTION_STREAM_TYPE,
    keys,
    keyIdOf: ownerIdOfReflectionStream,
    keyNeed: (events) => (events.some((e) => e.type === 'ReflectionSaved') ? 'ensure' : 'none'),
    shreds: () => false,
    seal(event, key, ownerId) {
      if (event.type === 'ReflectionCleared') return event;
      if (key === null || event.data.text === null) throw new Error(`cannot seal the reflection of ${ownerId}`);
      return { type: 'ReflectionSaved', data: { ...event.data, text: seal(key, event.data.text, reflectionSealContext(ownerId)) } };
    },
    open(stored, key, ownerId) {
      if (stored.type !== 'ReflectionSaved') return stored;
      const text = key ? open(key, stored.data.text, reflectionSealContext(ownerId)) : null;
      return { ...stored, data: { ...stored.data, text } };
    },
  });
}
