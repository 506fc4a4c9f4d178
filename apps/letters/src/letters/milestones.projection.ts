import type { EntityManager } from '@mikro-orm/postgresql';
import type { LetterMilestone } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { LetterEvent } from './letter.decider.js';

/** The store hands a projection only the types it handles: apply() is given these events. */
const HANDLES = ['LetterSealed', 'LetterUnsealed', 'LetterReleased', 'LetterKeyIssued', 'LetterDeleted'] as const;

/**
 * `letter_milestones`: the letters sealed until a day, one row per letter, with its recipient in the
 * clear for the owner. The row stays after the release (a released letter is still no one's but its
 * recipient's) and goes with its letter. Each event also moves the letter's `version` forward, since
 * the editor sends that version back and milestone events are part of the letter's stream.
 * Applying an event twice changes nothing (`version` only moves forward).
 */
export const milestonesProjection = projectionFor<Extract<LetterEvent, { type: (typeof HANDLES)[number] }>>({
  name: 'letter_milestones',
  handles: HANDLES,

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'LetterSealed': {
          const d = event.data;
          // Shredded details: the letter was deleted later and its LetterDeleted follows.
          if (d.recipientName === null || d.recipientEmail === null || d.sharedBy === null) break;
          await em.execute(
            `insert into letter_milestones (letter_id, owner_id, release_id, until, time_zone, due_at, recipient_name, recipient_email, shared_by, status, version)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sealed', ?)
             on conflict (letter_id) do update set release_id = excluded.release_id, until = excluded.until, time_zone = excluded.time_zone, due_at = excluded.due_at,
               recipient_name = excluded.recipient_name, recipient_email = excluded.recipient_email, shared_by = excluded.shared_by, status = 'sealed',
               released_at = null, key_id = null, version = excluded.version
             where letter_milestones.version < excluded.version`,
            [d.letterId, d.ownerId, d.releaseId, d.until, d.timeZone, d.dueAt, d.recipientName, d.recipientEmail, d.sharedBy, event.version],
          );
          break;
        }
        case 'LetterUnsealed':
        case 'LetterDeleted':
          await em.execute('delete from letter_milestones where letter_id = ? and version < ?', [event.data.letterId, event.version]);
          break;
        case 'LetterReleased':
          await em.execute(`update letter_milestones set status = 'released', released_at = ?, version = ? where letter_id = ? and version < ?`, [
            event.data.releasedAt, event.version, event.data.letterId, event.version,
          ]);
          break;
        case 'LetterKeyIssued':
          await em.execute('update letter_milestones set key_id = ?, version = ? where letter_id = ? and version < ?', [event.data.keyId, event.version, event.data.letterId, event.version]);
          break;
      }
      if (event.type !== 'LetterDeleted') {
        await em.execute('update letters set version = greatest(version, ?) where id = ?', [event.version, event.data.letterId]);
      }
    }
  },

  async reset(em) {
    await em.execute('delete from letter_milestones');
  },
});

interface MilestoneRow {
  letter_id: string;
  until: string;
  time_zone: string;
  due_at: string;
  recipient_name: string;
  recipient_email: string;
  status: 'sealed' | 'released';
  released_at: string | null;
}

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The owner's milestones among `letterIds`, keyed by letter id. */
export async function findMilestones(em: EntityManager, ownerId: string, letterIds: readonly string[]): Promise<Map<string, LetterMilestone>> {
  if (!letterIds.length) return new Map();
  const rows = await em.execute<MilestoneRow[]>(
    `select letter_id::text as letter_id, until, time_zone, ${ISO('due_at')} as due_at, recipient_name, recipient_email, status, ${ISO('released_at')} as released_at
       from letter_milestones where owner_id = ? and letter_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
    [ownerId, JSON.stringify(letterIds)],
  );
  return new Map(rows.map((r) => [r.letter_id, {
    until: r.until, time_zone: r.time_zone, due_at: r.due_at, recipient_name: r.recipient_name, recipient_email: r.recipient_email, status: r.status, released_at: r.released_at,
  }]));
}

export interface MilestoneWork {
  letterId: string;
  releaseId: string;
  ownerId: string;
  dueAt: string;
  status: 'sealed' | 'released';
}

/**
 * The operator's due check: sealed letters whose day has come by `now`, and released ones whose key
 * is not recorded yet (a release whose key call failed every retry). Never a letter not yet due.
 */
export async function findMilestoneWork(em: EntityManager, now: string, limit: number): Promise<MilestoneWork[]> {
  const rows = await em.execute<{ letter_id: string; release_id: string; owner_id: string; due_at: string; status: 'sealed' | 'released' }[]>(
    `select letter_id::text as letter_id, release_id::text as release_id, owner_id::text as owner_id, ${ISO('due_at')} as due_at, status
       from letter_milestones where (status = 'sealed' and due_at <= ?::timestamptz) or (status = 'released' and key_id is null)
      order by due_at limit ?`,
    [now, limit],
  );
  return rows.map((r) => ({ letterId: r.letter_id, releaseId: r.release_id, ownerId: r.owner_id, dueAt: r.due_at, status: r.status }));
}

/**
 * Every release a job must still wake, by release id after `afterReleaseId` (a page of `limit`): sealed
 * letters, whatever their day, and released ones whose key is not recorded (the rearm's work).
 */
export async function findPendingMilestones(em: EntityManager, afterReleaseId: string | null, limit: number): Promise<MilestoneWork[]> {
  const rows = await em.execute<{ letter_id: string; release_id: string; owner_id: string; due_at: string; status: 'sealed' | 'released' }[]>(
    `select letter_id::text as letter_id, release_id::text as release_id, owner_id::text as owner_id, ${ISO('due_at')} as due_at, status
       from letter_milestones where (status = 'sealed' or (status = 'released' and key_id is null)) and release_id > ?::uuid
      order by release_id limit ?`,
    [afterReleaseId ?? '00000000-0000-0000-0000-000000000000', limit],
  );
  return rows.map((r) => ({ letterId: r.letter_id, releaseId: r.release_id, ownerId: r.owner_id, dueAt: r.due_at, status: r.status }));
}

/** Who a committed release is for (access-keys asks before it issues the key); null when it is not released. */
export async function findRelease(em: EntityManager, letterId: string, releaseId: string): Promise<{ owner_id: string; recipient_name: string; recipient_email: string; shared_by: string } | null> {
  const [row] = await em.execute<{ owner_id: string; recipient_name: string; recipient_email: string; shared_by: string }[]>(
    `select owner_id::text as owner_id, recipient_name, recipient_email, shared_by from letter_milestones where letter_id = ? and release_id = ? and status = 'released'`,
    [letterId, releaseId],
  );
  return row ?? null;
}
