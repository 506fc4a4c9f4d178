import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import { POSTGRES_ADMIN_URL, waitFor } from '@lv/testing';
import { createLogger } from '../src/logging/index.js';
import { migrateService } from '../src/nest/run-service.js';
import { migrationLockKey } from '../src/database/index.js';

// Two migration runners (the `migrate` command's code, as two Job pods would run it) on one fresh
// database of the machine's PostgreSQL, at once. The first migration waits on a lock this spec
// holds, so the second runner provably arrives while the first is mid-way.

jest.setTimeout(60_000);

const databaseName = `lv_test_miglock_${randomBytes(4).toString('hex')}`;
const databaseUrl = Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${databaseName}` }).toString();
/** An advisory lock of the spec's own (not the runners'), held while the first migration runs. */
const GATE = 4_242_424_242;

class CreateLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`select pg_advisory_xact_lock(${GATE})`);
    this.addSql('create table ledger (id int primary key)');
  }
}
class FillLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql('insert into ledger (id) values (1)');
  }
}
const definition = { name: 'letters' as const, migrations: [{ name: 'create-ledger', class: CreateLedger }, { name: 'fill-ledger', class: FillLedger }] };

const lines: { runner: string; msg: string }[] = [];
const runner = (name: string) => createLogger(name, 'info', {}, { write: (line: string) => { lines.push({ runner: name, msg: (JSON.parse(line) as { msg: string }).msg }); } });

describe('migration runners on one database', () => {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });

  beforeAll(async () => {
    await admin.connect();
  });

  afterAll(async () => {
    await admin.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
  });

  it('never interleave: the second waits for the advisory lock, then finds nothing to apply', async () => {
    const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' };
    // A fresh, empty database; advisory locks are per database, so the gate is held inside it.
    await admin.query(`create database "${databaseName}"`);
    const gate = new pg.Client({ connectionString: databaseUrl });
    await gate.connect();
    const waitingOnGate = async () => (await gate.query<{ n: number }>(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and objid = $1::bigint::oid
         and database = (select oid from pg_database where datname = current_database())`, [GATE])).rows[0]!.n === 1;
    try {
      await gate.query(`select pg_advisory_lock(${GATE})`);
      const first = migrateService(definition, env, runner('first'));
      await waitFor(waitingOnGate, 10_000, 'the first runner inside its first migration');
      const second = migrateService(definition, env, runner('second'));
      await waitFor(() => lines.some((l) => l.runner === 'second' && l.msg === 'another runner is migrating the letters database; waiting for its lock'), 10_000, "the second runner's wait");
      // The first is mid-way: nothing is applied yet, and the second has not started applying.
      expect((await gate.query("select to_regclass('ledger') as t")).rows[0].t).toBeNull();
      expect(lines.filter((l) => l.runner === 'first').map((l) => l.msg)).not.toContain('another runner is migrating the letters database; waiting for its lock');
      await gate.query(`select pg_advisory_unlock(${GATE})`);
      const [a, b] = await Promise.all([first, second]);
      expect(a).toEqual(['create-ledger', 'fill-ledger']);
      expect(b).toEqual([]);
      const applied = await gate.query<{ name: string }>('select name from schema_migrations order by id');
      expect(applied.rows.map((r) => r.name)).toEqual(['create-ledger', 'fill-ledger']);
      expect((await gate.query('select count(*)::int as n from ledger')).rows[0].n).toBe(1);
      // Both runners let go of the lock keyed by the database's name: a third takes it at once.
      const { rows } = await gate.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [migrationLockKey(databaseName)]);
      expect(rows[0]!.locked).toBe(true);
    } finally {
      await gate.end();
    }
  });
});
