import type { EntityManager } from '@mikro-orm/postgresql';
import { isRetryableBeforeCommit } from '../database/transient-errors.js';
import { ConcurrencyError } from '../errors/index.js';
import { aggregateStream } from './aggregate-stream.js';
import type { Decider } from './decider.js';
import type { EventStore } from './event-store.js';
import type { DomainEvent, EventMetadata, ExpectedVersion, StoredEvent } from './types.js';

const DEFAULT_RETRIES = 10;
/** Upper bound of the random pause before a retry (full jitter, doubling from 2 ms). */
const RETRY_JITTER_CAP_MS = 50;
/** Pauses before re-running a transaction the database refused or rolled back itself (see isRetryableBeforeCommit). */
const UNAVAILABLE_RETRY_PAUSES_MS = [20, 100, 400];

export interface CommandOptions<Event extends DomainEvent = DomainEvent> {
  streamId: string;
  streamType: string;
  metadata?: EventMetadata;
  /**
   * The version the caller saw (for example a letter's version shown in an editor). When given, a
   * conflict is reported to the caller; when omitted (or 'any') the handler re-reads and re-decides
   * on a conflict, up to `retries` times.
   */
  expectedVersion?: ExpectedVersion;
  /** Re-decide attempts after a conflict when no version is expected (default 10). */
  retries?: number;
  /** Extra writes that must commit with the events (e.g. a credentials row). */
  alsoInTransaction?: (em: EntityManager, events: StoredEvent<Event>[]) => Promise<void>;
}

export interface CommandResult<State, Event extends DomainEvent = DomainEvent> {
  state: State;
  /** The events the decider decided, as appended (in the clear). */
  events: StoredEvent<Event>[];
  version: number;
}

/**
 * Load, decide, append: the one way a command changes a stream, on a forked EntityManager. Inline
 * projections and outbox rows commit with the events or not at all: the store commits the append on
 * its own (one round trip when the projections the events reach are write-only), after a read outside
 * any transaction; the append's version check makes that read as safe as one inside it. A store that
 * seals events, or writes that must commit with the events (alsoInTransaction), read and append in
 * one transaction instead.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  em: EntityManager,
  store: EventStore,
  decider: Decider<State, Command, Event>,
  command: Command,
  options: CommandOptions<Event>,
): Promise<CommandResult<State, Event>> {
  // Each round of N racing writers lets at least one through, so N writers can need N attempts:
  // the default covers the 8-way race with room to spare, and jitter spreads the retries out.
  const implicit = options.expectedVersion === undefined || options.expectedVersion === 'any';
  const attempts = implicit ? (options.retries ?? DEFAULT_RETRIES) + 1 : 1;
  const inTransaction = options.alsoInTransaction !== undefined || store.sealsEvents;
  return retryOnConflict(attempts, () => retryBeforeCommit(() => (inTransaction
    ? em.fork().transactional((tem) => decideAndAppend(tem, store, decider, command, options))
    : decideAndAppend(em.fork(), store, decider, command, options))));
}

/**
 * Runs `attempt` again, after a short pause, when the database refused the connection or rolled the
 * transaction back on its own (too many clients, a deadlock): nothing was committed, so it is the
 * retry the caller would make, without telling a parent "something went wrong" for a busy moment.
 */
export async function retryBeforeCommit<T>(attempt: () => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      const pause = UNAVAILABLE_RETRY_PAUSES_MS[round];
      if (pause === undefined || !isRetryableBeforeCommit(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
    }
  }
}

/**
 * One round of load, decide, append inside the caller's transaction: for a command that must commit
 * with other work (several streams at once, a row locked across a send). The caller retries on
 * ConcurrencyError (retryOnConflict) as handleCommand does. (handleCommand also runs it outside a
 * transaction; the store then commits the append on its own.)
 */
export async function decideAndAppend<State, Command, Event extends DomainEvent>(
  tem: EntityManager,
  store: EventStore,
  decider: Decider<State, Command, Event>,
  command: Command,
  options: Omit<CommandOptions<Event>, 'retries'>,
): Promise<CommandResult<State, Event>> {
  const { state, version } = await aggregateStream(tem, store, decider, options.streamId);
  if (options.expectedVersion !== undefined && options.expectedVersion !== 'any') {
    const expected = options.expectedVersion === 'no_stream' ? 0 : options.expectedVersion;
    if (expected !== version) throw new ConcurrencyError(options.streamId, options.expectedVersion);
  }
  const decided = decider.decide(command, state);
  if (decided.length === 0) return { state, events: [], version };
  const result = await store.appendToStream(tem, options.streamId, options.streamType, version, decided, options.metadata);
  await options.alsoInTransaction?.(tem, result.events);
  return { state: decided.reduce((s, e) => decider.evolve(s, e), state), events: result.events, version: result.nextExpectedVersion };
}

/**
 * Runs `attempt` up to `attempts` times while it loses races (ConcurrencyError), with a random pause
 * before each retry (full jitter, doubling from 2 ms). Any other error, or the last conflict, is thrown.
 */
export async function retryOnConflict<T>(attempts: number, attempt: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || round >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(RETRY_JITTER_CAP_MS, 2 ** round)));
    }
  }
}
