import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformFile } from '@swc/core';
import pg from 'pg';
import { jest } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { JetStreamManager } from '@nats-io/jetstream';
import { z } from 'zod';
import { event } from '@lv/contracts';
import { createTestDatabase, PrivateNatsServer, waitFor, type TestDatabase } from '@lv/testing';
import { createLogger } from '../src/logging/index.js';
import { connectNats, ensureServiceStream } from '../src/messaging/jetstream.js';
import { scopedStreamName, scopedSubject } from '../src/messaging/subjects.js';
import { DurableConsumer } from '../src/event-store/durable-consumer.js';
import { EventStore } from '../src/event-store/event-store.js';
import { OutboxRelay } from '../src/event-store/outbox-relay.js';

// The fault test: outbox + relay deliver every event exactly once to a consumer across a killed
// relay and a NATS restart. The relay runs in a child process (so it can be SIGKILLed) against a
// private nats-server (so stopping it disturbs nobody). Counting happens in three places: the
// JetStream stream (dedupe by Nats-Msg-Id), the consumer's handled_events table (the inbox), and a
// plain NATS subscription that sees every publish, duplicates included.

jest.setTimeout(120_000);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// Scratch build of the relay process, inside node_modules so its bare imports (pg, nats) resolve.
const scratch = join(root, 'node_modules', '.cache', `lv-relay-spec-${process.pid}`);
const relayScript = join(scratch, 'platform', 'event-store', 'test-support', 'relay-process.js');

/**
 * Compiles libs/contracts and libs/platform with the build's own SWC options into the scratch
 * directory, pointing `@lv/contracts` at the scratch copy: the child runs this checkout's sources
 * (fresh clone or not) without touching the dist/ folders other processes may be running from.
 */
async function compileRelayProcess(): Promise<void> {
  const { swcOptions } = (await import(pathToFileURL(join(root, 'tools', 'build', 'swc-options.mjs')).href)) as { swcOptions: object };
  const contractsIndex = join(scratch, 'contracts', 'index.js');
  for (const lib of ['contracts', 'platform']) {
    const src = join(root, 'libs', lib, 'src');
    for (const entry of await readdir(src, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name);
      if (!entry.isFile() || !file.endsWith('.ts') || file.endsWith('.d.ts') || /\.spec\.ts$/.test(file)) continue;
      const target = join(scratch, lib, relative(src, file)).replace(/\.ts$/, '.js');
      const { code } = await transformFile(file, { ...swcOptions, filename: file, sourceMaps: false });
      const toContracts = relative(dirname(target), contractsIndex);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, code.replaceAll(`'@lv/contracts'`, `'${toContracts.startsWith('.') ? toContracts : `./${toContracts}`}'`));
    }
  }
  await writeFile(join(scratch, 'package.json'), '{ "type": "module" }\n');
}

const logger = createLogger('outbox-relay-spec', process.env.LOG_LEVEL ?? 'silent');

class HandledEventsSchema extends Migration {
  override async up(): Promise<void> {
    // No unique key on purpose: a handler that ran twice for one event shows up as two rows.
    this.addSql('create table handled_events (id bigserial primary key, event_id uuid not null, subject text not null)');
  }
}

const RELAY_BATCH_SIZE = 20;
/** Events the first relay publishes before it is killed. */
const KILL_AT = 720;
/** What the relay publishes: every event appended here is a Happened. */
const happened = event('identity.relay.happened.v1', z.object({ i: z.number().int() }));
const store = new EventStore({ publish: (e) => ({ subject: `identity.relay.${e.type.toLowerCase()}.v1`, data: e.data }) });

/** Appends events [from, to) through the store: four concurrent writers, each on its own streams. */
async function writeEvents(db: TestDatabase, from: number, to: number): Promise<void> {
  const writers = 4;
  await Promise.all(Array.from({ length: writers }, async (_, w) => {
    for (let i = from + ((w - from) % writers + writers) % writers; i < to; i += writers) {
      await store.appendToStream(db.orm.em.fork(), `relay-${i % 40}`, 'relay', 'any', [{ type: 'Happened', data: { i } }]);
    }
  }));
}

interface RelayChild { process: ChildProcess; output: string[]; exited: Promise<void> }

function startRelay(databaseUrl: string, natsUrl: string, stackId: string): Promise<RelayChild> {
  const child = spawn(process.execPath, [relayScript], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NATS_URL: natsUrl, STACK_ID: stackId, RELAY_BATCH_SIZE: String(RELAY_BATCH_SIZE), RELAY_PUBLISH_TIMEOUT_MS: '1000', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('relay ready')) resolve({ process: child, output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`relay process exited early (${code}): ${output.join('')}`)));
  });
}

describe('outbox relay fault test', () => {
  const stackId = `relayspec_${randomBytes(4).toString('hex')}`;
  const N = 2000;
  let server: PrivateNatsServer;
  let storeDb: TestDatabase;
  let consumerDb: TestDatabase;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let consumer: DurableConsumer | undefined;
  let tap: Subscription | undefined;
  const relays: RelayChild[] = [];

  beforeAll(async () => {
    await compileRelayProcess();
    server = await PrivateNatsServer.start();
    [storeDb, consumerDb] = await Promise.all([
      createTestDatabase([], 'relaystore'),
      createTestDatabase([{ name: 'handled-events', class: HandledEventsSchema }], 'relayconsumer'),
    ]);
    nc = await connectNats(server.url, 'outbox-relay-spec');
    ({ jsm } = await ensureServiceStream(nc, 'identity', stackId));
  });

  afterAll(async () => {
    await consumer?.stop();
    tap?.unsubscribe();
    for (const relay of relays) {
      if (relay.process.exitCode === null && relay.process.signalCode === null) relay.process.kill('SIGKILL');
      await relay.exited;
    }
    await nc?.close();
    await server?.destroy();
    await Promise.all([storeDb?.drop(), consumerDb?.drop()]);
    await rm(scratch, { recursive: true, force: true });
  });

  const published = async (): Promise<number> => {
    // Every event is published, so whatever has left the outbox has been acknowledged by JetStream.
    const [row] = await storeDb.orm.em.fork().execute<{ n: number }[]>('select ((select count(*) from events) - (select count(*) from outbox))::int as n');
    return row!.n;
  };
  const streamMessages = async (): Promise<number> => {
    try {
      return (await jsm.streams.info(scopedStreamName('identity', stackId))).state.messages;
    } catch {
      return -1; // NATS is restarting; waitFor asks again
    }
  };

  it(`delivers ${N} events exactly once across a SIGKILLed relay and a NATS restart`, async () => {
    // Every publish the relays make, duplicates included (a lower bound: it misses what is sent
    // while this connection is itself reconnecting).
    const seen = new Map<string, number>();
    tap = nc.subscribe(scopedSubject('identity.>', stackId), {
      callback: (_err, msg) => {
        const id = (msg.json() as { eventId: string }).eventId;
        seen.set(id, (seen.get(id) ?? 0) + 1);
      },
    });
    consumer = new DurableConsumer({
      name: 'relay-fault-check', source: 'identity', events: [happened], orm: consumerDb.orm, nats: nc, logger, stackId, retryBackoffMs: 50,
      handle: async (em, received) => {
        await em.execute('insert into handled_events (event_id, subject) values (?, ?)', [received.eventId, received.subject]);
      },
    });
    await consumer.start();

    // Phase 1: a backlog (written by concurrent writers), and a relay working through it. The relay
    // is killed at the worst moment: its next batch is in JetStream but not yet deleted from the
    // outbox. Two database sessions stage that moment whatever the machine's speed:
    // - `gate` row-locks the backlog past KILL_AT, so the relay (FOR UPDATE SKIP LOCKED) publishes
    //   exactly KILL_AT rows, then idles;
    // - `blocker` takes a SHARE lock on the outbox: the relay can still claim and publish a batch
    //   (FOR UPDATE takes ROW SHARE), but its DELETE (ROW EXCLUSIVE) waits until the relay is dead.
    await writeEvents(storeDb, 0, 1400);
    const gate = new pg.Client({ connectionString: storeDb.url });
    const blocker = new pg.Client({ connectionString: storeDb.url });
    await Promise.all([gate.connect(), blocker.connect()]);
    let killedAt: number;
    try {
      await gate.query('begin');
      // (OFFSET in the subquery: rows a locking query's own OFFSET skips get locked too.)
      await gate.query('select id from outbox where id >= (select id from outbox order by id offset $1 limit 1) for update', [KILL_AT]);
      const first = await startRelay(storeDb.url, server.url, stackId);
      relays.push(first);
      await waitFor(async () => (await published()) === KILL_AT, 30_000, `the first relay to publish ${KILL_AT} events`, 5);
      await blocker.query('begin');
      await blocker.query('lock table outbox in share mode');
      await gate.query('commit');
      // The relay's transaction holds its claimed rows (ROW SHARE, from FOR UPDATE) and waits for
      // ROW EXCLUSIVE to delete them. (pg_locks, not pg_stat_activity: a statement blocked while
      // being parsed still shows the previous query there.)
      await waitFor(async () => {
        const { rows } = await blocker.query<{ n: number }>(
          `select count(*)::int as n from pg_locks w
            where w.relation = 'outbox'::regclass and w.mode = 'RowExclusiveLock' and not w.granted
              and exists (select 1 from pg_locks h
                           where h.pid = w.pid and h.relation = 'outbox'::regclass and h.mode = 'RowShareLock' and h.granted)`);
        return rows[0]!.n > 0;
      }, 30_000, 'the first relay to publish a batch and wait to delete it', 5);
      first.process.kill('SIGKILL');
      await first.exited;
      killedAt = await published();
    } finally {
      await gate.query('commit').catch(() => undefined);
      await blocker.query('commit').catch(() => undefined);
      await Promise.all([gate.end(), blocker.end()]);
    }

    // Phase 2: a second relay takes over (republishing the dead one's last batch) while writers keep
    // appending, and NATS is stopped under it after ~1400 events went out. The last 200 events are
    // written while NATS is down, so the relay surely has work that fails.
    const writesDuringRelay = writeEvents(storeDb, 1400, 1800);
    const second = await startRelay(storeDb.url, server.url, stackId);
    relays.push(second);
    await waitFor(async () => (await published()) >= 1400, 30_000, 'the second relay to reach 1400 events', 2);
    await server.stop();
    const natsStoppedAt = await published();
    const writesWhileDown = writeEvents(storeDb, 1800, N);
    // Keep NATS down until the relay has felt it: a publish failed and was counted on its row.
    await waitFor(async () => {
      const [row] = await storeDb.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from outbox where attempts > 0');
      return row!.n > 0;
    }, 30_000, 'the relay to record a failed publish while NATS is down', 50);
    const publishedWhileDown = await published();
    await server.start();
    await Promise.all([writesDuringRelay, writesWhileDown]);

    // Drain: everything leaves the outbox, reaches the stream once, and is handled once.
    await waitFor(async () => (await published()) === N, 60_000, 'the outbox to drain');
    await waitFor(async () => (await streamMessages()) === N, 30_000, `the stream to hold ${N} messages`);
    await waitFor(() => consumer!.handledCount === N, 60_000, `the consumer to handle ${N} events`);
    // The surviving relay shuts down cleanly on SIGTERM and reports what JetStream told it.
    second.process.kill('SIGTERM');
    await second.exited;
    expect(second.process.exitCode).toBe(0);
    const stats = /relay stopped published=(\d+) duplicates=(\d+)/.exec(second.output.join(''));
    expect(stats).not.toBeNull();
    const dedupedByJetStream = Number(stats![2]);

    const [handled] = await consumerDb.orm.em.fork().execute<{ total: number; distinct: number }[]>(
      'select count(*)::int as total, count(distinct event_id)::int as distinct from handled_events');
    const storedIds = (await storeDb.orm.em.fork().execute<{ event_id: string }[]>('select event_id from events')).map((r) => r.event_id);
    const handledIds = new Set((await consumerDb.orm.em.fork().execute<{ event_id: string }[]>('select event_id from handled_events')).map((r) => r.event_id));
    const missing = storedIds.filter((id) => !handledIds.has(id));
    const publishes = [...seen.values()].reduce((a, b) => a + b, 0);

    console.log(
      `relay fault test: ${N} events, relay killed at ${killedAt} (one batch published, not yet deleted), ` +
      `NATS stopped at ${natsStoppedAt} (${publishedWhileDown} out while down), stream ${await streamMessages()}, ` +
      `handled ${handled!.total} (distinct ${handled!.distinct}), duplicate acks to the second relay: ${dedupedByJetStream}, ` +
      `publishes seen on the wire ${publishes} for ${seen.size} ids (${publishes - seen.size} extra copies, none stored), ` +
      `duplicates suppressed by inbox: ${consumer.duplicateCount}, dead letters: ${consumer.deadLetterCount}`,
    );

    expect(storedIds).toHaveLength(N);
    expect(missing).toEqual([]);
    expect(handled).toEqual({ total: N, distinct: N });
    expect(await streamMessages()).toBe(N);
    expect(consumer.deadLetterCount).toBe(0);
    expect(killedAt).toBe(KILL_AT);
    // The killed relay's last batch (a full one) went out twice; JetStream kept one copy of each.
    expect(dedupedByJetStream).toBeGreaterThanOrEqual(RELAY_BATCH_SIZE);
    // Nothing went out while NATS was down, bar the one batch acknowledged as it shut down.
    expect(publishedWhileDown - natsStoppedAt).toBeLessThanOrEqual(RELAY_BATCH_SIZE);
    expect(seen.size).toBeLessThanOrEqual(N);
  });
});

describe('OutboxRelay in-process', () => {
  const stackId = `relayunit_${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    db = await createTestDatabase([], 'relayinproc');
    nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'outbox-relay-inproc-spec');
    ({ jsm } = await ensureServiceStream(nc, 'identity', stackId));
  });

  afterAll(async () => {
    await jsm?.streams.delete(scopedStreamName('identity', stackId)).catch(() => undefined);
    await nc?.close();
    await db?.drop();
  });

  it('wakes on NOTIFY, publishes in order with the event id as message id, and empties the outbox', async () => {
    // A long idle poll: only the LISTEN/NOTIFY wake-up can make this fast.
    const relay = new OutboxRelay({ databaseUrl: db.url, nats: nc, logger, stackId, idlePollMs: 60_000 });
    await relay.start();
    try {
      const { events } = await store.appendToStream(db.orm.em.fork(), 'ordered', 'relay', 'no_stream',
        Array.from({ length: 30 }, (_, i) => ({ type: 'Happened', data: { i } })));
      await waitFor(() => relay.publishedCount === 30, 10_000, 'the relay to publish 30 events');
      const [outbox] = await db.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from outbox');
      expect(outbox!.n).toBe(0);

      const stream = scopedStreamName('identity', stackId);
      const info = await jsm.streams.info(stream);
      expect(info.state.messages).toBe(30);
      const stored = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) stored.push(await jsm.streams.getMessage(stream, { seq }));
      expect(stored.map((m) => m!.header?.get('Nats-Msg-Id'))).toEqual(events.map((e) => e.eventId));
      expect(stored.map((m) => m!.subject)).toEqual(Array(30).fill(`${stackId}.identity.relay.happened.v1`));
      expect(stored.map((m) => (m!.json() as { data: { i: number } }).data.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(stored[0]!.json()).toMatchObject({ eventId: events[0]!.eventId, version: 1, streamId: 'ordered', type: 'Happened' });

      // Republishing the same rows (a relay that died before deleting them) stores nothing new.
      await db.orm.em.fork().execute(`insert into outbox (event_id, subject, payload)
        select event_id, 'identity.relay.happened.v1', jsonb_build_object('eventId', event_id) from events where stream_id = 'ordered'`);
      await waitFor(() => relay.publishedCount === 60, 10_000, 'the relay to republish the 30 rows');
      expect((await jsm.streams.info(stream)).state.messages).toBe(30);
    } finally {
      await relay.stop();
    }
  });

  it('keeps a row whose publish fails (counting attempts) without holding back the rows after it', async () => {
    const relay = new OutboxRelay({ databaseUrl: db.url, nats: nc, logger, stackId, idlePollMs: 100 });
    await db.orm.em.fork().execute(`delete from outbox`);
    // A subject outside every stream: JetStream never acknowledges it.
    await db.orm.em.fork().execute(`insert into outbox (event_id, subject, payload) values (gen_random_uuid(), 'nowhere.at.all', '{}'::jsonb)`);
    const { events } = await store.appendToStream(db.orm.em.fork(), 'after-poison', 'relay', 'no_stream', [{ type: 'Happened', data: {} }, { type: 'Happened', data: {} }]);
    await relay.start();
    try {
      await waitFor(() => relay.publishedCount === 2, 15_000, 'the rows behind the failing one to go out');
      const rows = await db.orm.em.fork().execute<{ subject: string; attempts: number; last_error: string | null }[]>('select subject, attempts, last_error from outbox');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ subject: 'nowhere.at.all' });
      expect(rows[0]!.attempts).toBeGreaterThan(0);
      expect(rows[0]!.last_error).toBeTruthy();
      const stream = scopedStreamName('identity', stackId);
      const last = await jsm.streams.getMessage(stream, { last_by_subj: `${stackId}.identity.relay.happened.v1` });
      expect(last!.header?.get('Nats-Msg-Id')).toBe(events[1]!.eventId);
    } finally {
      await relay.stop();
    }
  });
});
