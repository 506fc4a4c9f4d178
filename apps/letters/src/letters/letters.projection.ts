import type { EntityManager } from '@mikro-orm/postgresql';
import { letterPreview, type Letter, type LetterSummary } from '@lv/contracts';
import { projectionFor, type StoredEvent } from '@lv/platform/event-store';
import type { PagePosition } from '@lv/platform/paging';
import type { LetterEvent } from './letter.decider.js';

type Event = StoredEvent<LetterEvent>;

const LETTERS_HANDLES = ['LetterWritten', 'LetterRevised', 'LetterDeleted'] as const;
/** The events the `letters` projection is given: the store hands it only the types it handles. */
type LettersEvent = Extract<Event, { type: (typeof LETTERS_HANDLES)[number] }>;

interface LetterRow {
  id: string;
  owner_id: string;
  title: string;
  content: string;
  preview: string;
  word_count: number;
  version: number;
  created_at: string;
  updated_at: string;
}

/**
 * What a batch of events leaves behind, per letter: a row to insert (the letter was written in this
 * batch), a change to an existing row, or a deletion. Folding the batch first turns a rebuild of
 * thousands of events into three statements per batch instead of one per event.
 */
function foldBatch(events: readonly LettersEvent[]) {
  const inserts = new Map<string, LetterRow>();
  const updates = new Map<string, Omit<LetterRow, 'owner_id' | 'created_at'>>();
  const deletes = new Set<string>();
  for (const event of events) {
    const id = event.data.letterId;
    switch (event.type) {
      case 'LetterWritten': {
        const { title, content } = event.data;
        // Shredded words (the letter was deleted later): nothing to show, and its LetterDeleted follows.
        if (title === null || content === null) break;
        inserts.set(id, {
          id, owner_id: event.data.ownerId, title, content, preview: letterPreview(content), word_count: event.data.wordCount,
          version: event.version, created_at: event.data.writtenAt, updated_at: event.data.writtenAt,
        });
        break;
      }
      case 'LetterRevised': {
        const { title, content } = event.data;
        if (title === null || content === null) break;
        const change = { id, title, content, preview: letterPreview(content), word_count: event.data.wordCount, version: event.version, updated_at: event.data.revisedAt };
        const inserted = inserts.get(id);
        if (inserted) inserts.set(id, { ...inserted, ...change });
        else updates.set(id, change);
        break;
      }
      case 'LetterDeleted':
        inserts.delete(id);
        updates.delete(id);
        deletes.add(id);
        break;
    }
  }
  return { inserts: [...inserts.values()], updates: [...updates.values()], deletes: [...deletes] };
}

/**
 * `letters`: the owner's list and the viewer/editor, with the words in the clear (the owner must
 * read them). A deleted letter's row is deleted with its LetterDeleted, in the same transaction as
 * its key. `version` is the stream version the row reflects: editors send it back as expectedVersion.
 * Applying an event twice changes nothing (inserts do nothing on conflict, updates only move forward).
 */
export const lettersProjection = projectionFor<Extract<LetterEvent, { type: (typeof LETTERS_HANDLES)[number] }>>({
  name: 'letters',
  handles: LETTERS_HANDLES,

  async apply(em, events) {
    const { inserts, updates, deletes } = foldBatch(events);
    if (deletes.length) {
      await em.execute('delete from letters where id in (select jsonb_array_elements_text(?::jsonb)::uuid)', [JSON.stringify(deletes)]);
    }
    if (inserts.length) {
      await em.execute(
        `insert into letters (id, owner_id, title, content, preview, word_count, version, created_at, updated_at)
         select id, owner_id, title, content, preview, word_count, version, created_at, updated_at
           from jsonb_to_recordset(?::jsonb) as x(id uuid, owner_id uuid, title text, content text, preview text, word_count int, version int, created_at timestamptz, updated_at timestamptz)
         on conflict (id) do nothing`,
        [JSON.stringify(inserts)],
      );
    }
    if (updates.length) {
      await em.execute(
        `update letters l set title = x.title, content = x.content, preview = x.preview, word_count = x.word_count, version = x.version, updated_at = x.updated_at
           from jsonb_to_recordset(?::jsonb) as x(id uuid, title text, content text, preview text, word_count int, version int, updated_at timestamptz)
          where l.id = x.id and l.version < x.version`,
        [JSON.stringify(updates)],
      );
    }
  },

  async reset(em) {
    await em.execute('delete from letters');
  },
});

/**
 * `letter_activity_days`: the UTC days on which an owner wrote or revised a letter (the vault home's
 * "Days Active"). Dates only, no words, so it survives a letter's deletion: the day was active.
 */
export const letterActivityProjection = projectionFor<LetterEvent>({
  name: 'letter_activity_days',
  handles: ['LetterWritten', 'LetterRevised'],

  async apply(em, events) {
    const days = new Map<string, { owner_id: string; at: string }>();
    for (const event of events) {
      if (event.type !== 'LetterWritten' && event.type !== 'LetterRevised') continue;
      const at = event.type === 'LetterWritten' ? event.data.writtenAt : event.data.revisedAt;
      days.set(`${event.data.ownerId}|${at.slice(0, 10)}`, { owner_id: event.data.ownerId, at });
    }
    if (days.size === 0) return;
    await em.execute(
      `insert into letter_activity_days (owner_id, day)
       select distinct owner_id, (at at time zone 'UTC')::date from jsonb_to_recordset(?::jsonb) as x(owner_id uuid, at timestamptz)
       on conflict do nothing`,
      [JSON.stringify([...days.values()])],
    );
  },

  async reset(em) {
    await em.execute('delete from letter_activity_days');
  },
});

// Reads of the read model, always scoped to the owner: another owner's letter is simply not there.

const SUMMARY_COLUMNS = `id::text as id, title, preview, word_count, version,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at`;

/**
 * Which of a vault's letters a reader sees: the owner all of them; a key holder none sealed for a
 * milestone (before or after its release); a key limited to one letter only that letter, once released.
 */
export type LetterVisibility = { kind: 'all' } | { kind: 'unsealed' } | { kind: 'released'; letterId: string };

function visibilityFilter(visibility: LetterVisibility): { sql: string; params: unknown[] } {
  switch (visibility.kind) {
    case 'all':
      return { sql: '', params: [] };
    case 'unsealed':
      return { sql: 'and not exists (select 1 from letter_milestones m where m.letter_id = letters.id)', params: [] };
    case 'released':
      return { sql: `and id = ?::uuid and exists (select 1 from letter_milestones m where m.letter_id = letters.id and m.status = 'released')`, params: [visibility.letterId] };
  }
}

export interface PageQuery {
  ownerId: string;
  visibility: LetterVisibility;
  limit: number;
  /** The last row of the previous page. */
  after: PagePosition | null;
}

/** Newest first; ties on created_at are broken by id so paging never skips or repeats a letter. */
export async function findLetterPage(em: EntityManager, query: PageQuery): Promise<LetterSummary[]> {
  const visible = visibilityFilter(query.visibility);
  const params: unknown[] = [query.ownerId, ...visible.params];
  let after = '';
  if (query.after) {
    after = 'and (created_at, id) < (?::timestamptz, ?::uuid)';
    params.push(query.after.timestamp, query.after.id);
  }
  params.push(query.limit);
  return em.execute<LetterSummary[]>(
    `select ${SUMMARY_COLUMNS} from letters where owner_id = ? ${visible.sql} ${after} order by created_at desc, id desc limit ?`,
    params,
  );
}

export async function findLetter(em: EntityManager, ownerId: string, id: string, visibility: LetterVisibility): Promise<Letter | null> {
  const visible = visibilityFilter(visibility);
  const [row] = await em.execute<Letter[]>(`select ${SUMMARY_COLUMNS}, content from letters where id = ? and owner_id = ? ${visible.sql}`, [id, ownerId, ...visible.params]);
  return row ?? null;
}

export async function letterStats(em: EntityManager, ownerId: string): Promise<{ lettersWritten: number; activeDays: string[] }> {
  const [count] = await em.execute<{ n: number }[]>('select count(*)::int as n from letters where owner_id = ?', [ownerId]);
  const days = await em.execute<{ day: string }[]>(`select to_char(day, 'YYYY-MM-DD') as day from letter_activity_days where owner_id = ? order by day`, [ownerId]);
  return { lettersWritten: count?.n ?? 0, activeDays: days.map((d) => d.day) };
}

/** Titles of the owner's letters among `ids` (the timeline's batch lookup); others' and unknown ids are simply absent. */
export async function findLetterTitles(em: EntityManager, ownerId: string, ids: readonly string[], visibility: LetterVisibility): Promise<Record<string, string>> {
  if (!ids.length) return {};
  const visible = visibilityFilter(visibility);
  const rows = await em.execute<{ id: string; title: string }[]>(
    `select id::text as id, title from letters where owner_id = ? and id in (${ids.map(() => '?::uuid').join(', ')}) ${visible.sql}`,
    [ownerId, ...ids, ...visible.params],
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.title]));
}
