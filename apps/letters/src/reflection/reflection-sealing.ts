import type { StoredReflectionEvent } from '@lv/contracts';
import { DataKeys, openSealedText as open, sealText as seal, type StoredEvent, type StreamSealing } from '@lv/platform/event-store';
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
  return {
    streamType: REFLECTION_STREAM_TYPE,
    keys,
    keyIdOf: ownerIdOfReflectionStream,
    keyNeed: (events) => (events.some((e) => e.type === 'ReflectionSaved') ? 'ensure' : 'none'),
    shreds: () => false,
    seal(event, key, ownerId) {
      const plain = event as ReflectionEvent;
      if (plain.type === 'ReflectionCleared') return plain;
      if (key === null || plain.data.text === null) throw new Error(`cannot seal the reflection of ${ownerId}`);
      const sealed: StoredReflectionEvent = { type: 'ReflectionSaved', data: { ...plain.data, text: seal(key, plain.data.text, reflectionSealContext(ownerId)) } };
      return sealed;
    },
    open(stored: StoredEvent, key, ownerId) {
      const event = stored as unknown as StoredReflectionEvent;
      if (event.type !== 'ReflectionSaved') return stored;
      const text = key ? open(key, event.data.text, reflectionSealContext(ownerId)) : null;
      return { ...stored, data: { ...event.data, text } } as StoredEvent;
    },
  };
}
