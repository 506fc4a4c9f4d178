import type { SealedText, StoredLetterEvent, StoredLetterMilestoneEvent } from '@lv/contracts';
import { typedSealing, type StoredEvent, type StreamSealing } from '@lv/platform/event-store';
import { open, seal, sealContext } from './letter-crypto.js';
import { LETTER_STREAM_TYPE, letterIdOfStream, type LetterEvent } from './letter.decider.js';
import type { LetterKeys } from './letter-keys.js';

type Sealed = StoredLetterEvent | StoredLetterMilestoneEvent;
type Field = Parameters<typeof sealContext>[1];

/** The events that carry words or personal details (sealed); the others are facts only. */
const carriesWords = (event: { type: string }) => event.type === 'LetterWritten' || event.type === 'LetterRevised' || event.type === 'LetterSealed';

function sealEvent(event: LetterEvent, key: Buffer | null): Sealed {
  switch (event.type) {
    case 'LetterSealed': {
      const { recipientName, recipientEmail, sharedBy, letterId } = event.data;
      if (key === null || recipientName === null || recipientEmail === null || sharedBy === null) throw new Error(`cannot seal LetterSealed of letter ${letterId}`);
      const sealed = (field: Field, value: string) => seal(key, value, sealContext(letterId, field));
      return { type: 'LetterSealed', data: { ...event.data, recipientName: sealed('recipientName', recipientName), recipientEmail: sealed('recipientEmail', recipientEmail), sharedBy: sealed('sharedBy', sharedBy) } };
    }
    case 'LetterWritten':
    case 'LetterRevised': {
      const { title, content, letterId } = event.data;
      if (key === null || title === null || content === null) throw new Error(`cannot seal ${event.type} of letter ${letterId}`);
      const words = { title: seal(key, title, sealContext(letterId, 'title')), content: seal(key, content, sealContext(letterId, 'content')) };
      return event.type === 'LetterWritten' ? { type: 'LetterWritten', data: { ...event.data, ...words } } : { type: 'LetterRevised', data: { ...event.data, ...words } };
    }
    default:
      return event;
  }
}

/** The words of a stored event, or null for all of them when the letter's key is gone (it was deleted). */
function openEvent(stored: StoredEvent<Sealed>, key: Buffer | null): StoredEvent<LetterEvent> {
  const opened = (letterId: string, field: Field, value: SealedText) => (key ? open(key, value, sealContext(letterId, field)) : null);
  switch (stored.type) {
    case 'LetterSealed': {
      const data = stored.data;
      return {
        ...stored,
        data: { ...data, recipientName: opened(data.letterId, 'recipientName', data.recipientName), recipientEmail: opened(data.letterId, 'recipientEmail', data.recipientEmail), sharedBy: opened(data.letterId, 'sharedBy', data.sharedBy) },
      };
    }
    case 'LetterWritten': {
      const data = stored.data;
      return { ...stored, data: { ...data, title: opened(data.letterId, 'title', data.title), content: opened(data.letterId, 'content', data.content) } };
    }
    case 'LetterRevised': {
      const data = stored.data;
      return { ...stored, data: { ...data, title: opened(data.letterId, 'title', data.title), content: opened(data.letterId, 'content', data.content) } };
    }
    default:
      return stored;
  }
}

/**
 * Letters' words (title and content) sealed under each letter's own key (crypto-shredding): the key
 * is created with LetterWritten and destroyed with LetterDeleted, after which the words of every
 * past event of the letter are unrecoverable while the facts stay.
 */
export function letterSealing(keys: LetterKeys): StreamSealing {
  return typedSealing<LetterEvent, Sealed>({
    streamType: LETTER_STREAM_TYPE,
    keys,
    keyIdOf: letterIdOfStream,
    keyNeed(events) {
      if (events[0]?.type === 'LetterWritten') return 'new';
      // No key for a revision: the letter was deleted since the command read the stream. Facts alone
      // (deleted, unsealed, released, key issued) need none.
      return events.some(carriesWords) ? 'existing' : 'none';
    },
    shreds: (events) => events.some((e) => e.type === 'LetterDeleted'),
    seal: (event, key) => sealEvent(event, key),
    open: (event, key) => openEvent(event, key),
  });
}
