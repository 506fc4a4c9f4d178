import type { EntityManager } from '@mikro-orm/postgresql';
import { IdentityEvents } from '@lv/contracts';

export interface PendingDeletion {
  deletion_id: string;
  user_id: string;
  token_hash: string;
  due_at: string;
}

/** The fields of identity's events that name the person; an erasure blanks them (see eraseStoredWords). */
const PERSONAL_STRINGS = ['email', 'previousEmail'];
const PERSONAL_NULLABLES = ['full_name', 'avatar_url'];

/** The time as the decider's events carry it (ISO, Z), whatever PostgreSQL's own text. */
const asStored = (rows: PendingDeletion[]) => rows.map((row) => ({ ...row, due_at: new Date(row.due_at).toISOString() }));

/** account_deletions, and what an erasure removes from identity's tables. */
export class AccountDeletionRepository {
  async insert(em: EntityManager, row: { deletionId: string; userId: string; tokenHash: string; requestedAt: string; dueAt: string }): Promise<void> {
    await em.execute('insert into account_deletions (deletion_id, user_id, token_hash, requested_at, due_at) values (?, ?, ?, ?, ?)',
      [row.deletionId, row.userId, row.tokenHash, row.requestedAt, row.dueAt]);
  }

  async remove(em: EntityManager, deletionId: string): Promise<void> {
    await em.execute('delete from account_deletions where deletion_id = ?', [deletionId]);
  }

  async byId(em: EntityManager, deletionId: string): Promise<PendingDeletion | undefined> {
    const [row] = asStored(await em.execute<PendingDeletion[]>(
      `select deletion_id, user_id, token_hash, to_json(due_at)#>>'{}' as due_at from account_deletions where deletion_id = ?`, [deletionId]));
    return row;
  }

  async ofUser(em: EntityManager, userId: string): Promise<PendingDeletion | undefined> {
    const [row] = asStored(await em.execute<PendingDeletion[]>(
      `select deletion_id, user_id, token_hash, to_json(due_at)#>>'{}' as due_at from account_deletions where user_id = ?`, [userId]));
    return row;
  }

  /** Every pending deletion (the timers re-derived from them), or only those due by `dueBy`. */
  async pending(em: EntityManager, dueBy?: Date): Promise<PendingDeletion[]> {
    return asStored(await em.execute<PendingDeletion[]>(
      `select deletion_id, user_id, token_hash, to_json(due_at)#>>'{}' as due_at from account_deletions
        where (?::timestamptz is null or due_at <= ?::timestamptz) order by due_at`,
      [dueBy?.toISOString() ?? null, dueBy?.toISOString() ?? null]));
  }

  /** The sessions still live: their access tokens are revoked too once the erasure commits. */
  async liveSessionIds(em: EntityManager, userId: string): Promise<string[]> {
    const rows = await em.execute<{ id: string }[]>('select id from sessions where user_id = ? and revoked_at is null', [userId]);
    return rows.map((row) => row.id);
  }

  /**
   * Every identity row of the account: each table with a `user_id` column (sessions and their refresh
   * tokens, credentials, two-step secrets and recovery codes, links, marks, preferences, and any table a
   * later feature adds, passkeys included, without this list having to learn of it), and the profile.
   * Found from the catalog so that a new table holding a user's rows is erased without being named here.
   */
  async deleteAccountRows(em: EntityManager, userId: string): Promise<void> {
    const tables = await em.execute<{ table_name: string }[]>(
      `select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where c.table_schema = current_schema() and c.column_name = 'user_id' and t.table_type = 'BASE TABLE' and c.table_name <> 'erasure_journal'
        order by c.table_name`);
    for (const { table_name } of tables) await em.execute(`delete from "${table_name.replace(/"/g, '""')}" where user_id = ?`, [userId]);
    await em.execute('delete from user_profiles where id = ?', [userId]);
  }

  /**
   * The account's stored events keep what happened (types, ids, times) but no longer name the person:
   * each address, name and avatar in them is blanked, in the events table and in any outbox row not yet
   * published. Why not crypto-shredding as letters do: identity's events hold an address in a handful of
   * fields of a few events, read by every command (the decider needs the current address), and
   * UserRegistered/EmailChanged are published with it; sealing them would mean a key lookup on every
   * identity command and a sealed field in a published contract. Rewriting one user's rows in the
   * erasure's transaction costs one statement and leaves nothing to decrypt. AccountErased itself (ids
   * and time) is left as it is: it is what the other services act on.
   */
  async eraseStoredWords(em: EntityManager, streamIds: readonly string[]): Promise<void> {
    const blank = (column: string) => `coalesce((select jsonb_object_agg(key, case
        when key = any(?::text[]) then '""'::jsonb
        when key = any(?::text[]) then 'null'::jsonb
        else value end) from jsonb_each(${column})), '{}'::jsonb)`;
    const lists = [`{${PERSONAL_STRINGS.join(',')}}`, `{${PERSONAL_NULLABLES.join(',')}}`];
    const streams = `{${streamIds.join(',')}}`;
    await em.execute(`update events set data = ${blank('data')} where stream_id = any(?::text[]) and type <> 'AccountErased'`, [...lists, streams]);
    await em.execute(
      `update outbox set payload = jsonb_set(payload, '{data}', ${blank(`payload->'data'`)})
        where subject <> ? and event_id in (select event_id from events where stream_id = any(?::text[]))`,
      [...lists, IdentityEvents.AccountErased.subject, streams]);
  }

  /** The erasure, journaled (ids and time only) so that a restore of an older snapshot erases the account again. */
  async journal(em: EntityManager, streamId: string, erasedAt: string): Promise<void> {
    await em.execute('insert into erasure_journal (stream_type, stream_id, key_id, erased_at) values (?, ?, ?, ?)', ['user', streamId, streamId, erasedAt]);
  }
}
