import type { StoredLetterEvent, StoredLetterMilestoneEvent } from '@lv/contracts';
import type { DomainEvent, StoredEvent, StreamSealing } from '@lv/platform/event-store';
import { open, seal, sealContext } from './letter-crypto.js';
import { LETTER_STREAM_TYPE, letterIdOfStream, type LetterEvent } from './letter.decider.js';
import type { LetterKeys } from './letter-keys.js';

type Sealed = StoredLetterEvent | StoredLetterMilestoneEvent;

/** The events that carry words or personal details (sealed); the others are facts only. */
const carriesWords = (event: LetterEvent | Sealed): event is Extract<LetterEvent, { type: 'LetterWritten' | 'LetterRevised' | 'LetterSealed' }> =>
  event.type === 'LetterWritten' || event.type === 'LetterRevised' || event.type === 'LetterSealed';

const RECIPIENT_FIELDS = ['recipientName', 'recipientEmail', 'sharedBy'] as const;

function sealEvent(event: LetterEvent, key: Buffer | null): Sealed {
  if (!carriesWords(event)) return event as Sealed;
  if (event.type === 'LetterSealed') {
    const { recipientName, recipientEmail, sharedBy, ...facts } = event.data;
    if (key === null || recipientName === null || recipientEmail === null || sharedBy === null) throw new Error(`cannot seal LetterSealed of letter ${facts.letterId}`);
    const clear = { recipientName, recipientEmail, sharedBy };
    const sealed = Object.fromEntries(RECIPIENT_FIELDS.map((field) => [field, seal(key, clear[field], sealContext(facts.letterId, field))]));
    return { type: 'LetterSealed', data: { ...facts, ...sealed } as Extract<Sealed, { type: 'LetterSealed' }>['data'] };
  }
  const { title, content, ...facts } = event.data;
  if (key === null || title === null || content === null) throw new Error(`cannot seal ${event.type} of letter ${facts.letterId}`);
  const sealed = { title: seal(key, title, sealContext(facts.letterId, 'title')), content: seal(key, content, sealContext(facts.letterId, 'content')) };
  return event.type === 'LetterWritten'
    ? { type: 'LetterWritten', data: { ...(facts as Extract<LetterEvent, { type: 'LetterWritten' }>['data']), ...sealed } }
    : { type: 'LetterRevised', data: { ...(facts as Extract<LetterEvent, { type: 'LetterRevised' }>['data']), ...sealed } };
}

/** The words of a stored event, or null for both when the letter's key is gone (it was deleted). */
function openEvent(stored: StoredEvent, key: Buffer | null): StoredEvent {
  const event = stored as unknown as Sealed;
  if (!carriesWords(event)) return stored;
  if (event.type === 'LetterSealed') {
    const data = event.data;
    const opened = Object.fromEntries(RECIPIENT_FIELDS.map((field) => [field, key ? open(key, data[field], sealContext(data.letterId, field)) : null]));
    return { ...stored, data: { ...data, ...opened } } as StoredEvent;
  }
  const { title, content, ...facts } = event.data;
  const words = key
    ? { title: open(key, title, sealContext(facts.letterId, 'title')), content: open(key, content, sealContext(facts.letterId, 'content')) }
    : { title: null, content: null };
  return { ...stored, data: { ...facts, ...words } } as StoredEvent;
}

/**
 * Letters' words (title and content) sealed under each letter's own key (crypto-shredding): the key
 * is created with LetterWritten and destroyed with LetterDeleted, after which the words of every
 * past event of the letter are unrecoverable while the facts stay.
 */
export function letterSealing(keys: LetterKeys): StreamSealing {
  const plain = (events: readonly DomainEvent[]) => events as readonly LetterEvent[];
  return {
    streamType: LETTER_STREAM_TYPE,
    keys,
    keyIdOf: letterIdOfStream,
    keyNeed(events) {
      const letterEvents = plain(events);
      if (letterEvents[0]?.type === 'LetterWritten') return 'new';
      // No key for a revision: the letter was deleted since the command read the stream. Facts alone
      // (deleted, unsealed, released, key issued) need none.
      return letterEvents.some(carriesWords) ? 'existing' : 'none';
    },
    shreds: (events) => plain(events).some((e) => e.type === 'LetterDeleted'),
    seal: (event, key) => sealEvent(event as LetterEvent, key),
    open: (event, key) => openEvent(event, key),
  };
}
