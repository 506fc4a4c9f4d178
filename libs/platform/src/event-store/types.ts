import type { EventMetadata } from '@lv/contracts';

export type { EventMetadata };

/** An event as a decider emits it: a type and its facts. */
export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

/** Where and when an event was stored. */
export interface EventEnvelope {
  eventId: string;
  streamId: string;
  streamType: string;
  version: number;
  /** Orders all events of a service's store; a string because PostgreSQL bigints exceed JSON numbers. */
  globalPosition: string;
  metadata: EventMetadata;
  occurredAt: Date;
}

/**
 * An event as the store keeps it. Distributes over a union of events, so narrowing on `type`
 * narrows `data` too.
 */
export type StoredEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent ? E & EventEnvelope : never;

/**
 * What an append expects the stream to be at: a version number (the number of events it holds),
 * 'no_stream' (must not exist yet), or 'any' (no check; only for streams without invariants).
 */
export type ExpectedVersion = number | 'no_stream' | 'any';

/** The events appended, as they were given (in the clear), with their envelopes. */
export interface AppendResult<E extends DomainEvent = DomainEvent> {
  nextExpectedVersion: number;
  events: StoredEvent<E>[];
}

/**
 * Maps an event to what leaves the service on JetStream. Returning null keeps the event private to
 * the service's own store (for example secrets, or a letter's words that other services never need).
 */
export type PublishPolicy = (event: StoredEvent) => { subject: string; data: unknown } | null;

/**
 * A service's publish policy, typed by the events its deciders append. The store keeps rows of any
 * shape, but a service's store only ever receives that service's events (appends go through its
 * deciders), so the one narrowing from a stored row to the service's union happens here, once.
 * Events the policy does not name fall to its `default` and stay private.
 */
export function publishPolicyFor<E extends DomainEvent>(policy: (event: StoredEvent<E>) => ReturnType<PublishPolicy>): PublishPolicy {
  return (stored) => policy(stored as StoredEvent<E>);
}
