import pg from 'pg';
import { BackupError } from './backup-error.js';
import { lastLines, runTool } from './run-tool.js';

/**
 * PostgreSQL through its own tools: pg_dump's custom format for the dump, pg_restore for the way back,
 * and plain SQL for what the manifest records (rows per table). `serverUrl` is any database URL on the
 * server with the rights to read every service's database (and to create databases, for a restore).
 */

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Arguments and environment for pg_dump/pg_restore: the password goes in PGPASSWORD, never on a command line `ps` shows. */
function pgToolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'lv-backup' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connect(url);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Rows of every table outside PostgreSQL's own schemas, as "schema.table". */
async function countRows(client: pg.Client): Promise<Record<string, number>> {
  const { rows: tables } = await client.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
      order by 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, name } of tables) {
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`);
    counts[`${schema}.${name}`] = Number(rows[0]!.n);
  }
  return counts;
}

/**
 * Dumps database `name` into `file` and counts its rows, both in one snapshot of the database: a
 * REPEATABLE READ transaction exports its snapshot and pg_dump reads that same snapshot, so the
 * counts are exactly what the dump holds even while the services keep writing.
 */
export async function dumpDatabase(serverUrl: string, name: string, file: string): Promise<Record<string, number>> {
  const url = databaseUrl(serverUrl, name);
  let client: pg.Client;
  try {
    client = await connect(url);
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') throw new BackupError('BACKUP_SOURCE_MISSING', `database ${name} does not exist: is the stack migrated? (BACKUP_SERVICES names the services to back up)`);
    throw error;
  }
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const tables = await countRows(client);
    const { dbname, env } = pgToolConnection(url);
    const dump = await runTool('pg_dump', ['--format=custom', `--snapshot=${rows[0]!.snapshot}`, `--file=${file}`, `--dbname=${dbname}`], { env });
    if (dump.code !== 0) throw new BackupError('BACKUP_TOOL_FAILED', `pg_dump of ${name} failed: ${lastLines(dump.stderr)}`);
    await client.query('commit');
    return tables;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Rows per table of database `name` as it is now. */
export const databaseRowCounts = (serverUrl: string, name: string): Promise<Record<string, number>> => withClient(databaseUrl(serverUrl, name), countRows);

/** 'absent', 'empty' (exists, holds no table, view or sequence of its own) or 'in use'. */
export async function databaseState(serverUrl: string, name: string): Promise<'absent' | 'empty' | 'in use'> {
  const exists = await withClient(serverUrl, async (client) => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
  if (!exists) return 'absent';
  const relations = await withClient(databaseUrl(serverUrl, name), async (client) => {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'`,
    );
    return Number(rows[0]!.n);
  });
  return relations === 0 ? 'empty' : 'in use';
}

/**
 * Creates database `name` (unless it is there, empty) and restores the dump into it in one
 * transaction: a restore that fails leaves the database as empty as it found it. Owners and grants
 * are the target's own (the dump's roles need not exist there).
 */
/** Creates database `name` when it is not there. One at a time: PostgreSQL refuses two copies of template1 at once. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const exists = (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (!exists) await client.query(`create database ${client.escapeIdentifier(name)}`);
  });
}

export async function restoreDatabase(serverUrl: string, name: string, file: string): Promise<void> {
  await ensureDatabase(serverUrl, name);
  const { dbname, env } = pgToolConnection(databaseUrl(serverUrl, name));
  const restore = await runTool('pg_restore', ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, file], { env });
  if (restore.code !== 0) throw new BackupError('BACKUP_TOOL_FAILED', `pg_restore into ${name} failed: ${lastLines(restore.stderr)}`);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`));
}
