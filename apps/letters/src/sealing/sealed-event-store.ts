import type { EntityManager } from '@mikro-orm/postgresql';
import { ConcurrencyError } from '@lv/platform/errors';
import {
  EventStore, type AppendResult, type DomainEvent, type EventMetadata, type ExpectedVersion, type Projection, type PublishPolicy, type StoredEvent,
} from '@lv/platform/event-store';
import type { DataKeys } from './data-keys.js';

/**
 * How one kind of stream ('letter', 'reflection') keeps its words sealed under a key of its own.
 * The decider sees the words in the clear; the events table only ever holds them sealed.
 */
export interface StreamSealing {
  readonly streamType: string;
  readonly keys: DataKeys;
  /** The key's id of a stream (a letter id, a user id). */
  keyIdOf(streamId: string): string;
  /**
   * What an append of these events needs: 'new' creates the stream's key (one already there means a
   * concurrent first write won: conflict, and the command is decided again); 'existing' needs the key
   * (gone means the stream was shredded since it was read: conflict); 'ensure' creates it when
   * missing; 'none' seals nothing.
   */
  keyNeed(events: readonly DomainEvent[]): 'new' | 'existing' | 'ensure' | 'none';
  /** Whether the append shreds the stream: its key is destroyed after the events are stored. */
  shreds(events: readonly DomainEvent[]): boolean;
  /** The event as stored: its words sealed (`key` is null only when keyNeed said 'none'). */
  seal(event: DomainEvent, key: Buffer | null, keyId: string): DomainEvent;
  /** The stored event with its words opened, or with null words when the key is gone. */
  open(event: StoredEvent, key: Buffer | null, keyId: string): StoredEvent;
}

/**
 * The letters service's event store: the platform's EventStore with the words of each sealed stream
 * encrypted under that stream's own key (AES-256-GCM, see sealed-text.ts).
 *
 * - appendToStream seals before the events reach the events table, creates or checks the key first
 *   and destroys it when the events shred the stream, all in the append's transaction; the read
 *   models are then updated from the events with the words in the clear.
 * - readStream and readAll open the words again; a stream whose key was destroyed comes back with its
 *   facts and null words, so history keeps what happened and rebuilds skip the words.
 *
 * The publish policy sees only sealed events (and publishes no words anyway).
 */
export class SealedEventStore extends EventStore {
  private readonly sealings: ReadonlyMap<string, StreamSealing>;

  constructor(sealings: readonly StreamSealing[], publish: PublishPolicy, private readonly readModels: readonly Projection[]) {
    super({ publish, inlineProjections: [] });
    this.sealings = new Map(sealings.map((s) => [s.streamType, s]));
  }

  /** The read models kept in step with every append (and rebuilt from readAll). */
  get projections(): readonly Projection[] {
    return this.readModels;
  }

  override async readStream<E extends DomainEvent = DomainEvent>(em: EntityManager, streamId: string): Promise<{ events: StoredEvent<E>[]; version: number }> {
    const { events, version } = await super.readStream(em, streamId);
    const sealing = events[0] && this.sealings.get(events[0].streamType);
    if (!sealing) return { events: events as StoredEvent<E>[], version };
    const keyId = sealing.keyIdOf(streamId);
    const key = await sealing.keys.find(em, keyId);
    return { events: events.map((e) => sealing.open(e, key, keyId)) as StoredEvent<E>[], version };
  }

  override async readAll(em: EntityManager, afterPosition: string, limit: number, streamTypes?: string[]): Promise<StoredEvent[]> {
    const events = await super.readAll(em, afterPosition, limit, streamTypes);
    const keysByType = new Map<string, Map<string, Buffer>>();
    for (const [streamType, sealing] of this.sealings) {
      const ids = events.filter((e) => e.streamType === streamType).map((e) => sealing.keyIdOf(e.streamId));
      if (ids.length) keysByType.set(streamType, await sealing.keys.findMany(em, ids));
    }
    return events.map((e) => {
      const sealing = this.sealings.get(e.streamType);
      if (!sealing) return e;
      const keyId = sealing.keyIdOf(e.streamId);
      return sealing.open(e, keysByType.get(e.streamType)?.get(keyId) ?? null, keyId);
    });
  }

  override async appendToStream(
    em: EntityManager,
    streamId: string,
    streamType: string,
    expectedVersion: ExpectedVersion,
    events: readonly DomainEvent[],
    metadata: EventMetadata = {},
  ): Promise<AppendResult> {
    if (!em.isInTransaction()) return em.transactional((tem) => this.appendToStream(tem, streamId, streamType, expectedVersion, events, metadata));
    const sealing = this.sealings.get(streamType);
    let stored = events;
    if (sealing) {
      const keyId = sealing.keyIdOf(streamId);
      let key: Buffer | null = null;
      switch (sealing.keyNeed(events)) {
        case 'new':
          // Created before the events: a concurrent first write of the same stream already holds
          // the key, and the retry of this command will see its events.
          key = await sealing.keys.create(em, keyId);
          if (!key) throw new ConcurrencyError(streamId, expectedVersion);
          break;
        case 'existing':
          key = await sealing.keys.find(em, keyId);
          if (!key) throw new ConcurrencyError(streamId, expectedVersion);
          break;
        case 'ensure':
          key = await sealing.keys.findOrCreate(em, keyId);
          if (!key) throw new ConcurrencyError(streamId, expectedVersion);
          break;
        case 'none':
          break;
      }
      stored = events.map((e) => sealing.seal(e, key, keyId));
    }
    const result = await super.appendToStream(em, streamId, streamType, expectedVersion, stored, metadata);
    if (sealing?.shreds(events)) await sealing.keys.destroy(em, sealing.keyIdOf(streamId));
    const opened = result.events.map((e, i) => ({ ...e, data: events[i]!.data }) as StoredEvent);
    for (const projection of this.readModels) {
      const relevant = opened.filter((e) => projection.handles.includes(e.type));
      if (relevant.length) await projection.apply(em, relevant);
    }
    return { nextExpectedVersion: result.nextExpectedVersion, events: opened };
  }
}
