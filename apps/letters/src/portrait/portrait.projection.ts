import type { EntityManager } from '@mikro-orm/postgresql';
import { EMPTY_PORTRAIT, filledPortraitSections, PORTRAIT_SECTIONS, type Portrait, type PortraitSections, type PortraitWords } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { PortraitEvent } from './portrait.decider.js';


/**
 * `portraits`: each user's current portrait, words in the clear for its owner only (every read filters
 * on the verified caller). Within a batch the last event of a user wins; applying the same events
 * again gives the same row. A portrait whose key is gone keeps no row (nothing to show).
 */
export const portraitsProjection = projectionFor<PortraitEvent>({
  name: 'portraits',
  handles: ['PortraitSaved'],

  async apply(em, events) {
    const latest = new Map<string, { user_id: string; words: PortraitWords | null; updated_at: string }>();
    for (const event of events) latest.set(event.data.ownerId, { user_id: event.data.ownerId, words: event.data.portrait, updated_at: event.data.savedAt });
    const rows = [...latest.values()].filter((row) => row.words !== null);
    if (!rows.length) return;
    await em.execute(
      `insert into portraits (user_id, words, updated_at)
       select user_id, words, updated_at from jsonb_to_recordset(?::jsonb) as x(user_id uuid, words jsonb, updated_at timestamptz)
       on conflict (user_id) do update set words = excluded.words, updated_at = excluded.updated_at`,
      [JSON.stringify(rows)],
    );
  },

  async reset(em) {
    await em.execute('delete from portraits');
  },
});

async function findRow(em: EntityManager, userId: string): Promise<{ words: PortraitWords; updated_at: string } | null> {
  const [row] = await em.execute<{ words: PortraitWords; updated_at: string }[]>(
    `select words, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from portraits where user_id = ?`,
    [userId],
  );
  return row ?? null;
}

export function portraitOnTheWire(words: PortraitWords, updatedAt: string | null): Portrait {
  return {
    about_me: words.aboutMe,
    personality_traits: words.personalityTraits,
    favorite_music: words.favoriteMusic,
    favorite_films: words.favoriteFilms,
    core_values: words.coreValues,
    updated_at: updatedAt,
  };
}

/** The caller's portrait; every field empty and `updated_at` null when none was saved. */
export async function findPortrait(em: EntityManager, userId: string): Promise<Portrait> {
  const row = await findRow(em, userId);
  return row ? portraitOnTheWire(row.words, row.updated_at) : portraitOnTheWire(EMPTY_PORTRAIT, null);
}

/** The sections a portrait has filled, by name and with when it was saved: what a key holder's tab lists. */
export async function findPortraitSections(em: EntityManager, userId: string): Promise<PortraitSections> {
  const row = await findRow(em, userId);
  if (!row) return [];
  return filledPortraitSections(row.words).map((key) => ({ id: `${userId}:${key}`, section: PORTRAIT_SECTIONS[key], created_at: row.updated_at }));
}
