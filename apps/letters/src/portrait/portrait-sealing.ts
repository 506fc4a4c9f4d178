import type { PortraitWords, StoredPortraitEvent } from '@lv/contracts';
import { DataKeys, openSealedText as open, sealText as seal, typedSealing, type StreamSealing } from '@lv/platform/event-store';
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
  return typedSealing<PortraitEvent, StoredPortraitEvent>({
    streamType: PORTRAIT_STREAM_TYPE,
    keys,
    keyIdOf: ownerIdOfPortraitStream,
    keyNeed: (events) => (events.length ? 'ensure' : 'none'),
    shreds: () => false,
    seal(event, key, ownerId) {
      if (key === null || event.data.portrait === null) throw new Error(`cannot seal the portrait of ${ownerId}`);
      return { type: 'PortraitSaved', data: { ...event.data, portrait: seal(key, JSON.stringify(event.data.portrait), portraitSealContext(ownerId)) } };
    },
    open(stored, key, ownerId) {
      const words = key ? open(key, stored.data.portrait, portraitSealContext(ownerId)) : null;
      const portrait = words === null ? null : (JSON.parse(words) as PortraitWords);
      return { ...stored, data: { ...stored.data, portrait } };
    },
  });
}
