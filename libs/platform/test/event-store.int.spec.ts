import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, type TestDatabase } from '@lv/testing';
import { ConcurrencyError } from '../src/errors/index.js';
import { EventStore, type EventSealing } from '../src/event-store/event-store.js';
import { rebuildProjections, type Projection } from '../src/event-store/projection.js';
import type { DomainEvent, PublishPolicy, StoredEvent } from '../src/event-store/types.js';

jest.setTimeout(30_000);

// The event store against a real PostgreSQL: one fresh migrated database for this file.

/** A read model shaped like identity's user_profiles: one row per stream, inserted then updated in place. */
class AccountTotalsSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table account_totals (
      stream_id text primary key, total integer not null default 0, additions integer not null default 0, version integer not null)`);
    this.addSql(`create table side_effects (id text primary key)`);
  }
}

type AccountEvent =
  | DomainEvent<'AccountOpened', { owner: string }>
  | DomainEvent<'Added', { amount: number }>
  | DomainEvent<'SecretSet', { secret: string }>;

/** Idempotent per event thanks to the version guard, like every projection must be. */
const accountTotals: Projection = {
  name: 'account_totals',
  handles: ['AccountOpened', 'Added'],
  async apply(em, events) {
    for (const event of events) {
      if (event.type === 'AccountOpened') {
        await em.execute('insert into account_totals (stream_id, version) values (?, ?) on conflict do nothing', [event.streamId, event.version]);
      } else {
        await em.execute(
          'update account_totals set total = total + ?, additions = additions + 1, version = ? where stream_id = ? and version < ?',
          [(event.data as { amount: number }).amount, event.version, event.streamId, event.version],
        );
      }
    }
  },
  async reset(em) {
    await em.execute('delete from account_totals');
  },
};

// SecretSet never leaves the service; AccountOpened leaves without the owner's name.
const publish: PublishPolicy = (event) => {
  switch (event.type) {
    case 'SecretSet': return null;
    case 'AccountOpened': return { subject: 'identity.account.opened.v1', data: { opened: true } };
    default: return { subject: `identity.account.${event.type.toLowerCase()}.v1`, data: event.data };
  }
};

const opened = (owner = 'ann'): AccountEvent => ({ type: 'AccountOpened', data: { owner } });
const added = (amount: number): AccountEvent => ({ type: 'Added', data: { amount } });

let db: TestDatabase;
let store: EventStore;
let streamSeq = 0;
const newStream = (label: string) => `${label}-${++streamSeq}`;

const inTx = <T>(work: (em: EntityManager) => Promise<T>): Promise<T> => db.orm.em.fork().transactional(work);
const count = async (sql: string, params: unknown[] = []): Promise<number> => {
  const [row] = await db.orm.em.fork().execute<{ n: number }[]>(`select (${sql})::int as n`, params);
  return row!.n;
};
const totalsFor = async (): Promise<unknown[]> =>
  db.orm.em.fork().execute('select stream_id, total, additions, version from account_totals order by stream_id');
/** What account_totals must hold, computed from the log itself. */
const totalsFromLog = async (): Promise<unknown[]> =>
  db.orm.em.fork().execute(`
    select stream_id,
           coalesce(sum((data->>'amount')::int) filter (where type = 'Added'), 0)::int as total,
           (count(*) filter (where type = 'Added'))::int as additions,
           max(version) filter (where type in ('AccountOpened', 'Added')) as version
      from events where stream_type = 'account' and stream_id in (select stream_id from events where type = 'AccountOpened')
     group by stream_id order by stream_id`);

/** Resolves once `n` callers have arrived: makes racing writers all hold an open transaction first. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => { release = resolve; });
  return () => {
    if (++arrived === n) release();
    return all;
  };
}

beforeAll(async () => {
  db = await createTestDatabase([{ name: 'account-totals', class: AccountTotalsSchema }], 'eventstore');
  store = new EventStore({ publish, inlineProjections: [accountTotals] });
});

afterAll(async () => {
  await db?.drop();
});

describe('the test database', () => {
  it('is migrated without leaving a MikroORM schema snapshot file in the working directory', () => {
    expect(existsSync(join(process.cwd(), `.snapshot-${db.name}.json`))).toBe(false);
  });
});

describe('EventStore append/read', () => {
  it('round-trips events with their data, metadata, versions and JSON-safe positions', async () => {
    const streamId = newStream('account');
    // Characters that would break a client-side formatted query: placeholders, quotes, backslashes, unicode.
    const tricky = { note: `why? it's "fine" \\ ok ?? $1 :name 🔐 ü`, nested: { list: [1, null, 'x'] }, empty: '' };
    const metadata = { correlationId: 'req-1', actor: { kind: 'user' as const, id: 'u-1' } };
    const appended = await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened(), { type: 'Added', data: { amount: 5, ...tricky } }], metadata));

    expect(appended.nextExpectedVersion).toBe(2);
    expect(appended.events.map((e) => e.version)).toEqual([1, 2]);

    const { events, version } = await store.readStream(db.orm.em.fork(), streamId);
    expect(version).toBe(2);
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.type)).toEqual(['AccountOpened', 'Added']);
    expect(events[1]!.data).toEqual({ amount: 5, ...tricky });
    expect(events[0]!.metadata).toEqual(metadata);
    expect(events[0]!.streamType).toBe('account');
    expect(events[0]!.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[0]!.occurredAt).toBeInstanceOf(Date);
    // What append returned is what a read returns (ids, positions, timestamps to the millisecond).
    expect(events.map((e) => [e.eventId, e.globalPosition, e.version, e.occurredAt.getTime()]))
      .toEqual(appended.events.map((e) => [e.eventId, e.globalPosition, e.version, e.occurredAt.getTime()]));

    // bigint positions come back as decimal strings, so everything serialises to JSON.
    for (const event of [...events, ...appended.events]) {
      expect(typeof event.globalPosition).toBe('string');
      expect(event.globalPosition).toMatch(/^[1-9][0-9]*$/);
    }
    expect(() => JSON.stringify({ events, appended })).not.toThrow();
    const all = await store.readAll(db.orm.em.fork(), '0', 1000);
    expect(() => JSON.stringify(all)).not.toThrow();
    expect(all.every((e) => typeof e.globalPosition === 'string')).toBe(true);
  });

  it('stores an event whose data is null (a JSON null, not a missing value)', async () => {
    const streamId = newStream('audit');
    await inTx((em) => store.appendToStream(em, streamId, 'audit', 'no_stream', [{ type: 'Pinged', data: null }]));
    const { events } = await store.readStream(db.orm.em.fork(), streamId);
    expect(events.map((e) => e.data)).toEqual([null]);
  });

  it('reads an unknown stream as version 0 with no events', async () => {
    expect(await store.readStream(db.orm.em.fork(), 'no-such-stream')).toEqual({ events: [], version: 0 });
  });

  it("honours expected versions: a number, 'no_stream' and 'any'", async () => {
    const streamId = newStream('account');
    await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened()]));
    await expect(inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [added(1)]))).rejects.toMatchObject({ code: 'CONFLICT' });

    const r2 = await inTx((em) => store.appendToStream(em, streamId, 'account', 1, [added(2), added(3)]));
    expect(r2.nextExpectedVersion).toBe(3);
    const r3 = await inTx((em) => store.appendToStream(em, streamId, 'account', 'any', [added(4)]));
    expect(r3.nextExpectedVersion).toBe(4);
    expect(r3.events[0]!.version).toBe(4);
    const r4 = await inTx((em) => store.appendToStream(em, streamId, 'account', 4, [added(5)]));
    expect(r4.nextExpectedVersion).toBe(5);

    // 'any' on a stream that does not exist yet starts it at version 1.
    const fresh = newStream('account');
    expect((await inTx((em) => store.appendToStream(em, fresh, 'account', 'any', [opened()]))).nextExpectedVersion).toBe(1);

    const { version } = await store.readStream(db.orm.em.fork(), streamId);
    expect(version).toBe(5);
  });

  it('rejects a stale or future expected version with ConcurrencyError (CONFLICT) and writes nothing', async () => {
    const streamId = newStream('account');
    await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened(), added(1), added(2)]));
    const outboxBefore = await count('select count(*) from outbox');

    for (const stale of [0, 1, 2, 4, 99]) {
      const attempt = inTx((em) => store.appendToStream(em, streamId, 'account', stale, [added(100)]));
      await expect(attempt).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(attempt).rejects.toMatchObject({ code: 'CONFLICT', streamId, expectedVersion: stale });
    }
    expect((await store.readStream(db.orm.em.fork(), streamId)).version).toBe(3);
    expect(await count('select count(*) from outbox')).toBe(outboxBefore);
    expect(await count('select total from account_totals where stream_id = ?', [streamId])).toBe(3);
  });

  it('lets exactly one of 8 concurrent writers at the same expected version win, 50 trials in a row', async () => {
    const trials = 50;
    const writers = 8;
    const winnersPerTrial: number[] = [];
    for (let trial = 0; trial < trials; trial++) {
      const streamId = newStream('race');
      await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened()]));
      const arrive = barrier(writers);
      // Each writer reads the stream in its own transaction on its own connection, waits until all
      // eight have read version 1, then appends at that version.
      const outcomes = await Promise.allSettled(Array.from({ length: writers }, (_, w) => inTx(async (em) => {
        const { version } = await store.readStream(em, streamId);
        await arrive();
        return store.appendToStream(em, streamId, 'account', version, [added(w + 1)]);
      })));
      const winners = outcomes.filter((o) => o.status === 'fulfilled');
      const losers = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      for (const loser of losers) {
        expect(loser.reason).toBeInstanceOf(ConcurrencyError);
        expect(loser.reason).toMatchObject({ code: 'CONFLICT' });
      }
      winnersPerTrial.push(winners.length);
      // The log holds the opener plus one winner; the loser's outbox rows rolled back with it.
      const rows = await db.orm.em.fork().execute<{ version: number }[]>('select version from events where stream_id = ? order by version', [streamId]);
      expect(rows.map((r) => r.version)).toEqual([1, 2]);
      expect(await count(`select count(*) from outbox o join events e using (event_id) where e.stream_id = ?`, [streamId])).toBe(2);
    }
    expect(winnersPerTrial).toEqual(Array(trials).fill(1));
  });

  it("never reports a conflict to concurrent 'any' writers: each append lands at the next version", async () => {
    const streamId = newStream('audit');
    const writers = 8;
    const perWriter = 5;
    const outcomes = await Promise.allSettled(Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) {
        await inTx((em) => store.appendToStream(em, streamId, 'audit', 'any', [{ type: 'Noted', data: { w, i } }]));
      }
    }));
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const rows = await db.orm.em.fork().execute<{ version: number }[]>('select version from events where stream_id = ? order by version', [streamId]);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i + 1));
  });
});

describe('EventStore mixed writers', () => {
  it("keeps 'any' writers conflict-free while writers with explicit versions race them on the same stream", async () => {
    const streamId = newStream('mixed');
    await inTx((em) => store.appendToStream(em, streamId, 'audit', 'no_stream', [{ type: 'Noted', data: {} }]));
    let explicitConflicts = 0;
    const anyWriters = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 10; i++) await inTx((em) => store.appendToStream(em, streamId, 'audit', 'any', [{ type: 'Noted', data: { any: i } }]));
    });
    const explicitWriters = Array.from({ length: 4 }, async () => {
      for (let done = 0; done < 10;) {
        try {
          await inTx(async (em) => {
            const { version } = await store.readStream(em, streamId);
            return store.appendToStream(em, streamId, 'audit', version, [{ type: 'Noted', data: { explicit: done } }]);
          });
          done++;
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          explicitConflicts++;
        }
      }
    });
    const outcomes = await Promise.allSettled([...anyWriters, ...explicitWriters]);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const rows = await db.orm.em.fork().execute<{ version: number }[]>('select version from events where stream_id = ? order by version', [streamId]);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: 81 }, (_, i) => i + 1));
    // Only the explicit writers ever saw CONFLICT (explicitConflicts: how often depends on timing).
    expect(explicitConflicts).toBeLessThan(1000);
  });
});

describe('EventStore outbox', () => {
  it('writes one outbox row per published event in the append transaction, with the published payload', async () => {
    const streamId = newStream('account');
    const { events } = await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened('zoe'), added(7)], { correlationId: 'c-9' }));
    const rows = await db.orm.em.fork().execute<{ event_id: string; subject: string; payload: Record<string, unknown> }[]>(
      'select event_id, subject, payload from outbox where event_id = any(?::uuid[]) order by id', [`{${events.map((e) => e.eventId).join(',')}}`]);
    expect(rows.map((r) => r.subject)).toEqual(['identity.account.opened.v1', 'identity.account.added.v1']);
    expect(rows[0]!.payload).toEqual({
      eventId: events[0]!.eventId, type: 'AccountOpened', streamId, version: 1,
      occurredAt: events[0]!.occurredAt.toISOString(), data: { opened: true }, metadata: { correlationId: 'c-9' },
    });
    // The policy's data went out, not the stored data (the owner's name stays home).
    expect(JSON.stringify(rows[0]!.payload)).not.toContain('zoe');
    expect(rows[1]!.payload).toMatchObject({ eventId: events[1]!.eventId, version: 2, data: { amount: 7 } });
  });

  it('queues the outbox rows of one append in version order (the relay publishes in outbox id order)', async () => {
    const streamId = newStream('account');
    await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened(), ...Array.from({ length: 40 }, (_, i) => added(i))]));
    const rows = await db.orm.em.fork().execute<{ version: number }[]>(
      'select e.version from outbox o join events e using (event_id) where e.stream_id = ? order by o.id', [streamId]);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
  });

  it('keeps an event out of the outbox when the publish policy returns null', async () => {
    const streamId = newStream('account');
    const { events } = await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened(), { type: 'SecretSet', data: { secret: 's3cr3t' } }, added(1)]));
    expect(events.map((e) => e.type)).toEqual(['AccountOpened', 'SecretSet', 'Added']);
    const subjects = await db.orm.em.fork().execute<{ type: string }[]>(
      'select e.type from outbox o join events e using (event_id) where e.stream_id = ? order by e.version', [streamId]);
    expect(subjects.map((r) => r.type)).toEqual(['AccountOpened', 'Added']);
    expect(await count(`select count(*) from outbox where payload::text like '%s3cr3t%'`)).toBe(0);
    // ...while the store itself keeps it.
    expect((await store.readStream(db.orm.em.fork(), streamId)).events[1]!.data).toEqual({ secret: 's3cr3t' });
  });

  it('leaves neither events, outbox rows nor read-model rows behind when the transaction rolls back', async () => {
    const streamId = newStream('account');
    await expect(inTx(async (em) => {
      await store.appendToStream(em, streamId, 'account', 'no_stream', [opened(), added(3)]);
      await em.execute('insert into side_effects (id) values (?)', [streamId]);
      // The append and the inline projection are visible inside the transaction...
      const [row] = await em.execute<{ total: number }[]>('select total from account_totals where stream_id = ?', [streamId]);
      expect(row?.total).toBe(3);
      throw new Error('boom after the append');
    })).rejects.toThrow('boom after the append');
    // ...and all gone after the rollback.
    expect(await count('select count(*) from events where stream_id = ?', [streamId])).toBe(0);
    expect(await count(`select count(*) from outbox where payload->>'streamId' = ?`, [streamId])).toBe(0);
    expect(await count('select count(*) from account_totals where stream_id = ?', [streamId])).toBe(0);
    expect(await count('select count(*) from side_effects where id = ?', [streamId])).toBe(0);
  });
});

describe('EventStore projections', () => {
  it('runs inline projections in the append transaction', async () => {
    const streamId = newStream('account');
    await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened(), added(10)]));
    await inTx((em) => store.appendToStream(em, streamId, 'account', 2, [added(5), { type: 'SecretSet', data: { secret: 'x' } }]));
    const [row] = await db.orm.em.fork().execute('select total, additions, version from account_totals where stream_id = ?', [streamId]);
    expect(row).toEqual({ total: 15, additions: 2, version: 3 });
  });

  it('rolls the events back when an inline projection fails, even on an EntityManager outside a transaction', async () => {
    const failing: Projection = { name: 'failing', handles: ['Added'], apply: async () => { throw new Error('projection broke'); }, reset: async () => undefined };
    const brittle = new EventStore({ publish, inlineProjections: [accountTotals, failing] });
    const streamId = newStream('account');
    await expect(brittle.appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened(), added(1)])).rejects.toThrow('projection broke');
    expect(await count('select count(*) from events where stream_id = ?', [streamId])).toBe(0);
    expect(await count('select count(*) from account_totals where stream_id = ?', [streamId])).toBe(0);
  });

  it('assigns increasing global positions, in append order within a stream and across appends', async () => {
    const a = newStream('account');
    const b = newStream('account');
    const r1 = await inTx((em) => store.appendToStream(em, a, 'account', 'no_stream', [opened(), added(1), added(2)]));
    const r2 = await inTx((em) => store.appendToStream(em, b, 'account', 'no_stream', [opened()]));
    const r3 = await inTx((em) => store.appendToStream(em, a, 'account', 3, [added(3)]));
    const positions = [...r1.events, ...r2.events, ...r3.events].map((e) => BigInt(e.globalPosition));
    for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).toBe(true);

    // readAll pages through the whole store in global order, and can filter by stream type.
    const seen: StoredEvent[] = [];
    let after = '0';
    for (;;) {
      const page = await store.readAll(db.orm.em.fork(), after, 7);
      if (page.length === 0) break;
      seen.push(...page);
      after = page.at(-1)!.globalPosition;
    }
    const all = seen.map((e) => BigInt(e.globalPosition));
    expect(all).toEqual([...all].sort((x, y) => (x < y ? -1 : 1)));
    expect(new Set(all).size).toBe(all.length);
    expect(seen.length).toBe(await count('select count(*) from events'));
    expect(positions.every((p) => all.includes(p))).toBe(true);
  });

  it('filters readAll by stream type, including types with characters an array literal would split on', async () => {
    const odd = 'odd, "type"';
    const streamId = newStream('odd');
    await inTx((em) => store.appendToStream(em, streamId, odd, 'no_stream', [{ type: 'Noted', data: {} }]));
    const onlyOdd = await store.readAll(db.orm.em.fork(), '0', 10_000, [odd]);
    expect(onlyOdd.map((e) => e.streamId)).toEqual([streamId]);
    const both = await store.readAll(db.orm.em.fork(), '0', 10_000, [odd, 'audit']);
    expect(new Set(both.map((e) => e.streamType))).toEqual(new Set([odd, 'audit']));
  });

  it('rebuildProjections replays the log into a reset read model and gives the same result', async () => {
    for (let s = 0; s < 12; s++) {
      const streamId = newStream('account');
      await inTx((em) => store.appendToStream(em, streamId, 'account', 'no_stream', [opened(`o${s}`), ...Array.from({ length: s % 4 }, (_, i) => added(s * 10 + i))]));
    }
    const live = await totalsFor();
    expect(live).toEqual(await totalsFromLog());

    // Damage the read model: wrong numbers, a row that should not exist, a missing row.
    await db.orm.em.fork().execute(`update account_totals set total = -1`);
    await db.orm.em.fork().execute(`insert into account_totals (stream_id, version) values ('ghost', 1)`);
    await db.orm.em.fork().execute(`delete from account_totals where stream_id = (select min(stream_id) from account_totals)`);

    const reports = await rebuildProjections(db.orm.em, store, [accountTotals], 5);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.projection).toBe('account_totals');
    expect(reports[0]!.events).toBe(await count(`select count(*) from events where type in ('AccountOpened', 'Added')`));
    expect(await totalsFor()).toEqual(live);
    const [checkpoint] = await db.orm.em.fork().execute<{ position: string }[]>('select position::text as position from projection_checkpoints where name = ?', ['account_totals']);
    expect(checkpoint!.position).toBe(String(await count('select max(global_position) from events')));
  });

  it('rebuilds correctly while writers keep appending (no update lost to the reset, none applied twice)', async () => {
    const streams = Array.from({ length: 6 }, () => newStream('account'));
    for (const s of streams) await inTx((em) => store.appendToStream(em, s, 'account', 'no_stream', [opened()]));
    let writing = true;
    const writers = streams.map(async (streamId, w) => {
      let version = 1;
      while (writing) {
        const r = await inTx((em) => store.appendToStream(em, streamId, 'account', version, [added(w + 1)]));
        version = r.nextExpectedVersion;
      }
      return version;
    });
    try {
      for (let i = 0; i < 5; i++) await rebuildProjections(db.orm.em, store, [accountTotals], 50);
    } finally {
      writing = false;
    }
    const versions = await Promise.all(writers);
    expect(versions.every((v) => v > 1)).toBe(true);
    expect(await totalsFor()).toEqual(await totalsFromLog());
  });
});

describe('EventStore appends that commit on their own (write-only projections, one round trip)', () => {
  // The same read model, declared write-only: an append given an EntityManager outside a transaction
  // sends its statement and the projection's as one query (one implicit transaction).
  const alone = () => new EventStore({ publish, inlineProjections: [{ ...accountTotals, writeOnly: true }] });
  // Every query sent on a connection of MikroORM's pool; the one-round-trip append is one query object.
  const spyOnPoolQueries = async () => {
    const pool = (await db.orm.em.getConnection().getNativeClient()) as unknown as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
    return jest.spyOn(pool.Client.prototype, 'query');
  };
  const outboxOf = (streamId: string) => count('select count(*) from outbox o join events e using (event_id) where e.stream_id = ?', [streamId]);

  it('sends the append and the projection statements as one query, and commits events, outbox rows and read model together', async () => {
    const query = await spyOnPoolQueries();
    const streamId = newStream('alone');
    try {
      const first = await alone().appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened(), added(4), added(6)]);
      expect(query).toHaveBeenCalledTimes(1);
      const [sent] = query.mock.calls[0] as unknown as [{ text: string }];
      expect(sent.text).toContain('insert into events');
      expect(sent.text).toContain('account_totals');
      expect(first.nextExpectedVersion).toBe(3);
      expect(first.events.map((e) => e.version)).toEqual([1, 2, 3]);
      const positions = first.events.map((e) => BigInt(e.globalPosition));
      expect(positions.every((p, i) => i === 0 || p > positions[i - 1]!)).toBe(true);
    } finally {
      query.mockRestore();
    }
    await alone().appendToStream(db.orm.em.fork(), streamId, 'account', 3, [added(5)]);
    const [row] = await db.orm.em.fork().execute('select total, additions, version from account_totals where stream_id = ?', [streamId]);
    expect(row).toEqual({ total: 15, additions: 3, version: 4 });
    expect(await outboxOf(streamId)).toBe(4);
    const stored = await db.orm.em.fork().execute<{ version: number; payload: { version: number; eventId: string } }[]>(
      'select e.version, o.payload from events e join outbox o using (event_id) where e.stream_id = ? order by o.id', [streamId]);
    expect(stored.map((r) => [r.version, r.payload.version])).toEqual([[1, 1], [2, 2], [3, 3], [4, 4]]);
  });

  it('rejects a stale or future expected version with ConcurrencyError (CONFLICT), and neither events, outbox rows nor the read model change', async () => {
    const streamId = newStream('alone');
    await alone().appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened(), added(1), added(2)]);
    for (const wrong of ['no_stream', 0, 1, 2, 4, 99] as const) {
      const attempt = alone().appendToStream(db.orm.em.fork(), streamId, 'account', wrong, [added(100)]);
      await expect(attempt).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(attempt).rejects.toMatchObject({ code: 'CONFLICT', streamId, expectedVersion: wrong });
    }
    expect((await store.readStream(db.orm.em.fork(), streamId)).version).toBe(3);
    expect(await outboxOf(streamId)).toBe(3);
    const [row] = await db.orm.em.fork().execute('select total, additions, version from account_totals where stream_id = ?', [streamId]);
    expect(row).toEqual({ total: 3, additions: 2, version: 3 });
  });

  it('lets exactly one of 8 writers racing at the same expected version win, 20 trials; outbox rows exist for exactly the committed events', async () => {
    const trials = 20;
    const writers = 8;
    const racing = alone();
    const winnersPerTrial: number[] = [];
    for (let trial = 0; trial < trials; trial++) {
      const streamId = newStream('alone-race');
      await racing.appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened()]);
      const outcomes = await Promise.allSettled(Array.from({ length: writers }, (_, w) =>
        racing.appendToStream(db.orm.em.fork(), streamId, 'account', 1, [added(w + 1), added(100)])));
      const winners = outcomes.filter((o) => o.status === 'fulfilled');
      for (const loser of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
        expect(loser.reason).toBeInstanceOf(ConcurrencyError);
        expect(loser.reason).toMatchObject({ code: 'CONFLICT', expectedVersion: 1 });
      }
      winnersPerTrial.push(winners.length);
      const winner = winners[0]!.value;
      const rows = await db.orm.em.fork().execute<{ event_id: string; version: number }[]>(
        'select event_id, version from events where stream_id = ? order by version', [streamId]);
      expect(rows.map((r) => r.version)).toEqual([1, 2, 3]);
      expect(rows.slice(1).map((r) => r.event_id)).toEqual(winner.events.map((e) => e.eventId));
      // Every committed event has its outbox row, and no loser left one behind.
      expect(await count('select count(*) from outbox o left join events e using (event_id) where e.event_id is null')).toBe(0);
      expect(await outboxOf(streamId)).toBe(3);
      const [row] = await db.orm.em.fork().execute<{ total: number; additions: number; version: number }[]>(
        'select total, additions, version from account_totals where stream_id = ?', [streamId]);
      expect(row).toEqual({ total: (winner.events[0]!.data as { amount: number }).amount + 100, additions: 2, version: 3 });
    }
    expect(winnersPerTrial).toEqual(Array(trials).fill(1));
  });

  it('commits nothing when a projection statement fails, or when a write-only projection does more than execute', async () => {
    const streamId = newStream('alone');
    const broken: Projection = { name: 'broken', handles: ['Added'], writeOnly: true, apply: async (em) => { await em.execute('insert into no_such_table values (?)', [1]); }, reset: async () => undefined };
    const reading: Projection = { name: 'reading', handles: ['Added'], writeOnly: true, apply: async (em) => { em.clear(); }, reset: async () => undefined };
    for (const projection of [broken, reading]) {
      const brittle = new EventStore({ publish, inlineProjections: [{ ...accountTotals, writeOnly: true }, projection] });
      await expect(brittle.appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened(), added(1)])).rejects.toThrow();
      expect(await count('select count(*) from events where stream_id = ?', [streamId])).toBe(0);
      expect(await count('select count(*) from account_totals where stream_id = ?', [streamId])).toBe(0);
    }
    // The failed round trips left no connection of the pool unusable (nor a prepared statement in doubt).
    for (let i = 0; i < 12; i++) await alone().appendToStream(db.orm.em.fork(), newStream('alone-after'), 'account', 'no_stream', [opened(), added(1)]);
    await alone().appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened(), added(1)]);
    expect(await count('select count(*) from events where stream_id = ?', [streamId])).toBe(2);
  });

  it('sends a projection statement whose parameters binding could read differently (a date) formatted as em.execute would, still in one query', async () => {
    const stamped: Projection = {
      name: 'stamped', handles: ['AccountOpened'], writeOnly: true,
      apply: async (em, events) => { for (const e of events) await em.execute('insert into side_effects (id) values (? || \'@\' || extract(year from ?::timestamptz))', [e.streamId, new Date('2026-11-27T00:00:00Z')]); },
      reset: async () => undefined,
    };
    const query = await spyOnPoolQueries();
    const streamId = newStream('alone-dated');
    try {
      await new EventStore({ publish, inlineProjections: [{ ...accountTotals, writeOnly: true }, stamped] }).appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened()]);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    expect(await count('select count(*) from side_effects where id = ?', [`${streamId}@2026`])).toBe(1);
    expect(await count('select count(*) from account_totals where stream_id = ?', [streamId])).toBe(1);
  });

  it('takes a transaction as before when a projection is not write-only, the version is "any", or the caller holds a transaction', async () => {
    const query = await spyOnPoolQueries();
    try {
      const streamId = newStream('alone');
      await store.appendToStream(db.orm.em.fork(), streamId, 'account', 'no_stream', [opened()]);
      await alone().appendToStream(db.orm.em.fork(), streamId, 'account', 'any', [added(1)]);
      await inTx((em) => alone().appendToStream(em, streamId, 'account', 2, [added(2)]));
      // MikroORM's own queries (begin, the statements, commit) are sent one by one, as text.
      expect(query.mock.calls.filter(([sent]) => typeof sent !== 'string')).toEqual([]);
      expect(query.mock.calls.map(([sent]) => sent)).toEqual(expect.arrayContaining(['begin', 'commit']));
      const [row] = await db.orm.em.fork().execute('select total, additions, version from account_totals where stream_id = ?', [streamId]);
      expect(row).toEqual({ total: 3, additions: 2, version: 3 });
    } finally {
      query.mockRestore();
    }
  });
});

describe('EventStore sealing hook', () => {
  // A toy sealing for streams of type 'vault': the owner's name is stored reversed and marked, so
  // the test can tell sealed from clear; other stream types pass through.
  const sealName = (name: string) => `sealed:${[...name].reverse().join('')}`;
  const openName = (sealed: string) => [...sealed.replace(/^sealed:/, '')].reverse().join('');
  const sealing: EventSealing & { refuse: boolean; failAfter: boolean } = {
    refuse: false,
    failAfter: false,
    async seal(_em, stream, events) {
      if (this.refuse) throw new ConcurrencyError(stream.streamId, stream.expectedVersion);
      if (stream.streamType !== 'vault') return events;
      return events.map((e) => (e.type === 'AccountOpened' ? { ...e, data: { owner: sealName((e.data as { owner: string }).owner) } } : e));
    },
    async afterAppend(em, stream) {
      if (this.failAfter) throw new Error('key could not be destroyed');
      await em.execute('insert into side_effects (id) values (?)', [`after:${stream.streamId}`]);
    },
    async unseal(_em, events) {
      return events.map((e) => (e.streamType === 'vault' && e.type === 'AccountOpened' ? { ...e, data: { owner: openName((e.data as { owner: string }).owner) } } as StoredEvent : e));
    },
  };
  const seen: Projection = {
    name: 'seen_owners',
    handles: ['AccountOpened'],
    async apply(em, events) {
      for (const e of events) await em.execute('insert into side_effects (id) values (?)', [`seen:${e.streamId}:${(e.data as { owner: string }).owner}`]);
    },
    async reset() {},
  };
  const sealedStore = () => new EventStore({ publish: (e) => ({ subject: 'identity.vault.opened.v1', data: e.data }), inlineProjections: [seen], sealing });

  afterEach(() => {
    sealing.refuse = false;
    sealing.failAfter = false;
  });

  it('stores and publishes the sealed event; the result, projections and reads see it in the clear', async () => {
    const streamId = newStream('vault');
    const vault = sealedStore();
    const { events } = await inTx((em) => vault.appendToStream(em, streamId, 'vault', 'no_stream', [opened('Maya')]));
    expect(events[0]!.data).toEqual({ owner: 'Maya' });
    const [row] = await db.orm.em.fork().execute<{ data: unknown }[]>('select data from events where stream_id = ?', [streamId]);
    expect(row!.data).toEqual({ owner: 'sealed:ayaM' });
    expect(await count(`select count(*) from outbox o join events e using (event_id) where e.stream_id = ? and o.payload::text like '%Maya%'`, [streamId])).toBe(0);
    expect(await count(`select count(*) from side_effects where id in (?, ?)`, [`seen:${streamId}:Maya`, `after:${streamId}`])).toBe(2);
    expect((await vault.readStream(db.orm.em.fork(), streamId)).events[0]!.data).toEqual({ owner: 'Maya' });
    const all = await vault.readAll(db.orm.em.fork(), '0', 100_000, ['vault']);
    expect(all.find((e) => e.streamId === streamId)!.data).toEqual({ owner: 'Maya' });
  });

  it('appends nothing when sealing refuses (a lost key race), and rolls back when afterAppend fails', async () => {
    const vault = sealedStore();
    const refused = newStream('vault');
    sealing.refuse = true;
    await expect(inTx((em) => vault.appendToStream(em, refused, 'vault', 'no_stream', [opened('Ana')]))).rejects.toBeInstanceOf(ConcurrencyError);
    sealing.refuse = false;
    const failing = newStream('vault');
    sealing.failAfter = true;
    await expect(vault.appendToStream(db.orm.em.fork(), failing, 'vault', 'no_stream', [opened('Ben')])).rejects.toThrow('key could not be destroyed');
    for (const streamId of [refused, failing]) {
      expect(await count('select count(*) from events where stream_id = ?', [streamId])).toBe(0);
      expect(await count(`select count(*) from side_effects where id = ? or id like ?`, [`after:${streamId}`, `seen:${streamId}:%`])).toBe(0);
    }
  });
});
