import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reflection } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { ReflectionEvent } from './reflection.decider.js';


/**
 * `reflections`: each user's current reflection, text in the clear for its owner only (every read
 * filters on the verified caller). A ReflectionCleared deletes the row. Within a batch the last
 * event of a user wins; applying the same events again gives the same row.
 */
export const reflectionsProjection = projectionFor<ReflectionEvent>({
  name: 'reflections',
  handles: ['ReflectionSaved', 'ReflectionCleared'],

  async apply(em, events) {
    const latest = new Map<string, { user_id: string; text: string | null; updated_at: string }>();
    for (const event of events) {
      if (event.type === 'ReflectionSaved') latest.set(event.data.ownerId, { user_id: event.data.ownerId, text: event.data.text, updated_at: event.data.savedAt });
      else latest.set(event.data.ownerId, { user_id: event.data.ownerId, text: null, updated_at: event.data.clearedAt });
    }
    const cleared = [...latest.values()].filter((r) => r.text === null).map((r) => r.user_id);
    const saved = [...latest.values()].filter((r) => r.text !== null);
    if (cleared.length) {
      await em.execute('delete from reflections where user_id in (select jsonb_array_elements_text(?::jsonb)::uuid)', [JSON.stringify(cleared)]);
    }
    if (saved.length) {
      await em.execute(
        `insert into reflections (user_id, text, updated_at)
         select user_id, text, updated_at from jsonb_to_recordset(?::jsonb) as x(user_id uuid, text text, updated_at timestamptz)
         on conflict (user_id) do update set text = excluded.text, updated_at = excluded.updated_at`,
        [JSON.stringify(saved)],
      );
    }
  },

  async reset(em) {
    await em.execute('delete from reflections');
  },
});

const NONE: Reflection = { text: '', updated_at: null };

export async function findReflection(em: EntityManager, userId: string): Promise<Reflection> {
  const [row] = await em.execute<Reflection[]>(
    `select text, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from reflections where user_id = ?`,
    [userId],
  );
  return row ?? NONE;
}

/** "Thoughts Saved" (1 with a saved reflection) and the UTC day it was saved, for "Days Active". */
export async function reflectionStats(em: EntityManager, userId: string): Promise<{ thoughtsSaved: number; activeDays: string[] }> {
  const [row] = await em.execute<{ day: string }[]>(`select to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD') as day from reflections where user_id = ?`, [userId]);
  return row ? { thoughtsSaved: 1, activeDays: [row.day] } : { thoughtsSaved: 0, activeDays: [] };
}
