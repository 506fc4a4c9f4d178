import type { EntityManager } from '@mikro-orm/postgresql';
import { foldEvents, type Decider } from './decider.js';
import type { EventStore } from './event-store.js';
import type { DomainEvent } from './types.js';

export interface AggregatedStream<State> {
  state: State;
  /** The number of events read: the version an append after this read expects. */
  version: number;
}

/**
 * A stream's current state: its events read (on the caller's EntityManager, so inside the caller's
 * transaction when there is one) and folded with the decider's evolve, which types each one as the
 * event it decided (a stored event is that event plus its envelope).
 */
export async function aggregateStream<State, Event extends DomainEvent>(
  em: EntityManager,
  store: Pick<EventStore, 'readStream'>,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  streamId: string,
): Promise<AggregatedStream<State>> {
  const { events, version } = await store.readStream<Event>(em, streamId);
  return { state: foldEvents(decider, events), version };
}
