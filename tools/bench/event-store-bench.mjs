#!/usr/bin/env node
// Event store benchmark (issue 10, "The event store"), every figure measured in one run against the
// machine's PostgreSQL and NATS, each compared with a baseline measured in the same run:
//
//   (a) append    EventStore.appendToStream (event row, outbox row, version check, inline projection,
//                 each in its own transaction) against a raw one-statement `pg` append of the same rows
//                 (events + outbox + read model in one CTE, autocommit), with 1 and with 8 writers;
//                 appends/s and the ratio. The store commits on its own (an EntityManager outside a
//                 transaction, a write-only projection: one query); also shown inside a caller's
//                 MikroORM transaction, and two raw floors: the store's two statements as one raw
//                 query, and the same work as four statements in a raw transaction. Rounds alternate
//                 the kinds so drift hits all of them.
//   (b) rebuild   rebuildProjections over BENCH_ES_EVENTS events (events/s) against a raw batch insert of
//                 the same read-model rows into the same table, in the same batch size.
//   (c) latency   commands (handleCommand: read stream, decide, append) sent open-loop at BENCH_ES_RATE/s:
//                 schedule -> the read model shows it (polled on another connection), and schedule ->
//                 its event arrives on NATS through the outbox relay and JetStream; p50/p95/p99.
//
// Database lv_esbench (dropped and created), STACK_ID esbench (its own JetStream stream, removed at
// the end). Knobs: BENCH_ES_APPENDS (200 per round), BENCH_ES_ROUNDS (10: short rounds, so a load burst hits every kind), BENCH_ES_EVENTS (50000), BENCH_ES_RATE (100),
// BENCH_ES_SECONDS (10), DATABASE_ADMIN_URL, NATS_URL. Exit code 1 when an operation failed. Not a test.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { nodeBinary, root } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { inline, ITEMS_INSERT, RAW_APPEND, RAW_APPEND_NO_READ_MODEL, SUBJECT, title } from './event-store-sql.mjs';
import { int, ms, summarize, table, positiveEnv as env } from './stats.mjs';

const config = {
  appends: env('BENCH_ES_APPENDS', 200),
  rounds: env('BENCH_ES_ROUNDS', 10),
  events: env('BENCH_ES_EVENTS', 50_000),
  rate: env('BENCH_ES_RATE', 100),
  seconds: env('BENCH_ES_SECONDS', 10),
  adminUrl: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
};
const STACK_ID = 'esbench';
const DATABASE = 'lv_esbench';
const BATCH = 1000;
const say = (line) => console.log(line);
const dataDir = join(root, '.data', 'bench-event-store');
mkdirSync(dataDir, { recursive: true });

say(`[es-bench] ${buildIfNeeded(root, nodeBinary(), say)}`);
const lib = (sub) => import(pathToFileURL(join(root, 'libs', 'platform', 'dist', sub, 'index.js')).href);
const { createOrm, migrateUp } = await lib('database');
const { EventStore, OutboxRelay, handleCommand, rebuildProjections, withEventStoreSchema } = await lib('event-store');
const { connectNats, ensureServiceStream } = await lib('messaging');
const { Migration } = await import('@mikro-orm/migrations');
const { pino } = await import('pino');

/** The read model: one row per item, written by the inline projection (as the letters list is). */
class BenchItemsSchema extends Migration {
  async up() {
    this.addSql('create table bench_items (id text primary key, title text not null, version integer not null)');
  }
}

/** Inserts a batch of rows with one statement: how a projection that must rebuild fast is written. */
async function insertItems(executor, rows) {
  if (!rows.length) return;
  await executor(
    `insert into bench_items (id, title, version)
     select x.id, x.title, x.version from jsonb_to_recordset(?::jsonb) as x(id text, title text, version int)
     on conflict (id) do update set title = excluded.title, version = excluded.version where bench_items.version < excluded.version`,
    [JSON.stringify(rows)],
  );
}
const itemsProjection = {
  name: 'bench_items',
  handles: ['ItemAdded'],
  // It only writes: an append that commits on its own sends this statement with its own (one query).
  writeOnly: true,
  apply: (em, events) => insertItems((sql, params) => em.execute(sql, params), events.map((e) => ({ id: e.streamId, title: e.data.title, version: e.version }))),
  reset: (em) => em.execute('delete from bench_items'),
};
const publish = (event) => ({ subject: SUBJECT, data: { itemId: event.streamId } });
const itemDecider = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide: (command, state) => (state.exists ? [] : [{ type: 'ItemAdded', data: { title: command.title } }]),
};

const admin = new pg.Client({ connectionString: config.adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${DATABASE} with (force)`);
await admin.query(`create database ${DATABASE}`);
const dbUrl = new URL(config.adminUrl);
dbUrl.pathname = `/${DATABASE}`;
const orm = await createOrm({ databaseUrl: dbUrl.toString(), migrations: withEventStoreSchema([{ name: 'bench-items', class: BenchItemsSchema }]), poolMax: 10 });
await migrateUp(orm);
const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 10 });
const store = new EventStore({ publish, inlineProjections: [itemsProjection] });

let failures = 0;


async function appendRound(kind, writers, total) {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: writers }, async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const streamId = `${kind}-${writers}-${randomUUID()}`;
      try {
        if (kind === 'raw') {
          const { rowCount } = await pool.query(RAW_APPEND, [streamId, randomUUID(), JSON.stringify({ title: title(i) }), JSON.stringify({ itemId: streamId }), title(i)]);
          if (rowCount !== 1) throw new Error('raw append inserted nothing');
        } else if (kind === 'raw-multi') {
          // The store's way without the store: the append and the projection's insert as one
          // multi-statement query (one round trip; PostgreSQL runs it as one implicit transaction).
          const append = inline(RAW_APPEND_NO_READ_MODEL, [streamId, randomUUID(), JSON.stringify({ title: title(i) }), JSON.stringify({ itemId: streamId })]);
          const results = await pool.query(`${append}; ${inline(ITEMS_INSERT, [JSON.stringify([{ id: streamId, title: title(i), version: 1 }])])}`);
          if (results[0].rowCount !== 1) throw new Error('raw append inserted nothing');
        } else if (kind === 'raw-tx') {
          // Where the event store's time goes: the same work as separate statements in a transaction
          // (begin, append with outbox, projection, commit: four round trips), without the ORM.
          const client = await pool.connect();
          try {
            await client.query('begin');
            const { rowCount } = await client.query(RAW_APPEND_NO_READ_MODEL, [streamId, randomUUID(), JSON.stringify({ title: title(i) }), JSON.stringify({ itemId: streamId })]);
            if (rowCount !== 1) throw new Error('raw append inserted nothing');
            await insertItems((sql, params) => client.query(sql.replace('?', '$1'), params), [{ id: streamId, title: title(i), version: 1 }]);
            await client.query('commit');
          } catch (error) {
            await client.query('rollback').catch(() => undefined);
            throw error;
          } finally {
            client.release();
          }
        } else if (kind === 'store-tx') {
          await orm.em.fork().transactional((tem) => store.appendToStream(tem, streamId, 'item', 'no_stream', [{ type: 'ItemAdded', data: { title: title(i) } }]));
        } else {
          await store.appendToStream(orm.em.fork(), streamId, 'item', 'no_stream', [{ type: 'ItemAdded', data: { title: title(i) } }]);
        }
      } catch (error) {
        failures++;
        say(`[es-bench] ${kind} append failed: ${error.message}`);
      }
    }
  }));
  return total / ((performance.now() - started) / 1000);
}

let exitCode = 0;
let nc;
let relay;
const result = { config: { ...config, adminUrl: undefined }, append: {}, rebuild: {}, latency: {} };
try {
  // (a) appends. Warm-up first (connections, plans), then alternating rounds per writer count.
  const kinds = ['raw', 'raw-multi', 'raw-tx', 'store', 'store-tx'];
  for (const kind of kinds) await appendRound(kind, 8, 200);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // Rounds are the same size: the overall rate is the harmonic mean of the round rates.
  const meanRate = (xs) => xs.length / xs.reduce((a, b) => a + 1 / b, 0);
  const range = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
  const appendRows = [['writers', 'raw pg, one statement /s', 'raw pg, 2 statements as one query /s', 'raw pg, 4 statements in a tx /s', 'event store /s', 'store in a caller tx /s',
    'store / one statement (rounds)', 'store / 2 as one query', 'store in a tx / one statement']];
  for (const writers of [1, 8]) {
    const rates = Object.fromEntries(kinds.map((kind) => [kind, []]));
    for (let round = 0; round < config.rounds; round++) {
      for (const kind of kinds) rates[kind].push(await appendRound(kind, writers, config.appends));
    }
    const perRound = rates.store.map((store, i) => store / rates.raw[i]);
    const r = {
      raw: meanRate(rates.raw), rawMulti: meanRate(rates['raw-multi']), rawTx: meanRate(rates['raw-tx']), store: meanRate(rates.store), storeTx: meanRate(rates['store-tx']),
    };
    result.append[writers] = {
      ...r, ratio: r.store / r.raw, ratioRounds: perRound, ratioMulti: r.store / r.rawMulti, ratioStoreTx: r.storeTx / r.raw, ratioTx: r.rawTx / r.raw,
    };
    appendRows.push([writers, int(r.raw), int(r.rawMulti), int(r.rawTx), int(r.store), int(r.storeTx),
      `${result.append[writers].ratio.toFixed(2)} (${range(perRound)})`, result.append[writers].ratioMulti.toFixed(2), result.append[writers].ratioStoreTx.toFixed(2)]);
  }
  say('\n(a) appends: event + outbox row + version check + inline projection, one transaction each');
  say(table(appendRows));

  // (b) rebuild. Seed events (fast, set-based), then time the rebuild and the raw batch insert.
  await pool.query('delete from outbox');
  await pool.query(
    `insert into events (event_id, stream_id, stream_type, version, type, data, metadata)
     select gen_random_uuid(), 'seed-' || g, 'item', 1, 'ItemAdded', jsonb_build_object('title', 'Seeded item ' || g), '{}'::jsonb
       from generate_series(1, $1) g`,
    [config.events],
  );
  const [{ n: eventCount }] = (await pool.query(`select count(*)::int as n from events where type = 'ItemAdded'`)).rows;
  // Baseline: the same rows, already in memory, inserted into the same (emptied) table in the same batches.
  const rows = (await pool.query(`select stream_id as id, data->>'title' as title, version from events where type = 'ItemAdded' order by global_position`)).rows;
  async function rawRebuild() {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('delete from bench_items');
      const started = performance.now();
      for (let i = 0; i < rows.length; i += BATCH) {
        await insertItems((sql, params) => client.query(sql.replace('?', '$1'), params), rows.slice(i, i + BATCH));
      }
      const took = performance.now() - started;
      await client.query('rollback');
      return took;
    } finally {
      client.release();
    }
  }
  // Three alternating pairs: a load burst on the shared machine then hits both sides.
  const rebuildTimes = [];
  const rawTimes = [];
  for (let pair = 0; pair < 3; pair++) {
    const rebuildStarted = performance.now();
    const [report] = await rebuildProjections(orm.em, store, [itemsProjection], BATCH);
    rebuildTimes.push(performance.now() - rebuildStarted);
    if (report.events !== eventCount) throw new Error(`rebuild read ${report.events} events, the store holds ${eventCount}`);
    rawTimes.push(await rawRebuild());
  }
  const rebuildMs = mean(rebuildTimes);
  const rawMs = mean(rawTimes);
  const pairRatios = rebuildTimes.map((t, i) => rawTimes[i] / t);
  result.rebuild = { events: eventCount, rebuildMs, eventsPerSecond: eventCount / (rebuildMs / 1000), rawMs, ratio: rawMs / rebuildMs, pairRatios };
  say(`\n(b) projection rebuild of ${int(eventCount)} events (batches of ${BATCH}), mean of 3 alternating pairs (ratios ${range(pairRatios)})`);
  say(table([
    ['what', 'time', 'events/s', 'rebuild / raw'],
    ['rebuildProjections', ms(rebuildMs), int(result.rebuild.eventsPerSecond), result.rebuild.ratio.toFixed(2)],
    ['raw batch insert, same rows', ms(rawMs), int(eventCount / (rawMs / 1000)), ''],
  ]));

  // (c) command -> read model, command -> NATS, open loop.
  nc = await connectNats(config.natsUrl, 'es-bench');
  const { jsm, stream } = await ensureServiceStream(nc, 'letters', STACK_ID);
  await jsm.streams.purge(stream);
  await pool.query('delete from outbox');
  const arrived = new Map();
  const sub = nc.subscribe(`${STACK_ID}.${SUBJECT}`);
  void (async () => {
    for await (const message of sub) {
      const { data } = message.json();
      if (!arrived.has(data.itemId)) arrived.set(data.itemId, performance.now());
    }
  })();
  relay = new OutboxRelay({ databaseUrl: dbUrl.toString(), nats: nc, logger: pino({ level: 'warn' }), stackId: STACK_ID });
  await relay.start();
  const total = Math.round(config.rate * config.seconds);
  const visible = [];
  const onNats = [];
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: total }, async (_, i) => {
    const scheduled = startedAt + (i * 1000) / config.rate;
    await new Promise((r) => setTimeout(r, Math.max(0, scheduled - performance.now())));
    const streamId = `cmd-${randomUUID()}`;
    try {
      await handleCommand(orm.em, store, itemDecider, { title: title(i) }, { streamId, streamType: 'item' });
      // Inline projection: visible once committed; proven by a read on another connection.
      for (;;) {
        const { rowCount } = await pool.query('select 1 from bench_items where id = $1', [streamId]);
        if (rowCount) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      visible.push(performance.now() - scheduled);
      const deadline = performance.now() + 10_000;
      while (!arrived.has(streamId)) {
        if (performance.now() > deadline) throw new Error('its event did not reach NATS within 10 s');
        await new Promise((r) => setTimeout(r, 1));
      }
      onNats.push(arrived.get(streamId) - scheduled);
    } catch (error) {
      failures++;
      say(`[es-bench] command failed: ${error.message}`);
    }
  }));
  sub.unsubscribe();
  result.latency = { rate: config.rate, commands: total, visible: summarize(visible), nats: summarize(onNats) };
  say(`\n(c) ${int(total)} commands at ${config.rate}/s (open loop): from the scheduled time`);
  say(table([
    ['until', 'p50', 'p95', 'p99', 'max'],
    ['read model shows it', ms(result.latency.visible.p50), ms(result.latency.visible.p95), ms(result.latency.visible.p99), ms(result.latency.visible.max)],
    ['its event is on NATS', ms(result.latency.nats.p50), ms(result.latency.nats.p95), ms(result.latency.nats.p99), ms(result.latency.nats.max)],
  ]));
  await jsm.streams.delete(stream);

  say('\nGoals: appends >= 0.9x raw (1 and 8 writers); rebuild >= 20,000 events/s and >= 0.5x raw; p95 <= 50 ms at 100 commands/s.');
  if (failures) {
    say(`[es-bench] ${failures} operations failed`);
    exitCode = 1;
  }
  say(`BENCH_EVENT_STORE_RESULT ${JSON.stringify(result)}`);
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
} catch (error) {
  say(`[es-bench] ${error.stack ?? error.message}`);
  exitCode = 1;
} finally {
  await relay?.stop().catch(() => undefined);
  await nc?.close().catch(() => undefined);
  // A backend the forced drop below ends can still be reported to the pool after end(): not a failure.
  pool.on('error', () => undefined);
  await pool.end().catch(() => undefined);
  await orm.close(true).catch(() => undefined);
  await admin.query(`drop database if exists ${DATABASE} with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
}
process.exit(exitCode);
