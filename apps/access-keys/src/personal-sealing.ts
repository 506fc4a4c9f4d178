import type { SealedText } from '@lv/contracts';
import { DataKeys, openSealedText, sealText, typedSealing, type DomainEvent, type StreamSealing } from '@lv/platform/event-store';

/**
 * The personal data in access-keys' events (a requester's e-mail and message, a recipient's name and
 * address) sealed under a key per stream (table personal_data_keys, by the request's or key's id), like letters' words: the events
 * table never holds them in the clear, and destroying a stream's key erases them from history while
 * the facts (ids, times, decisions) stay. Only the first event of a stream carries a `personal` field,
 * except in streams sealed with `everyEvent`.
 */
export class PersonalDataKeys extends DataKeys {
  constructor() {
    super({ table: 'personal_data_keys', idColumn: 'subject_id' });
  }
}

/** An access-keys event: its facts, and on some a `personal` field (in the clear) or `sealedPersonal` (as stored). */
type PersonalEvent = DomainEvent<string, { personal?: unknown; sealedPersonal?: SealedText | null } & Record<string, unknown>>;

/** Streams are named `<type>-<uuid>`; their key is filed under the uuid (the request, the key). */
const subjectOf = (streamId: string) => streamId.slice(-36);
const carriesPersonal = (event: PersonalEvent) => typeof event.data === 'object' && event.data !== null && 'personal' in event.data;

/**
 * Seals the `personal` field of the events of one stream type. `everyEvent`: a stream whose every
 * save carries personal data (an owner's delivery settings) keeps one key for all of them.
 */
export function personalSealing(streamType: string, keys: PersonalDataKeys, { everyEvent = false }: { everyEvent?: boolean } = {}): StreamSealing {
  return typedSealing<PersonalEvent, PersonalEvent>({
    streamType,
    keys,
    keyIdOf: subjectOf,
    keyNeed: (events) => (events.some(carriesPersonal) ? (everyEvent ? 'ensure' : 'new') : 'none'),
    shreds: () => false,
    seal(event, key, subjectId) {
      if (!carriesPersonal(event)) return event;
      const { personal, ...facts } = event.data;
      if (!key) throw new Error(`no key to seal the personal data of ${streamType} ${subjectId}`);
      const sealedPersonal = personal === null ? null : sealText(key, JSON.stringify(personal), `personal:${streamType}:${subjectId}`);
      return { ...event, data: { ...facts, sealedPersonal } };
    },
    open(stored, key, subjectId) {
      const data = stored.data;
      if (!('sealedPersonal' in data)) return stored;
      const { sealedPersonal, ...facts } = data;
      // A destroyed key (erased personal data) leaves the facts with `personal: null`.
      const personal = key && sealedPersonal ? (JSON.parse(openSealedText(key, sealedPersonal, `personal:${streamType}:${subjectId}`)) as unknown) : null;
      return { ...stored, data: { ...facts, personal } };
    },
  });
}
