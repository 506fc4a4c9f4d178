import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { PublishedEvent } from '@lv/contracts';
import { ConcurrencyError } from '../errors/index.js';
import { currentTrace, type TraceContext } from '../logging/trace-context.js';
import type { AppendResult, DomainEvent, EventMetadata, ExpectedVersion, PublishPolicy, StoredEvent } from './types.js';
import type { Projection } from './projection.js';
import { queryInOneTransaction, toBoundStatement, type BoundStatement } from './pipelined-query.js';

interface EventRow {
  global_position: string;
  event_id: string;
  stream_id: string;
  stream_type: string;
  version: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  occurred_at: Date | string;
}

const toStoredEvent = (row: EventRow): StoredEvent => ({
  eventId: row.event_id,
  streamId: row.stream_id,
  streamType: row.stream_type,
  version: row.version,
  globalPosition: String(row.global_position),
  type: row.type,
  data: row.data,
  metadata: row.metadata ?? {},
  occurredAt: new Date(row.occurred_at),
});

// Positions are bigint: read as text so events stay JSON-safe (BigInt does not serialise).
const EVENT_COLUMNS = `e.global_position::text as global_position, e.event_id, e.stream_id, e.stream_type, e.version, e.type, e.data, e.metadata, e.occurred_at`;

/** How often an 'any' append retries a lost race before giving up with a ConcurrencyError. */
const ANY_VERSION_ATTEMPTS = 20;

/**
 * Only the (stream_id, version) guard means "someone else appended first". Any other unique
 * violation (a duplicate event id in events or outbox) is a real error, not a conflict to retry.
 */
function isStreamVersionConflict(error: unknown): boolean {
  const { code, constraint, table, column } = error as { code?: string; constraint?: string; table?: string; column?: string };
  if (code === '23505') return constraint === undefined || constraint === 'events_stream_id_version_key';
  // The one-round-trip append names no version when the stream is not at the expected one (see APPEND).
  return code === '23502' && table === 'events' && column === 'version';
}

/**
 * The append: events and their outbox rows in one statement. Both inserts select in event order:
 * global positions and outbox ids (the relay's publish order) then follow the versions. The version
 * guard (the stream is at the expected version) is either a filter (nothing is inserted, and the
 * caller sees fewer rows than events) or, for appends sent with other statements, a null version
 * that the not-null column refuses: the statement fails, and so does everything sent with it.
 */
const appendStatement = (guard: 'filter' | 'fail') => `
      with cur as (select coalesce(max(version), 0) as v from events where stream_id = ?),
           incoming as (
             select * from jsonb_to_recordset(?::jsonb)
               as x(event_id uuid, ord int, type text, data jsonb, subject text, payload jsonb)),
           ins as (
             insert into events (event_id, stream_id, stream_type, version, type, data, metadata, occurred_at)
             select n.event_id, ?, ?, ${guard === 'fail' ? 'case when cur.v = ?::int then cur.v + n.ord end' : 'cur.v + n.ord'},
                    n.type, coalesce(n.data, 'null'::jsonb), ?::jsonb, ?::timestamptz
               from incoming n, cur
              ${guard === 'filter' ? 'where ?::int is null or cur.v = ?::int' : ''}
              order by n.ord
             returning global_position, event_id, version),
           outgoing as (
             insert into outbox (event_id, subject, payload)
             select n.event_id, n.subject, n.payload || jsonb_build_object('version', i.version)
               from incoming n join ins i using (event_id)
              where n.subject is not null
              order by n.ord)
      select global_position::text as global_position, event_id, version from ins order by version`;
const APPEND_IN_TRANSACTION = appendStatement('filter');
const APPEND_ALONE = appendStatement('fail');
const APPEND_ALONE_BOUND = toBoundStatement(APPEND_ALONE, Array.from({ length: 7 }, () => null))!.text;

type InsertedRow = { global_position: string; event_id: string; version: number };

/**
 * Stands in for the EntityManager while a write-only projection runs: each statement is kept, to be
 * sent with the append. Anything but execute() fails, before anything is sent.
 */
function recordingEntityManager(statements: { sql: string; params: readonly unknown[] }[]): EntityManager {
  const recorder = {
    execute(sql: unknown, params: readonly unknown[] = []) {
      if (typeof sql !== 'string' || !Array.isArray(params)) throw new Error('A write-only projection must call execute(sql, params[])');
      statements.push({ sql, params });
      return Promise.resolve([]);
    },
  };
  return recorder as unknown as EntityManager;
}

/**
 * Keeps words out of the events table: events are sealed before they are stored and opened when read
 * back (letters seal each stream's words under a key of its own, and shred the stream by destroying
 * the key). Every method runs in the caller's transaction. Deciders, inline projections and the
 * append's result see the events in the clear; the publish policy sees them sealed.
 */
export interface EventSealing {
  /**
   * The events as they are to be stored. May create or check keys; throwing a ConcurrencyError
   * (a concurrent first write holds the key, or the stream was shredded since it was read) makes
   * the command be decided again.
   */
  seal(em: EntityManager, stream: { streamId: string; streamType: string; expectedVersion: ExpectedVersion }, events: readonly DomainEvent[]): Promise<readonly DomainEvent[]>;
  /** Runs after the sealed events are stored, in the same transaction (destroying a shredded stream's key). */
  afterAppend?(em: EntityManager, stream: { streamId: string; streamType: string }, events: readonly DomainEvent[]): Promise<void>;
  /** The stored events opened again (in the clear, or without their words when the key is gone). */
  unseal(em: EntityManager, events: readonly StoredEvent[]): Promise<StoredEvent[]>;
}

/**
 * The EntityManager a write-only projection gets inside a transaction: plain values are sent as bound
 * parameters (a batch's JSON then travels as a parameter, not as a literal that MikroORM escapes and
 * PostgreSQL lexes: measured at about half the time of em.execute for a rebuild's batches of 1000
 * rows). Anything binding could read differently (arrays, dates, objects, `??` identifiers, `\?`)
 * goes through em.execute.
 */
export function bindingEntityManager(em: EntityManager): EntityManager {
  const binder = {
    async execute(sql: unknown, params: readonly unknown[] = []) {
      if (typeof sql !== 'string' || !Array.isArray(params)) throw new Error('A write-only projection must call execute(sql, params[])');
      const bound = toBoundStatement(sql, params);
      if (!bound) return em.execute(sql, params as unknown[]);
      // The shape Kysely compiles a raw query to; getKysely() is bound to em's transaction.
      const compiled = { sql: bound.text, parameters: bound.values, query: { kind: 'RawNode', sqlFragments: [bound.text], parameters: [] }, queryId: { queryId: 'lv-bound' } };
      const result = await em.getKysely().executeQuery(compiled as unknown as Parameters<ReturnType<EntityManager['getKysely']>['executeQuery']>[0]);
      return result.rows;
    },
  };
  return binder as unknown as EntityManager;
}

export interface EventStoreOptions {
  /** Which events leave the service, on which subject, with what payload. */
  publish: PublishPolicy;
  /** Read models updated in the same transaction as every append. */
  inlineProjections?: Projection[];
  /** Seals events before they are stored and opens them when read (see EventSealing). */
  sealing?: EventSealing;
}

/**
 * The request (or event) being handled names the events it causes: its correlation id, and the
 * event that caused it, unless the caller stated them itself.
 */
export function withTraceIds(metadata: EventMetadata, trace: TraceContext | undefined = currentTrace()): EventMetadata {
  if (!trace) return metadata;
  return {
    ...metadata,
    ...(metadata.correlationId === undefined && { correlationId: trace.correlationId }),
    ...(metadata.causationId === undefined && trace.causationId !== undefined && { causationId: trace.causationId }),
  };
}

/**
 * The event store of one service, on its own PostgreSQL database. Every method takes the
 * EntityManager of the caller's transaction so events, outbox rows and inline projections commit
 * (or roll back) together.
 */
export class EventStore {
  constructor(private readonly options: EventStoreOptions) {}

  get inlineProjections(): Projection[] {
    return this.options.inlineProjections ?? [];
  }

  /** Whether events are sealed: sealing reads and writes keys in the append's transaction. */
  get sealsEvents(): boolean {
    return this.options.sealing !== undefined;
  }

  async readStream<E extends DomainEvent = DomainEvent>(em: EntityManager, streamId: string): Promise<{ events: StoredEvent<E>[]; version: number }> {
    const rows = await em.execute<EventRow[]>(
      `select ${EVENT_COLUMNS} from events e where e.stream_id = ? order by e.version`,
      [streamId],
    );
    const stored = rows.map(toStoredEvent);
    const events = (this.options.sealing ? await this.options.sealing.unseal(em, stored) : stored) as StoredEvent<E>[];
    return { events, version: events.at(-1)?.version ?? 0 };
  }

  /** Reads the whole store in global order, for rebuilds and catch-up. */
  async readAll(em: EntityManager, afterPosition: string, limit: number, streamTypes?: string[]): Promise<StoredEvent[]> {
    // Stream types travel as a JSON array: an array literal would split a type on commas or quotes.
    const filter = streamTypes?.length ? `and e.stream_type in (select jsonb_array_elements_text(?::jsonb))` : '';
    const params: unknown[] = [afterPosition];
    if (streamTypes?.length) params.push(JSON.stringify(streamTypes));
    params.push(limit);
    // Order by the bigint column, qualified: a bare `global_position` would name the ::text output
    // column and sort '10' before '9', and paging by `> last` would then skip events.
    const rows = await em.execute<EventRow[]>(
      `select ${EVENT_COLUMNS} from events e where e.global_position > ?::bigint ${filter} order by e.global_position limit ?`,
      params,
    );
    const events = rows.map(toStoredEvent);
    return this.options.sealing ? this.options.sealing.unseal(em, events) : events;
  }

  /**
   * Appends events to a stream in one statement, together with their outbox rows. The statement
   * inserts nothing unless the stream is at `expectedVersion`, and `unique (stream_id, version)`
   * settles races between writers that read the same version: exactly one wins, the others get a
   * ConcurrencyError. 'any' never conflicts: such appends to one stream queue on an advisory lock
   * and land at the end of the stream. Given an EntityManager outside a transaction, it opens its
   * own, so events, outbox rows and inline projections still commit together: in one round trip
   * when it can (see appendAlone), else in a MikroORM transaction.
   */
  async appendToStream<E extends DomainEvent>(
    em: EntityManager,
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: readonly E[],
    metadata: EventMetadata = {},
  ): Promise<AppendResult<E>> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    metadata = withTraceIds(metadata);
    if (!em.isInTransaction()) {
      if (expectedVersion !== 'any' && this.canAppendAlone(events)) return this.appendAlone(em, streamId, streamType, expectedVersion, events, metadata);
      return em.transactional((tem) => this.appendToStream(tem, streamId, streamType, expectedVersion, events, metadata));
    }
    const sealing = this.options.sealing;
    // What reaches the events table (and the publish policy); projections and the result keep `events`.
    const toStore = sealing ? await sealing.seal(em, { streamId, streamType, expectedVersion }, events) : events;
    const occurredAt = new Date();
    const { params, expected } = this.appendParams(streamId, streamType, expectedVersion, toStore, metadata, occurredAt);

    // 'any' writers to one stream take turns (until commit) instead of racing for the next version:
    // the statement after the lock sees the previous writer's committed events. Writers with an
    // explicit version do not take the lock, so a lost race is still possible and retried below.
    if (expected === null) await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`lv-stream:${streamId}`]);

    let rows: InsertedRow[];
    for (let attempt = 1; ; attempt++) {
      // A failed statement aborts the whole transaction; a savepoint keeps it usable for the retry.
      const retryable = expected === null && attempt < ANY_VERSION_ATTEMPTS;
      if (retryable) await em.execute('savepoint lv_append_any');
      try {
        rows = await em.execute(APPEND_IN_TRANSACTION, params);
        if (retryable) await em.execute('release savepoint lv_append_any');
        break;
      } catch (error) {
        if (!isStreamVersionConflict(error)) throw error;
        if (!retryable) throw new ConcurrencyError(streamId, expectedVersion);
        // READ COMMITTED: the next attempt's statement sees the winner's events and appends after them.
        await em.execute('rollback to savepoint lv_append_any');
      }
    }
    if (rows.length !== events.length) throw new ConcurrencyError(streamId, expectedVersion);
    await sealing?.afterAppend?.(em, { streamId, streamType }, events);

    const stored = this.toStored(rows, streamId, streamType, events, metadata, occurredAt);
    for (const projection of this.inlineProjections) {
      const relevant = stored.filter((e) => projection.handles.includes(e.type));
      if (relevant.length) await projection.apply(projection.writeOnly ? bindingEntityManager(em) : em, relevant);
    }
    return { nextExpectedVersion: stored.at(-1)!.version, events: stored };
  }

  /**
   * One round trip needs the versions before the append runs (an explicit expected version), nothing
   * to read in between (no sealing), and projections that only write.
   */
  private canAppendAlone(events: readonly DomainEvent[]): boolean {
    if (this.options.sealing) return false;
    return this.inlineProjections.every((p) => p.writeOnly === true || !events.some((e) => p.handles.includes(e.type)));
  }

  /**
   * The append with the store's own transaction, in one round trip: the append statement and the
   * write-only projections' statements go to PostgreSQL together, which runs them as one implicit
   * transaction (all of it commits, or none). The projections see the versions the append will give
   * (expected + 1, + 2...), so the append must fail, not insert nothing, when the stream is
   * elsewhere: APPEND_ALONE then names no version, and the whole round trip rolls back.
   * It runs on a connection of MikroORM's own pool, with bound parameters and statements prepared
   * once per connection (see queryInOneTransaction); a projection statement whose parameters binding
   * could read differently sends everything as one multi-statement text query, formatted as
   * em.execute would.
   */
  private async appendAlone<E extends DomainEvent>(
    em: EntityManager,
    streamId: string,
    streamType: string,
    expectedVersion: number | 'no_stream',
    events: readonly E[],
    metadata: EventMetadata,
  ): Promise<AppendResult<E>> {
    const occurredAt = new Date();
    const { params, expected, eventIds } = this.appendParams(streamId, streamType, expectedVersion, events, metadata, occurredAt);
    // Until the append runs, a position is not known: write-only projections must not need one.
    const predicted = this.toStored(
      eventIds.map((eventId, index) => ({ global_position: '', event_id: eventId, version: (expected ?? 0) + index + 1 })),
      streamId, streamType, events, metadata, occurredAt,
    );
    const recorded: { sql: string; params: readonly unknown[] }[] = [];
    const recorder = recordingEntityManager(recorded);
    for (const projection of this.inlineProjections) {
      const relevant = predicted.filter((e) => projection.handles.includes(e.type));
      if (relevant.length) await projection.apply(recorder, relevant);
    }
    const appendValues = [...params.slice(0, 4), expected, ...params.slice(4, 6)] as (string | number | null)[];
    const bound = recorded.map((r) => toBoundStatement(r.sql, r.params));
    const pool = (await (em.getConnection() as PostgreSqlConnection).getNativeClient()) as unknown as pg.Pool;
    let rows: InsertedRow[];
    try {
      if (bound.every((b) => b !== null)) {
        const append = { text: APPEND_ALONE_BOUND, values: appendValues.map((v) => (v === null ? null : String(v))) };
        [rows] = (await queryInOneTransaction<InsertedRow>(pool, [append, ...(bound as BoundStatement[])])) as [InsertedRow[]];
      } else {
        const platform = em.getPlatform();
        const text = [APPEND_ALONE, ...recorded.map((r) => r.sql)].map((sql, i) => platform.formatQuery(sql, i === 0 ? appendValues : [...recorded[i - 1]!.params])).join(';\n');
        const results = await pool.query<InsertedRow>(text);
        // One statement gives one result; several give an array of them, the append's first.
        rows = (Array.isArray(results) ? (results[0] as typeof results) : results).rows;
      }
    } catch (error) {
      if (isStreamVersionConflict(error)) throw new ConcurrencyError(streamId, expectedVersion);
      throw em.getPlatform().getExceptionConverter().convertException(error as Error);
    }
    // The guard makes a short insert impossible; had one happened, it is committed: say so loudly.
    if (rows.length !== events.length) throw new Error(`append to ${streamId} stored ${rows.length} of ${events.length} events`);
    const stored = this.toStored(rows, streamId, streamType, events, metadata, occurredAt);
    return { nextExpectedVersion: stored.at(-1)!.version, events: stored };
  }

  /** The append statement's parameters (APPEND_IN_TRANSACTION's order), with new event ids; expected is null for 'any'. */
  private appendParams(streamId: string, streamType: string, expectedVersion: ExpectedVersion, toStore: readonly DomainEvent[], metadata: EventMetadata, occurredAt: Date) {
    const pending = toStore.map((event, index) => {
      const eventId = randomUUID();
      const draft: StoredEvent = {
        eventId, streamId, streamType, version: 0, globalPosition: '', type: event.type, data: event.data, metadata, occurredAt,
      };
      const published = this.options.publish(draft);
      const payload: Omit<PublishedEvent, 'version'> | null = published
        ? { eventId, type: event.type, streamId, occurredAt: occurredAt.toISOString(), data: published.data, metadata }
        : null;
      return { event_id: eventId, ord: index + 1, type: event.type, data: event.data, subject: published?.subject ?? null, payload };
    });
    const expected = expectedVersion === 'any' ? null : expectedVersion === 'no_stream' ? 0 : expectedVersion;
    const params = [streamId, JSON.stringify(pending), streamId, streamType, JSON.stringify(metadata), occurredAt.toISOString(), expected, expected];
    return { params, expected, eventIds: pending.map((p) => p.event_id) };
  }

  /** The inserted rows as events; projections and the result see `events` (in the clear), not what was stored. */
  private toStored<E extends DomainEvent>(rows: readonly InsertedRow[], streamId: string, streamType: string, events: readonly E[], metadata: EventMetadata, occurredAt: Date): StoredEvent<E>[] {
    return rows.map((row, index) => {
      const stored: StoredEvent = {
        eventId: row.event_id,
        streamId,
        streamType,
        version: row.version,
        globalPosition: String(row.global_position),
        type: events[index]!.type,
        data: events[index]!.data,
        metadata,
        occurredAt,
      };
      // Row `index` stored events[index]: its type and data are that event's, so the envelope carries an E.
      return stored as StoredEvent<E>;
    });
  }

  /**
   * Replaces a stream's event payloads in place (crypto-shredding's cheaper cousin): used when the
   * law or the user requires words to be gone, while the fact that events happened stays.
   */
  async redactStream(em: EntityManager, streamId: string, redact: (event: StoredEvent) => unknown): Promise<number> {
    if (!em.isInTransaction()) return em.transactional((tem) => this.redactStream(tem, streamId, redact));
    const { events } = await this.readStream(em, streamId);
    for (const event of events) {
      await em.execute('update events set data = ?::jsonb where event_id = ?', [JSON.stringify(redact(event)), event.eventId]);
    }
    await em.execute(
      `update outbox set payload = jsonb_set(payload, '{data}', '{}'::jsonb) where event_id = any(?::uuid[])`,
      [`{${events.map((e) => e.eventId).join(',')}}`],
    );
    return events.length;
  }
}
