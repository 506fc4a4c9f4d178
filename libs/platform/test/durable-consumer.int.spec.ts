import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { z } from 'zod';
import { event as declare, type EventDeclaration, type PublishedEvent, type ReceivedEvent } from '@lv/contracts';
import { createTestDatabase, waitFor, type TestDatabase } from '@lv/testing';
import { createLogger, currentTrace, type TraceContext } from '../src/logging/index.js';
import { metricsRegistry } from '../src/observability/metrics.js';
import { connectNats, ensureServiceStream } from '../src/messaging/jetstream.js';
import { scopedSubject } from '../src/messaging/subjects.js';
import { DurableConsumer, type DurableConsumerOptions } from '../src/event-store/durable-consumer.js';

// DurableConsumer against the shared JetStream (127.0.0.1:4222), scoped to a stack id of its own,
// and a fresh PostgreSQL database standing in for the consuming service's.

class HandledEventsSchema extends Migration {
  override async up(): Promise<void> {
    // Deliberately no unique key: a handler that ran twice shows up as two rows.
    this.addSql('create table handled_events (id bigserial primary key, consumer text not null, event_id uuid not null, subject text not null)');
  }
}

jest.setTimeout(30_000);

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const stackId = `dcspec_${randomBytes(4).toString('hex')}`;
const logger = createLogger('durable-consumer-spec', 'silent');

let db: TestDatabase;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;
const consumers: DurableConsumer[] = [];

const event = (type: string, data: unknown = {}): PublishedEvent => ({
  eventId: randomUUID(), type, streamId: `s-${randomUUID()}`, version: 1, occurredAt: new Date().toISOString(), data, metadata: {},
});
/** Publishes as a relay would; a different msgID makes JetStream store a second copy (no dedupe). */
const publish = (subject: string, e: PublishedEvent, msgID = e.eventId) =>
  js.publish(scopedSubject(subject, stackId), JSON.stringify(e), { msgID });

const recordHandled = async (em: EntityManager, e: ReceivedEvent<EventDeclaration>, consumer: string) => {
  await em.execute('insert into handled_events (consumer, event_id, subject) values (?, ?, ?)', [consumer, e.eventId, e.subject]);
};

/** Events whose data can be any object: these specs are about delivery, not about what an event says. */
const anyData = (...subjects: string[]) => subjects.map((subject) => declare(subject, z.object({})));

function consumer<E extends EventDeclaration>(name: string, events: readonly E[], overrides: Partial<DurableConsumerOptions<E>> = {}): DurableConsumer<E> {
  const c = new DurableConsumer<E>({
    name, source: 'identity', events, orm: db.orm, nats: nc, logger, stackId, retryBackoffMs: 20,
    handle: (em, e) => recordHandled(em, e, name),
    ...overrides,
  });
  consumers.push(c);
  return c;
}

const rows = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => db.orm.em.fork().execute<T[]>(sql, params);
const handledStats = async (name: string) => {
  const [r] = await rows<{ total: number; distinct: number }>(
    'select count(*)::int as total, count(distinct event_id)::int as distinct from handled_events where consumer = ?', [name]);
  return r!;
};

beforeAll(async () => {
  db = await createTestDatabase([{ name: 'handled-events', class: HandledEventsSchema }], 'consumer');
  nc = await connectNats(NATS_URL, 'durable-consumer-spec');
  js = jetstream(nc);
  ({ jsm } = await ensureServiceStream(nc, 'identity', stackId));
});

afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.stop()));
});

afterAll(async () => {
  // Deleting the stack's stream deletes its durable consumers with it.
  await jsm?.streams.delete(`LV_IDENTITY_${stackId}`).catch(() => undefined);
  await nc?.close();
  await db?.drop();
});

describe('DurableConsumer', () => {
  it('handles every event once; a duplicate (the same event stored twice) and a full replay change nothing', async () => {
    const name = 'dup-check';
    const events = Array.from({ length: 20 }, (_, i) => event('Registered', { i }));
    for (const e of events) await publish('identity.t1.registered.v1', e);
    // Five events published again under different message ids: JetStream keeps both copies.
    for (const e of events.slice(0, 5)) await publish('identity.t1.registered.v1', e, `${e.eventId}-again`);

    const c = consumer(name, anyData('identity.t1.registered.v1'));
    await c.start();
    await waitFor(() => c.handledCount + c.duplicateCount === 25, 10_000, 'all 25 deliveries to be processed');
    expect(c.handledCount).toBe(20);
    expect(c.duplicateCount).toBe(5);
    expect(await handledStats(name)).toEqual({ total: 20, distinct: 20 });
    const [inbox] = await rows<{ n: number }>('select count(*)::int as n from inbox where consumer = ?', [name]);
    expect(inbox!.n).toBe(20);
    const subjects = await rows<{ subject: string }>('select distinct subject from handled_events where consumer = ?', [name]);
    expect(subjects).toEqual([{ subject: 'identity.t1.registered.v1' }]); // unscoped, as the registry names it
    await c.stop();

    // Everything redelivered (the durable recreated from scratch, as after a lost ack state).
    await jsm.consumers.delete(`LV_IDENTITY_${stackId}`, `${name}_${stackId}`);
    const replay = consumer(name, anyData('identity.t1.registered.v1'));
    await replay.start();
    await waitFor(() => replay.duplicateCount === 25, 10_000, 'the replayed deliveries to be processed');
    expect(replay.handledCount).toBe(0);
    expect(await handledStats(name)).toEqual({ total: 20, distinct: 20 });
  });

  it('retries a handler that throws, and the event counts once when it finally succeeds', async () => {
    const name = 'flaky';
    const attempts = new Map<string, number>();
    const c = consumer(name, anyData('identity.t2.changed.v1'), {
      maxDeliveries: 5,
      handle: async (em, e) => {
        // The inbox row is written before the handler runs: it must roll back with each failure.
        await recordHandled(em, e, name);
        const n = (attempts.get(e.eventId) ?? 0) + 1;
        attempts.set(e.eventId, n);
        if (n < 3) throw new Error(`transient failure ${n}`);
      },
    });
    await c.start();
    const flaky = event('Changed');
    await publish('identity.t2.changed.v1', flaky);
    await waitFor(() => c.handledCount === 1, 10_000, 'the flaky event to succeed');
    expect(attempts.get(flaky.eventId)).toBe(3);
    expect(await handledStats(name)).toEqual({ total: 1, distinct: 1 });
    expect(c.deadLetterCount).toBe(0);
    expect(await rows('select * from dead_letters where consumer = ?', [name])).toEqual([]);
  });

  it('parks an event that always fails in dead_letters after maxDeliveries, and carries on with the next', async () => {
    const name = 'poisoned';
    let poisonAttempts = 0;
    const c = consumer(name, anyData('identity.t3.poison.v1', 'identity.t3.fine.v1'), {
      maxDeliveries: 3,
      handle: async (em, e) => {
        if (e.type === 'Poison') {
          poisonAttempts++;
          throw new Error('cannot handle this one');
        }
        await recordHandled(em, e, name);
      },
    });
    await c.start();
    const poison = event('Poison', { bad: true });
    await publish('identity.t3.poison.v1', poison);
    await waitFor(() => c.deadLetterCount === 1, 10_000, 'the poison event to be parked');

    const [parked] = await rows<{ subject: string; payload: PublishedEvent; error: string; stream_seq: string | number | bigint }>(
      'select subject, payload, error, stream_seq from dead_letters where consumer = ?', [name]);
    expect(parked).toMatchObject({ subject: 'identity.t3.poison.v1', payload: poison, error: 'cannot handle this one' });
    expect(Number(parked!.stream_seq)).toBeGreaterThan(0);
    expect(poisonAttempts).toBe(3);

    const good = event('Fine');
    await publish('identity.t3.fine.v1', good);
    await waitFor(() => c.handledCount === 1, 10_000, 'the next event to be handled');
    // Terminated, not redelivered: no fourth attempt, no inbox row, nothing handled for it.
    expect(poisonAttempts).toBe(3);
    expect(await rows('select event_id from inbox where consumer = ? and event_id = ?', [name, poison.eventId])).toEqual([]);
    expect(await rows<{ event_id: string }>('select event_id from handled_events where consumer = ?', [name])).toEqual([{ event_id: good.eventId }]);
  });

  it('keeps retrying an event it cannot park (dead_letters unwritable) instead of dropping it', async () => {
    const name = 'unparkable';
    let attempts = 0;
    const c = consumer(name, anyData('identity.t9.stuck.v1'), {
      maxDeliveries: 2,
      handle: async () => {
        attempts++;
        throw new Error('always fails');
      },
    });
    await db.orm.em.fork().execute('alter table dead_letters rename to dead_letters_away');
    try {
      await c.start();
      await publish('identity.t9.stuck.v1', event('Stuck'));
      // Past maxDeliveries, parking fails: the event must come back, not be terminated.
      await waitFor(() => attempts >= 4, 10_000, 'deliveries beyond maxDeliveries');
      expect(c.deadLetterCount).toBe(0);
    } finally {
      await db.orm.em.fork().execute('alter table dead_letters_away rename to dead_letters');
    }
    await waitFor(() => c.deadLetterCount === 1, 10_000, 'the event to be parked once dead_letters is back');
    expect(await rows('select error from dead_letters where consumer = ?', [name])).toEqual([{ error: 'always fails' }]);
  });

  it('splits the work between two replicas sharing one durable, each event handled once', async () => {
    const name = 'replicated';
    const a = consumer(name, anyData('identity.t4.counted.v1'));
    const b = consumer(name, anyData('identity.t4.counted.v1'));
    await Promise.all([a.start(), b.start()]);
    const total = 300;
    await Promise.all(Array.from({ length: total }, (_, i) => publish('identity.t4.counted.v1', event('Counted', { i }))));
    await waitFor(() => a.handledCount + b.handledCount === total, 20_000, `${total} events handled by the two replicas`);
    expect(await handledStats(name)).toEqual({ total, distinct: total });
    expect(a.handledCount).toBeGreaterThan(0);
    expect(b.handledCount).toBeGreaterThan(0);
    expect(a.duplicateCount + b.duplicateCount).toBe(0);
  });

  it('resumes where it stopped: a restarted consumer handles only what arrived meanwhile', async () => {
    const name = 'resumable';
    const first = consumer(name, anyData('identity.t5.n.v1'));
    await first.start();
    for (let i = 0; i < 10; i++) await publish('identity.t5.n.v1', event('N', { i }));
    await waitFor(() => first.handledCount === 10, 10_000, 'the first ten events');
    await first.stop();

    for (let i = 10; i < 15; i++) await publish('identity.t5.n.v1', event('N', { i }));
    const second = consumer(name, anyData('identity.t5.n.v1'));
    await second.start();
    await waitFor(() => second.handledCount === 5, 10_000, 'the five events published while stopped');
    expect(second.duplicateCount).toBe(0);
    expect(await handledStats(name)).toEqual({ total: 15, distinct: 15 });
  });

  it("reports its lag at each scrape (lv_consumer_pending): what waits for it while its handler is busy, none once it has caught up, nothing once stopped", async () => {
    const name = 'lagging';
    const lag = async () => Object.fromEntries((await metricsRegistry.getSingleMetric('lv_consumer_pending')!.get()).values
      .filter((v) => v.labels.consumer === name).map((v) => [v.labels.state, v.value]));
    const blocked = { release: () => {} };
    const gate = new Promise<void>((resolve) => { blocked.release = resolve; });
    const c = consumer(name, anyData('identity.t12.n.v1'), { handle: async (em, e) => { await gate; await recordHandled(em, e, name); } });
    await c.start();
    for (let i = 0; i < 4; i++) await publish('identity.t12.n.v1', event('N', { i }));
    // The handler holds the first delivery: JetStream counts it unacknowledged, and the rest as delivered-but-unacked or waiting.
    await waitFor(async () => { const l = await lag(); return (l.waiting ?? 0) + (l.unacknowledged ?? 0) === 4; }, 10_000, 'the four events counted as its lag');
    blocked.release();
    await waitFor(() => c.handledCount === 4, 10_000, 'the four events handled');
    await waitFor(async () => { const l = await lag(); return l.waiting === 0 && l.unacknowledged === 0; }, 10_000, 'no lag once caught up');
    await c.stop();
    expect(await lag()).toEqual({});
  });

  it('reads only its subjects when given several (filtered on the server or, before nats-server 2.10, here)', async () => {
    const name = 'picky';
    const c = consumer(name, anyData('identity.t6.wanted.v1', 'identity.t6.also.v2'));
    await c.start();
    const wanted = event('Wanted');
    const also = event('Also');
    const other = event('Other');
    await publish('identity.t6.other.v1', other);
    await publish('identity.t6.wanted.v1', wanted);
    await publish('identity.t6.also.v2', also);
    const last = event('Wanted');
    await publish('identity.t6.wanted.v1', last);
    await waitFor(() => c.handledCount === 3, 10_000, 'the three wanted events');
    const handled = await rows<{ event_id: string }>('select event_id from handled_events where consumer = ? order by id', [name]);
    expect(handled.map((r) => r.event_id)).toEqual([wanted.eventId, also.eventId, last.eventId]);
  });

  it('parks an unparseable message instead of retrying it forever', async () => {
    const name = 'garbage';
    const c = consumer(name, anyData('identity.t7.junk.v1'));
    await c.start();
    await js.publish(scopedSubject('identity.t7.junk.v1', stackId), 'not json {', { msgID: randomUUID() });
    await waitFor(() => c.deadLetterCount === 1, 10_000, 'the junk to be parked');
    const [parked] = await rows<{ payload: unknown; error: string }>('select payload, error from dead_letters where consumer = ?', [name]);
    expect(parked).toEqual({ payload: { raw: 'not json {' }, error: 'unparseable payload' });
  });

  it('parks an event its declaration refuses on its first delivery, saying why, and hands the handler typed data', async () => {
    const name = 'declared';
    const registered = declare('identity.t12.registered.v1', z.object({ userId: z.string(), email: z.string(), retries: z.number().int().default(0) }));
    const renamed = declare('identity.t12.renamed.v1', z.object({ userId: z.string(), name: z.string() }));
    const seen: unknown[] = [];
    const c = consumer(name, [registered, renamed], {
      maxDeliveries: 5,
      handle: async (em, e) => {
        // The subject tells the two apart, and each branch reads its own event's fields.
        if (e.subject === registered.subject) seen.push({ email: e.data.email, retries: e.data.retries });
        else seen.push(e.data);
        await recordHandled(em, e, name);
      },
    });
    await c.start();
    const refused = event('Registered', { userId: 'u1', email: 42 });
    await publish(registered.subject, refused);
    await publish(renamed.subject, event('Renamed', { userId: 'u1', name: 'Ann', secret: 'never passed on' }));
    const accepted = event('Registered', { userId: 'u1', email: 'ann@example.com' });
    await publish(registered.subject, accepted);
    await waitFor(() => c.handledCount === 2, 10_000, 'the two valid events');

    // The handler saw the valid events only, as their declarations shape them (defaults filled, unknown fields dropped).
    expect(seen).toEqual([{ userId: 'u1', name: 'Ann' }, { email: 'ann@example.com', retries: 0 }]);
    expect(c.deadLetterCount).toBe(1);
    const [parked] = await rows<{ payload: unknown; error: string }>('select payload, error from dead_letters where consumer = ?', [name]);
    expect(parked).toEqual({ payload: refused, error: expect.stringMatching(/^data refused by the declaration of identity\.t12\.registered\.v1: email: /) });
    expect(await rows('select event_id from inbox where consumer = ? and event_id = ?', [name, refused.eventId])).toEqual([]);
    // Parked at once: no retry can make it pass, so it was never handed back to JetStream.
    const redeliveries = (await metricsRegistry.getSingleMetric('lv_consumer_redeliveries_total')!.get()).values.find((v) => v.labels.consumer === name)?.value ?? 0;
    expect(redeliveries).toBe(0);
  });

  it('stops promptly, even right after start()', async () => {
    const c = consumer('quick-stop', anyData('identity.t8.any.v1'));
    await c.start();
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise((resolve) => { timer = setTimeout(() => resolve('hung'), 5_000); });
    const stopped = await Promise.race([c.stop().then(() => 'stopped'), hung]);
    clearTimeout(timer);
    expect(stopped).toBe('stopped');
  });
});

describe('ensureServiceStream', () => {
  it('creates the stack-scoped stream with a dedupe window, and is safe to call again', async () => {
    const stream = `LV_IDENTITY_${stackId}`;
    const before = await jsm.streams.info(stream);
    expect(before.config.subjects).toEqual([`${stackId}.identity.>`]);
    expect(before.config.duplicate_window).toBe(2 * 60 * 1_000_000_000);
    expect(before.config.storage).toBe('file');
    // A second boot of the service: same stream, messages kept.
    await ensureServiceStream(nc, 'identity', stackId);
    const after = await jsm.streams.info(stream);
    expect(after.state.messages).toBe(before.state.messages);
    expect(after.created).toEqual(before.created);
    // The dedupe window at work: the same message id twice is stored once.
    const e = event('Deduped');
    const first = await publish('identity.t10.deduped.v1', e);
    const second = await publish('identity.t10.deduped.v1', e);
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    expect(second.seq).toBe(first.seq);
  });

  it("handles each event under the trace of the request that caused it (the event as its cause), and counts deliveries by outcome", async () => {
    const name = 'traced';
    const seen: (TraceContext | undefined)[] = [];
    const caused = { ...event('Registered'), metadata: { correlationId: 'req-signup-1' } };
    const uncaused = event('Registered');
    await publish('identity.t11.registered.v1', caused);
    await publish('identity.t11.registered.v1', uncaused);
    await publish('identity.t11.registered.v1', caused, `${caused.eventId}-again`);
    const c = consumer(name, anyData('identity.t11.registered.v1'), { handle: async () => { seen.push(currentTrace()); } });
    await c.start();
    await waitFor(() => c.handledCount + c.duplicateCount === 3, 10_000, 'the three deliveries to be processed');
    expect(seen).toEqual([{ correlationId: 'req-signup-1', causationId: caused.eventId }, { correlationId: uncaused.eventId, causationId: uncaused.eventId }]);
    const counted = async (outcome: string) => (await metricsRegistry.getSingleMetric('lv_consumer_events_total')!.get()).values.find((v) => v.labels.consumer === name && v.labels.outcome === outcome)?.value;
    expect(await counted('handled')).toBe(2);
    expect(await counted('duplicate')).toBe(1);
  });
});
