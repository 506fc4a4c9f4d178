import pg from 'pg';
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator, type Migration } from '@mikro-orm/migrations';
import type { Constructor } from '@mikro-orm/core';
import type { Logger } from 'pino';

export type { EntityManager, MikroORM };

export interface ServiceMigration {
  name: string;
  class: Constructor<Migration>;
}

/** Creates the service's database when it does not exist yet (each service owns one database). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Refusing to create a database with an unusual name: ${name}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`create database "${name}"`);
    return true;
  } catch (error) {
    // Created concurrently (services sharing the erasure journal's database start together): PostgreSQL
    // answers "already exists" or, inside the race window, a unique violation on pg_database.
    const code = (error as { code?: string }).code;
    if (code === '42P04' || code === '23505') return false;
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Runs `work` (a service's migrations) while holding a PostgreSQL advisory lock keyed by the database's
 * name, on a connection of its own: two runners of one database (a retried Job pod, a release applied
 * during a run, two compose containers) never interleave; the second waits, then finds nothing left to
 * apply. A session lock: a runner that dies releases it with its connection. `onWait` is told once
 * when another runner holds the lock.
 */
export async function withMigrationLock<T>(databaseUrl: string, work: () => Promise<T>, onWait?: (holder: { pid: number | null }) => void): Promise<T> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'lv-migrate' });
  await client.connect();
  const key = [migrationLockKey(name)];
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', key);
    if (!rows[0]?.locked) {
      const holder = await client.query<{ pid: number }>(
        `select pid from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())
           and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`, key).catch(() => ({ rows: [] as { pid: number }[] }));
      onWait?.({ pid: holder.rows[0]?.pid ?? null });
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', key);
    }
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', key).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The text whose 64-bit hash is the advisory lock key of a database's migrations. */
export const migrationLockKey = (database: string) => `lv:migrations:${database}`;

export interface OrmOptions {
  databaseUrl: string;
  migrations: ServiceMigration[];
  entities?: Options['entities'];
  poolMax?: number;
  logger?: Logger;
}

/** MikroORM for one service's database, connected eagerly so health reports the truth at boot. */
export async function createOrm(options: OrmOptions): Promise<MikroORM> {
  const orm = await MikroORM.init({
    clientUrl: options.databaseUrl,
    entities: options.entities ?? [],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    // snapshot: false: migrations are hand-written classes, and MikroORM would otherwise write a
    // `.snapshot-<database>.json` into the working directory after every migrate (one per test database).
    migrations: { migrationsList: options.migrations, tableName: 'schema_migrations', transactional: true, allOrNothing: true, snapshot: false },
    pool: { max: options.poolMax ?? 10 },
    logger: (message) => options.logger?.debug({ orm: true }, message),
    debug: false,
    allowGlobalContext: false,
  });
  await orm.connect();
  return orm;
}

/** Applies pending migrations; returns their names. */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

export async function pingDatabase(em: EntityManager): Promise<void> {
  await em.fork().execute('select 1');
}
export { isRetryableBeforeCommit, isTransientDatabaseError } from './transient-errors.js';
