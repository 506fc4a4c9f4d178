import type { EntityManager } from '@mikro-orm/postgresql';
import { newDataKey } from '../../sealing/sealed-text.js';

/**
 * A table of data keys and its uuid column that names each key's stream. Both are spliced into SQL,
 * so they must be plain identifiers the service chose (checked when the DataKeys is made).
 * The table needs (`idColumn` uuid primary key, data_key text not null).
 */
export interface DataKeyTable { table: string; idColumn: string }

const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Per-stream data keys in one table (letters' letter_keys, vault-media's recording_keys). Every method takes the
 * EntityManager of the command's transaction: a key is created with its stream's first sealed event
 * and destroyed with the event that shreds the stream, or neither happens.
 *
 * Crypto-shredding: once the row is gone, the sealed words in the stream's events (and in any copy
 * of the events table, backups included) can no longer be decrypted by anyone.
 *
 * Each kind of stream has a table of its own, so ids of different kinds never share a key (a letter
 * id is chosen by the client and could otherwise take a user id's key row).
 */
export class DataKeys {
  constructor(private readonly where: DataKeyTable) {
    if (!SQL_IDENTIFIER.test(where.table) || !SQL_IDENTIFIER.test(where.idColumn)) throw new Error(`not a plain SQL identifier: ${where.table}.${where.idColumn}`);
  }

  /** Creates the key; null when the stream already has one (a concurrent first write won). */
  async create(em: EntityManager, id: string): Promise<Buffer | null> {
    const { table, idColumn } = this.where;
    const key = newDataKey();
    const rows = await em.execute<{ id: string }[]>(
      `insert into ${table} (${idColumn}, data_key) values (?, ?) on conflict (${idColumn}) do nothing returning ${idColumn}::text as id`,
      [id, key.toString('base64')],
    );
    return rows.length ? key : null;
  }

  async find(em: EntityManager, id: string): Promise<Buffer | null> {
    const { table, idColumn } = this.where;
    const [row] = await em.execute<{ data_key: string }[]>(`select data_key from ${table} where ${idColumn} = ?`, [id]);
    return row ? Buffer.from(row.data_key, 'base64') : null;
  }

  /**
   * The stream's key, created when it has none. A concurrent creator's insert makes ours wait for its
   * commit and then do nothing; the select after it (a new READ COMMITTED snapshot) sees its key.
   */
  async findOrCreate(em: EntityManager, id: string): Promise<Buffer | null> {
    return (await this.find(em, id)) ?? (await this.create(em, id)) ?? (await this.find(em, id));
  }

  /** Keys of many streams at once (rebuilds); streams without a key are absent from the map. */
  async findMany(em: EntityManager, ids: readonly string[]): Promise<Map<string, Buffer>> {
    const { table, idColumn } = this.where;
    const keys = new Map<string, Buffer>();
    if (ids.length === 0) return keys;
    const rows = await em.execute<{ id: string; data_key: string }[]>(
      `select ${idColumn}::text as id, data_key from ${table} where ${idColumn} in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
      [JSON.stringify([...new Set(ids)])],
    );
    for (const row of rows) keys.set(row.id, Buffer.from(row.data_key, 'base64'));
    return keys;
  }

  async destroy(em: EntityManager, id: string): Promise<void> {
    const { table, idColumn } = this.where;
    await em.execute(`delete from ${table} where ${idColumn} = ?`, [id]);
  }
}
