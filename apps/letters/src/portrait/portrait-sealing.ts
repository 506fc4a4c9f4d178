import type { PortraitWords, StoredPortraitEvent } from '@lv/contracts';
import { DataKeys, openSealedText as open, sealText as seal, type StoredEvent, type StreamSealing } from '@lv/platform/event-store';
import { ownerIdOfPortraitStream, PORTRAIT_STREAM_TYPE, type PortraitEvent } from './portrait.decider.js';

/** The words are bound to their owner: a sealed portrait copied into another user's stream fails to open. */
export const portraitSealContext = (ownerId: string) => `portrait:${ownerId}:words`;

/** One data key per user's portrait stream (table portrait_keys), created with the first save. */
export class PortraitKeys extends DataKeys {
  constructor() {
    super({ table: 'portrait_keys', idColumn: 'owner_id' });
  }
}

/** The whole portrait sealed as one JSON text under its stream's key, exactly like a reflection's text. */
export function portraitSealing(keys: PortraitKeys): StreamSealing {
  return {
    streamType: PORTRAIT_STREAM_TYPE,
    keys,
    keyIdOf: ownerIdOfPortraitStream,
    keyNeed: (events) => (events.length ? 'ensure' : 'none'),
    shreds: () => false,
    seal(event, key, ownerId) {
      const plain = event as PortraitEvent;
      if (key === null || plain.data.portrait === null) throw new Error(`cannot seal the portrait of ${ownerId}`);
      const sealed: StoredPortraitEvent = { type: 'PortraitSaved', data: { ...plain.data, portrait: seal(key, JSON.stringify(plain.data.portrait), portraitSealContext(ownerId)) } };
      return sealed;
    },
    open(stored: StoredEvent, key, ownerId) {
      const event = stored as unknown as StoredPortraitEvent;
      const words = key ? open(key, event.data.portrait, portraitSealContext(ownerId)) : null;
      const portrait = words === null ? null : (JSON.parse(words) as PortraitWords);
      return { ...stored, data: { ...event.data, portrait } } as StoredEvent;
    },
  };
}
