#!/usr/bin/env node
// CPU per append of the event store (issue 10, "The event store"): what an append costs the Node
// process (process.cpuUsage: user + system) and PostgreSQL (the backends' utime + stime from /proc,
// 10 ms ticks), one writer, appends in sequence, against the raw `pg` appends of the bench
// (event-store-bench.mjs). CPU time, unlike appends/s, barely moves with the neighbours' load; the wall
// time per append is printed too. Rounds alternate the kinds; medians over the rounds.
//
//   raw         the bench's raw one-statement append (a CTE with the read model, bound parameters)
//   raw-multi   the append and the projection's insert as one multi-statement text query
//   store       EventStore.appendToStream, an EntityManager outside a transaction, a write-only projection
//   baseline    the same with another build of libs/platform (BENCH_ES_CPU_BASELINE: the directory
//               holding its dist/, e.g. a `git archive` of an older commit built with tools/build)
//
// Database lv_esbench (dropped and created, dropped at the end: do not run it beside the bench).
// Knobs: BENCH_ES_CPU_APPENDS (1500 per round), BENCH_ES_CPU_ROUNDS (5), DATABASE_ADMIN_URL.
// Reads /proc: Linux, with PostgreSQL on this machine. Not a test.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { root } from '../dev/stack.mjs';
import { inline, ITEMS_INSERT, RAW_APPEND, RAW_APPEND_NO_READ_MODEL, SUBJECT, title } from './event-store-sql.mjs';
import { positiveEnv as env } from './stats.mjs';

const appends = env('BENCH_ES_CPU_APPENDS', 1500);
const rounds = env('BENCH_ES_CPU_ROUNDS', 5);
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const baselineDir = process.env.BENCH_ES_CPU_BASELINE;
const DATABASE = 'lv_esbench';
const platform = (dir, sub) => import(pathToFileURL(join(dir, 'dist', sub, 'index.js')).href);
const { createOrm, migrateUp } = await platform(join(root, 'libs', 'platform'), 'database');
const { EventStore, withEventStoreSchema } = await platform(join(root, 'libs', 'platform'), 'event-store');
const Baseline = baselineDir ? (await platform(baselineDir, 'event-store')).EventStore : undefined;
const { Migration } = await import('@mikro-orm/migrations');

class BenchItemsSchema extends Migration {
  async up() {
    this.addSql('create table bench_items (id text primary key, title text not null, version integer not null)');
  }
}
// The bench's projection and raw statements (event-store-bench.mjs).
const itemsProjection = {
  name: 'bench_items',
  handles: ['ItemAdded'],
  writeOnly: true,
  apply: (em, events) => em.execute(
    `insert into bench_items (id, title, version)
     select x.id, x.title, x.version from jsonb_to_recordset(?::jsonb) as x(id text, title text, version int)
     on conflict (id) do update set title = excluded.title, version = excluded.version where bench_items.version < excluded.version`,
    [JSON.stringify(events.map((e) => ({ id: e.streamId, title: e.data.title, version: e.version })))],
  ),
  reset: (em) => em.execute('delete from bench_items'),
};
const publish = (event) => ({ subject: SUBJECT, data: { itemId: event.streamId } });

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${DATABASE} with (force)`);
await admin.query(`create database ${DATABASE}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${DATABASE}`;
const orm = await createOrm({ databaseUrl: dbUrl.toString(), migrations: withEventStoreSchema([{ name: 'bench-items', class: BenchItemsSchema }]), poolMax: 10 });
await migrateUp(orm);
const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 10 });

const storeAppend = (store) => (streamId, i) => store.appendToStream(orm.em.fork(), streamId, 'item', 'no_stream', [{ type: 'ItemAdded', data: { title: title(i) } }]);
const kinds = {
  raw: async (streamId, i) => {
    const { rowCount } = await pool.query(RAW_APPEND, [streamId, randomUUID(), JSON.stringify({ title: title(i) }), JSON.stringify({ itemId: streamId }), title(i)]);
    if (rowCount !== 1) throw new Error('raw append inserted nothing');
  },
  'raw-multi': async (streamId, i) => {
    const append = inline(RAW_APPEND_NO_READ_MODEL, [streamId, randomUUID(), JSON.stringify({ title: title(i) }), JSON.stringify({ itemId: streamId })]);
    const results = await pool.query(`${append}; ${inline(ITEMS_INSERT, [JSON.stringify([{ id: streamId, title: title(i), version: 1 }])])}`);
    if (results[0].rowCount !== 1) throw new Error('raw append inserted nothing');
  },
  store: storeAppend(new EventStore({ publish, inlineProjections: [itemsProjection] })),
  ...(Baseline && { baseline: storeAppend(new Baseline({ publish, inlineProjections: [itemsProjection] })) }),
};

/** CPU ticks of this database's backends, by pid (a backend that ends between two reads is not counted). */
async function backendTicks() {
  const { rows } = await admin.query('select pid from pg_stat_activity where datname = $1', [DATABASE]);
  const ticks = new Map();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // ended meanwhile
    }
  }
  return ticks;
}
const TICK_US = 10_000;

let exitCode = 0;
try {
  for (const append of Object.values(kinds)) for (let i = 0; i < 300; i++) await append(`warm-${randomUUID()}`, i);
  const results = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [kind, append] of Object.entries(kinds)) {
      const ticksBefore = await backendTicks();
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < appends; i++) await append(`${kind}-${randomUUID()}`, i);
      const wall = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      let ticks = 0;
      for (const [pid, t] of await backendTicks()) ticks += t - (ticksBefore.get(pid) ?? 0);
      results[kind].push({ node: (cpu.user + cpu.system) / appends, pg: (ticks * TICK_US) / appends, wall: (wall * 1000) / appends });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`CPU per append, µs (median of ${rounds} rounds of ${appends}; per round in brackets), one writer`);
  for (const [kind, rs] of Object.entries(results)) {
    const col = (key) => `${median(rs.map((r) => r[key])).toFixed(0).padStart(5)} (${rs.map((r) => r[key].toFixed(0)).join(' ')})`;
    console.log(`${kind.padEnd(10)} node ${col('node')}  postgres ${col('pg')}  wall ${col('wall')}`);
  }
  console.log(`BENCH_EVENT_STORE_CPU_RESULT ${JSON.stringify(results)}`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  pool.on('error', () => undefined);
  await pool.end();
  await orm.close(true);
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.end();
}
process.exit(exitCode);
