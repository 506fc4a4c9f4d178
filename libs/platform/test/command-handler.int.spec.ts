import { jest } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, deciderSpecification, type TestDatabase } from '@lv/testing';
import { ConcurrencyError, DomainError } from '../src/errors/index.js';
import { aggregateStream } from '../src/event-store/aggregate-stream.js';
import { handleCommand } from '../src/event-store/command-handler.js';
import type { Decider } from '../src/event-store/decider.js';
import { EventStore } from '../src/event-store/event-store.js';
import type { Projection } from '../src/event-store/projection.js';
import type { DomainEvent, EventMetadata, ExpectedVersion } from '../src/event-store/types.js';

jest.setTimeout(30_000);

// handleCommand (load, decide, append, retry) against a real PostgreSQL, with a tiny pure decider.

interface Counter { count: number; closed: boolean }
type CounterCommand = { type: 'Increment'; by: number } | { type: 'Close' } | { type: 'Touch' };
type CounterEvent = DomainEvent<'Incremented', { by: number }> | DomainEvent<'Closed', Record<string, never>>;

const counterDecider: Decider<Counter, CounterCommand, CounterEvent> = {
  initialState: () => ({ count: 0, closed: false }),
  decide(command, state) {
    if (state.closed) throw new DomainError('FORBIDDEN', 'counter is closed');
    switch (command.type) {
      case 'Increment':
        if (command.by <= 0) throw new DomainError('VALIDATION_FAILED', 'increment must be positive');
        return [{ type: 'Incremented', data: { by: command.by } }];
      case 'Close':
        return [{ type: 'Closed', data: {} }];
      case 'Touch':
        return []; // nothing to record
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'Incremented': return { ...state, count: state.count + event.data.by };
      case 'Closed': return { ...state, closed: true };
    }
  },
};

class ReceiptsSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table receipts (event_id uuid primary key, stream_id text not null, note text not null unique)');
  }
}

let db: TestDatabase;
const store = new EventStore({ publish: (e) => ({ subject: `identity.counter.${e.type.toLowerCase()}.v1`, data: e.data }) });
let seq = 0;
const newCounter = () => `counter-${++seq}`;
const run = (streamId: string, command: CounterCommand, extra: Partial<Parameters<typeof handleCommand>[4]> = {}) =>
  handleCommand(db.orm.em, store, counterDecider, command, { streamId, streamType: 'counter', ...extra });
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
const count = async (sql: string, params: unknown[] = []): Promise<number> => {
  const [row] = await db.orm.em.fork().execute<{ n: number }[]>(`select (${sql})::int as n`, params);
  return row!.n;
};

beforeAll(async () => {
  db = await createTestDatabase([{ name: 'receipts', class: ReceiptsSchema }], 'commands');
});

afterAll(async () => {
  await db?.drop();
});

describe('the counter decider (given/when/then, no I/O)', () => {
  const spec = deciderSpecification(counterDecider);
  it('decides from folded history', () => {
    spec.given([]).when({ type: 'Increment', by: 2 }).then([{ type: 'Incremented', data: { by: 2 } }]);
    spec.given([{ type: 'Incremented', data: { by: 1 } }]).when({ type: 'Close' }).then([{ type: 'Closed', data: {} }]);
    spec.given([{ type: 'Closed', data: {} }]).when({ type: 'Increment', by: 1 }).thenThrows('FORBIDDEN');
    spec.given([]).when({ type: 'Increment', by: 0 }).thenThrows('VALIDATION_FAILED');
  });
});

describe('aggregateStream', () => {
  it("folds a stream's events with the decider's evolve and reports the version they reached", async () => {
    const id = newCounter();
    expect(await aggregateStream(db.orm.em.fork(), store, counterDecider, id)).toEqual({ state: { count: 0, closed: false }, version: 0 });
    await run(id, { type: 'Increment', by: 2 });
    await run(id, { type: 'Increment', by: 5 });
    await run(id, { type: 'Close' });
    expect(await aggregateStream(db.orm.em.fork(), store, counterDecider, id)).toEqual({ state: { count: 7, closed: true }, version: 3 });
  });

  it("reads on the caller's EntityManager: inside a transaction it sees that transaction's own appends", async () => {
    const id = newCounter();
    await run(id, { type: 'Increment', by: 1 });
    await db.orm.em.fork().transactional(async (tem) => {
      await store.appendToStream(tem, id, 'counter', 1, [{ type: 'Incremented', data: { by: 10 } }]);
      expect(await aggregateStream(tem, store, counterDecider, id)).toEqual({ state: { count: 11, closed: false }, version: 2 });
      expect(await aggregateStream(db.orm.em.fork(), store, counterDecider, id)).toEqual({ state: { count: 1, closed: false }, version: 1 });
    });
  });
});

describe('handleCommand', () => {
  it('loads the stream, decides, appends and returns the evolved state and version', async () => {
    const id = newCounter();
    const first = await run(id, { type: 'Increment', by: 2 });
    expect(first.state).toEqual({ count: 2, closed: false });
    expect(first.version).toBe(1);
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ type: 'Incremented', data: { by: 2 }, version: 1, streamId: id, streamType: 'counter' });

    const second = await run(id, { type: 'Increment', by: 3 }, { metadata: { correlationId: 'r-2' } });
    expect(second.state).toEqual({ count: 5, closed: false });
    expect(second.version).toBe(2);
    const { events } = await store.readStream(db.orm.em.fork(), id);
    expect(events.map((e) => e.data)).toEqual([{ by: 2 }, { by: 3 }]);
    expect(events[1]!.metadata).toEqual({ correlationId: 'r-2' });
  });

  it('appends nothing when the decider decides nothing, and reports the current state', async () => {
    const id = newCounter();
    await run(id, { type: 'Increment', by: 4 });
    const touched = await run(id, { type: 'Touch' });
    expect(touched).toEqual({ state: { count: 4, closed: false }, events: [], version: 1 });
    expect(await count('select count(*) from events where stream_id = ?', [id])).toBe(1);
  });

  it('retries on conflicts when no expected version is given: 8 concurrent increments all count', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const id = newCounter();
      const results = await Promise.all(Array.from({ length: 8 }, () => run(id, { type: 'Increment', by: 1 })));
      // Every command saw the count before it and added one: the versions are 1..8, once each.
      expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(results.map((r) => r.state.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const { events } = await store.readStream(db.orm.em.fork(), id);
      expect(events).toHaveLength(8);
      expect(await aggregateStream(db.orm.em.fork(), store, counterDecider, id)).toEqual({ state: { count: 8, closed: false }, version: 8 });
    }
  });

  it("treats expectedVersion 'any' like no expectation: concurrent commands all land", async () => {
    const id = newCounter();
    await Promise.all(Array.from({ length: 6 }, () => run(id, { type: 'Increment', by: 2 }, { expectedVersion: 'any' })));
    expect((await store.readStream(db.orm.em.fork(), id)).version).toBe(6);
  });

  it('surfaces a conflict with an explicit expected version instead of retrying', async () => {
    const id = newCounter();
    await run(id, { type: 'Increment', by: 1 });
    await run(id, { type: 'Increment', by: 1 });
    // The caller saw version 1 (say, in an editor) but the stream moved on to 2.
    const stale = run(id, { type: 'Increment', by: 10 }, { expectedVersion: 1 });
    await expect(stale).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(stale).rejects.toMatchObject({ code: 'CONFLICT', expectedVersion: 1 });
    await expect(run(newCounter(), { type: 'Increment', by: 1 }, { expectedVersion: 3 })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(run(id, { type: 'Increment', by: 1 }, { expectedVersion: 'no_stream' })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await run(id, { type: 'Increment', by: 5 }, { expectedVersion: 2 })).state.count).toBe(7);
    expect((await run(newCounter(), { type: 'Increment', by: 1 }, { expectedVersion: 'no_stream' })).version).toBe(1);
  });

  it('lets one of 8 racing commands with the same explicit expected version win; the rest get CONFLICT', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const id = newCounter();
      await run(id, { type: 'Increment', by: 1 });
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => run(id, { type: 'Increment', by: 1 }, { expectedVersion: 1 })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'CONFLICT' });
      expect((await store.readStream(db.orm.em.fork(), id)).version).toBe(2);
    }
  });

  it('reads, then appends with its write-only projection in one round trip, outside a transaction; writes that must commit with the events get one', async () => {
    const tally: Projection = {
      name: 'tally', handles: ['Incremented'], writeOnly: true,
      apply: async (em, events) => {
        for (const e of events) await em.execute('insert into receipts (event_id, stream_id, note) values (?, ?, ?)', [e.eventId, e.streamId, `tally-${e.streamId}-${e.version}`]);
      },
      reset: async () => undefined,
    };
    const tallied = new EventStore({ publish: () => null, inlineProjections: [tally] });
    const pool = (await db.orm.em.getConnection().getNativeClient()) as unknown as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
    const query = jest.spyOn(pool.Client.prototype, 'query');
    const id = newCounter();
    try {
      const result = await handleCommand(db.orm.em, tallied, counterDecider, { type: 'Increment', by: 2 }, { streamId: id, streamType: 'counter' });
      expect(result.version).toBe(1);
      // The read, then the append and the projection's insert as one query: no begin, no commit.
      expect(query).toHaveBeenCalledTimes(2);
      expect(query.mock.calls.map(([sent]) => sent)).not.toContain('begin');
      query.mockClear();
      await handleCommand(db.orm.em, tallied, counterDecider, { type: 'Increment', by: 1 }, { streamId: id, streamType: 'counter', alsoInTransaction: async () => undefined });
      expect(query.mock.calls.map(([sent]) => sent)).toEqual(expect.arrayContaining(['begin', 'commit']));
    } finally {
      query.mockRestore();
    }
    expect(await count('select count(*) from receipts where stream_id = ?', [id])).toBe(2);
    expect((await tallied.readStream(db.orm.em.fork(), id)).version).toBe(2);
  });

  it('appends nothing (no event, no outbox row, no side write) when decide throws a DomainError', async () => {
    const id = newCounter();
    await run(id, { type: 'Close' });
    let sideWrites = 0;
    const attempt = run(id, { type: 'Increment', by: 1 }, { alsoInTransaction: async () => { sideWrites++; } });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'counter is closed' });
    expect(sideWrites).toBe(0);
    expect(await count('select count(*) from events where stream_id = ?', [id])).toBe(1);
    expect(await count(`select count(*) from outbox where payload->>'streamId' = ?`, [id])).toBe(1);
  });

  it('commits alsoInTransaction writes atomically with the events, and rolls both back together', async () => {
    const id = newCounter();
    const ok = await run(id, { type: 'Increment', by: 1 }, {
      alsoInTransaction: async (em, events) => {
        expect(events.map((e) => e.version)).toEqual([1]);
        await em.execute('insert into receipts (event_id, stream_id, note) values (?, ?, ?)', [events[0]!.eventId, id, `note-${id}`]);
      },
    });
    const [receipt] = await db.orm.em.fork().execute<{ event_id: string }[]>('select event_id from receipts where stream_id = ?', [id]);
    expect(receipt!.event_id).toBe(ok.events[0]!.eventId);

    // A second write that violates the receipts' unique note: the error surfaces as itself (not as a
    // conflict to retry) and neither the event nor its outbox row survives.
    const other = newCounter();
    await expect(run(other, { type: 'Increment', by: 1 }, {
      alsoInTransaction: async (em, events) => {
        await em.execute('insert into receipts (event_id, stream_id, note) values (?, ?, ?)', [events[0]!.eventId, other, `note-${id}`]);
      },
    })).rejects.toMatchObject({ code: '23505' });
    expect(await count('select count(*) from events where stream_id = ?', [other])).toBe(0);
    expect(await count(`select count(*) from outbox where payload->>'streamId' = ?`, [other])).toBe(0);
    expect(await count('select count(*) from receipts where stream_id = ?', [other])).toBe(0);
  });

  it('runs a command again when PostgreSQL breaks a deadlock by rolling it back: both commands land, once each', async () => {
    const [a, b] = [newCounter(), newCounter()];
    const lockA = `lock-${a}`;
    const lockB = `lock-${b}`;
    await db.orm.em.fork().execute(`insert into receipts (event_id, stream_id, note) values (gen_random_uuid(), 'locks', ?), (gen_random_uuid(), 'locks', ?)`, [lockA, lockB]);
    // Each first attempt locks its row, waits until the other holds its own, then asks for the other's:
    // a real deadlock, which PostgreSQL breaks (40P01) by rolling one transaction back.
    let firstLocks = 0;
    const bothHoldOne = () => waitUntil(() => firstLocks === 2);
    const attempts = { [a]: 0, [b]: 0 };
    const lockInTurn = (streamId: string, first: string, second: string) => run(streamId, { type: 'Increment', by: 1 }, {
      alsoInTransaction: async (em) => {
        const attempt = ++attempts[streamId]!;
        await em.execute('select 1 from receipts where note = ? for update', [first]);
        if (attempt === 1) {
          firstLocks++;
          await bothHoldOne();
        }
        await em.execute('select 1 from receipts where note = ? for update', [second]);
      },
    });
    await Promise.all([lockInTurn(a, lockA, lockB), lockInTurn(b, lockB, lockA)]);
    expect(attempts[a]! + attempts[b]!).toBe(3);
    expect(await count('select count(*) from events where stream_id in (?, ?)', [a, b])).toBe(2);
    expect(await count(`select count(*) from outbox where payload->>'streamId' in (?, ?)`, [a, b])).toBe(2);
  });

  it('gives up with CONFLICT after the configured retries under sustained contention', async () => {
    const id = newCounter();
    await run(id, { type: 'Increment', by: 1 });
    // A store where a rival always commits between the command's read and its append.
    class RivalledStore extends EventStore {
      appends = 0;
      override async appendToStream<E extends DomainEvent>(em: EntityManager, streamId: string, streamType: string, expectedVersion: ExpectedVersion, events: readonly E[], metadata?: EventMetadata) {
        this.appends++;
        await store.appendToStream(db.orm.em.fork(), id, 'counter', 'any', [{ type: 'Incremented', data: { by: 100 } }]);
        return super.appendToStream(em, streamId, streamType, expectedVersion, events, metadata);
      }
    }
    const rivalled = new RivalledStore({ publish: () => null });
    await expect(handleCommand(db.orm.em, rivalled, counterDecider, { type: 'Increment', by: 1 }, { streamId: id, streamType: 'counter', retries: 2 }))
      .rejects.toMatchObject({ code: 'CONFLICT' });
    expect(rivalled.appends).toBe(3);
    // Only the rivals' events landed.
    const { events } = await store.readStream(db.orm.em.fork(), id);
    expect(events.map((e) => (e.data as { by: number }).by)).toEqual([1, 100, 100, 100]);
  });
});
