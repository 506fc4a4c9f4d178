import type { EntityManager } from '@mikro-orm/postgresql';
import type { RecordingEvent, SealedText } from '@lv/contracts';
import { DataKeys, openSealedText, sealText, typedSealing, type DomainEvent, type StreamSealing } from '@lv/platform/event-store';
import { RECORDING_STREAM_TYPE, recordingIdOfStream } from './recording.decider.js';

/** The events that carry the title the parent typed. */
const TITLED = ['RecordingUploadStarted', 'RecordingSaved', 'RecordingRetitled'] as const;
type TitledEvent = Extract<RecordingEvent, { type: (typeof TITLED)[number] }>;
/** After these nothing needs the title again: the recording is deleted, or its upload can never complete. */
const SHREDDING = ['RecordingDeleted', 'RecordingUploadAbandoned'] as const;

const isTitled = (event: { type: string }): event is TitledEvent => (TITLED as readonly string[]).includes(event.type);
const shreds = (events: readonly DomainEvent[]) => events.some((e) => (SHREDDING as readonly string[]).includes(e.type));

/**
 * A titled event's title as the events table holds it: sealed; null once shredded by the upgrade
 * (sealTitlesOfExistingRecordings); a plain string only if a process older than the sealing wrote it
 * after that upgrade ran (a rolling deploy), which is why open passes strings through.
 */
type StoredTitle = SealedText | string | null;

/** A titled event with its title as `T`. */
type Titled<T> = { [K in TitledEvent['type']]: { type: K; data: Omit<Extract<TitledEvent, { type: K }>['data'], 'title'> & { title: T } } }[TitledEvent['type']];
/** A recording event as the events table holds it. */
type StoredRecordingEvent = Exclude<RecordingEvent, TitledEvent> | Titled<StoredTitle>;

/** A recording event read back from the store: a titled event's title is null once its key is gone. */
export type OpenedRecordingEvent =
  | Exclude<RecordingEvent, TitledEvent>
  | { type: 'RecordingUploadStarted'; data: Omit<Extract<TitledEvent, { type: 'RecordingUploadStarted' }>['data'], 'title'> & { title: string | null } }
  | { type: 'RecordingSaved'; data: Omit<Extract<TitledEvent, { type: 'RecordingSaved' }>['data'], 'title'> & { title: string | null } }
  | { type: 'RecordingRetitled'; data: Omit<Extract<TitledEvent, { type: 'RecordingRetitled' }>['data'], 'title'> & { title: string | null } };

/** The title is bound to its recording: a sealed title copied into another recording's event fails to open. */
export const recordingSealContext = (recordingId: string) => `recording:${recordingId}:title`;

/**
 * The per-recording data keys (table recording_keys): created with RecordingUploadStarted, destroyed
 * with RecordingDeleted or RecordingUploadAbandoned, in the same transaction (crypto-shredding, see DataKeys).
 */
export class RecordingKeys extends DataKeys {
  constructor() {
    super({ table: 'recording_keys', idColumn: 'recording_id' });
  }
}

/**
 * A recording's title sealed under the recording's own key, as letters seal their words. Deleting
 * the recording (or abandoning its upload) destroys the key: the title in every past event of the
 * stream is then unreadable, while the facts (sizes, hashes, times) stay.
 */
export function recordingSealing(keys: RecordingKeys): StreamSealing {
  return typedSealing<RecordingEvent, StoredRecordingEvent, OpenedRecordingEvent>({
    streamType: RECORDING_STREAM_TYPE,
    keys,
    keyIdOf: recordingIdOfStream,
    keyNeed(events) {
      if (events.some((e) => e.type === 'RecordingUploadStarted')) return 'new';
      // 'ensure' rather than 'existing': an upload started by an older process has no key yet. A
      // stream shredded meanwhile cannot be saved anyway: its RecordingSaved loses the version race.
      return events.some(isTitled) ? 'ensure' : 'none';
    },
    shreds,
    seal(event, key, recordingId) {
      if (!isTitled(event)) return event;
      if (key === null) throw new Error(`cannot seal the title of recording ${recordingId}`);
      const title = sealText(key, event.data.title, recordingSealContext(recordingId));
      switch (event.type) {
        case 'RecordingUploadStarted':
          return { type: event.type, data: { ...event.data, title } };
        case 'RecordingSaved':
          return { type: event.type, data: { ...event.data, title } };
        case 'RecordingRetitled':
          return { type: event.type, data: { ...event.data, title } };
      }
    },
    open(stored, key, recordingId) {
      // Null (shredded by the upgrade) and plain (written by an older process) titles pass as they are.
      const opened = (title: StoredTitle) => (title === null || typeof title === 'string' ? title : key ? openSealedText(key, title, recordingSealContext(recordingId)) : null);
      switch (stored.type) {
        case 'RecordingUploadStarted':
          return { ...stored, data: { ...stored.data, title: opened(stored.data.title) } };
        case 'RecordingSaved':
          return { ...stored, data: { ...stored.data, title: opened(stored.data.title) } };
        case 'RecordingRetitled':
          return { ...stored, data: { ...stored.data, title: opened(stored.data.title) } };
        default:
          return stored;
      }
    },
  });
}

/** How many titled events the upgrade seals per statement round. */
const UPGRADE_BATCH = 500;

/**
 * The upgrade of a store written before titles were sealed: every plaintext title in the events
 * table is sealed under its recording's key (created here), and the titles of recordings already
 * deleted or abandoned are removed outright (set to null), as their shredding would have done.
 * Runs in the caller's transaction (the migration's); idempotent: sealed and null titles are skipped.
 * Returns how many events it sealed and how many titles it removed.
 */
export async function sealTitlesOfExistingRecordings(em: EntityManager, keys: RecordingKeys): Promise<{ sealed: number; removed: number }> {
  let sealed = 0;
  let removed = 0;
  for (;;) {
    const rows = await em.execute<{ event_id: string; stream_id: string; title: string; shredded: boolean }[]>(
      `select e.event_id::text as event_id, e.stream_id, e.data->>'title' as title,
              exists (select 1 from events s where s.stream_id = e.stream_id and s.type in (select jsonb_array_elements_text(?::jsonb))) as shredded
         from events e
        where e.stream_type = ? and e.type in (select jsonb_array_elements_text(?::jsonb)) and jsonb_typeof(e.data->'title') = 'string'
        order by e.global_position
        limit ?`,
      [JSON.stringify(SHREDDING), RECORDING_STREAM_TYPE, JSON.stringify(TITLED), UPGRADE_BATCH],
    );
    if (rows.length === 0) return { sealed, removed };
    const updates: { event_id: string; title: SealedText | null }[] = [];
    for (const row of rows) {
      if (row.shredded) {
        updates.push({ event_id: row.event_id, title: null });
        removed++;
        continue;
      }
      const recordingId = recordingIdOfStream(row.stream_id);
      const key = await keys.findOrCreate(em, recordingId);
      if (!key) throw new Error(`no data key for recording ${recordingId}`);
      updates.push({ event_id: row.event_id, title: sealText(key, row.title, recordingSealContext(recordingId)) });
      sealed++;
    }
    await em.execute(
      `update events e set data = jsonb_set(e.data, '{title}', coalesce(u.title, 'null'::jsonb))
         from jsonb_to_recordset(?::jsonb) as u(event_id uuid, title jsonb)
        where e.event_id = u.event_id`,
      [JSON.stringify(updates)],
    );
  }
}
