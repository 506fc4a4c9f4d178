import type { MikroORM } from '@mikro-orm/postgresql';
import { handleCommand, type Decider, type DomainEvent, type EventMetadata, type EventStore } from '@lv/platform/event-store';

export interface StreamRef {
  streamId: string;
  streamType: string;
}

/** How the use cases change a stream: load it, decide, append (the read models follow in the same commit). */
export interface StreamCommands {
  /**
   * `alongside` runs inside the append's transaction, before its commit (a job queued with the events),
   * given the ids of the events it appends: new on every attempt, so a job named by one is this attempt's.
   */
  run<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>, stream: StreamRef, command: Command, metadata: EventMetadata, alongside?: (eventIds: string[]) => Promise<void>,
  ): Promise<void>;
}

/** access-keys' event store, with its inline projections. */
export class EventStoreCommands implements StreamCommands {
  constructor(private readonly orm: MikroORM, private readonly store: EventStore) {}

  async run<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>, stream: StreamRef, command: Command, metadata: EventMetadata, alongside?: (eventIds: string[]) => Promise<void>,
  ): Promise<void> {
    const alsoInTransaction = alongside && ((_em: unknown, events: readonly { eventId: string }[]) => alongside(events.map((e) => e.eventId)));
    await handleCommand(this.orm.em, this.store, decider, command, { ...stream, metadata, ...(alsoInTransaction ? { alsoInTransaction } : {}) });
  }
}
