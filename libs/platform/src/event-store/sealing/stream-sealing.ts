import type { EntityManager } from '@mikro-orm/postgresql';
import { ConcurrencyError } from '../../errors/index.js';
import type { EventSealing } from '../event-store.js';
import type { DomainEvent, ExpectedVersion, StoredEvent } from '../types.js';
import type { DataKeys } from './data-keys.js';

/**
 * How one kind of stream ('letter', 'recording') keeps its words sealed under a key of its own.
 * The decider sees the words in the clear; the events table only ever holds them sealed.
 * `Plain` is what the stream's decider appends, `Sealed` what the events table holds of it, and
 * `Opened` what a read gives back (the words null once the key is gone). The store itself keeps
 * rows of any shape: `typedSealing` hands a typed sealing to it.
 */
export interface StreamSealing<Plain extends DomainEvent = DomainEvent, Sealed extends DomainEvent = DomainEvent, Opened extends DomainEvent = Plain> {
  readonly streamType: string;
  readonly keys: DataKeys;
  /** The key's id of a stream (a letter id, a recording id). */
  keyIdOf(streamId: string): string;
  /**
   * What an append of these events needs: 'new' creates the stream's key (one already there means a
   * concurrent first write won: conflict, and the command is decided again); 'existing' needs the key
   * (gone means the stream was shredded since it was read: conflict); 'ensure' creates it when
   * missing; 'none' seals nothing.
   */
  keyNeed: (events: readonly Plain[]) => 'new' | 'existing' | 'ensure' | 'none';
  /** Whether the append shreds the stream: its key is destroyed after the events are stored. */
  shreds: (events: readonly Plain[]) => boolean;
  /** The event as stored: its words sealed (`key` is null only when keyNeed said 'none'). */
  seal: (event: Plain, key: Buffer | null, keyId: string) => Sealed;
  /** The stored event with its words opened, or with null words when the key is gone. */
  open: (event: StoredEvent<Sealed>, key: Buffer | null, keyId: string) => StoredEvent<Opened>;
}

/**
 * A stream type's typed sealing, as the store takes it. The store hands a sealing only the events of
 * its own stream type: appends of that type come from the stream's decider (`Plain`), and its rows in
 * the events table were written by this sealing's `seal` (`Sealed`). So the one narrowing from the
 * store's rows to the stream's events happens here, once, instead of a cast in each sealing.
 */
export function typedSealing<Plain extends DomainEvent, Sealed extends DomainEvent, Opened extends DomainEvent = Plain>(sealing: StreamSealing<Plain, Sealed, Opened>): StreamSealing {
  const plain = (events: readonly DomainEvent[]) => events as readonly Plain[];
  return {
    streamType: sealing.streamType,
    keys: sealing.keys,
    keyIdOf: (streamId) => sealing.keyIdOf(streamId),
    keyNeed: (events) => sealing.keyNeed(plain(events)),
    shreds: (events) => sealing.shreds(plain(events)),
    seal: (event, key, keyId) => sealing.seal(event as Plain, key, keyId),
    open: (event, key, keyId) => sealing.open(event as StoredEvent<Sealed>, key, keyId),
  };
}

/**
 * A sealing hook for the EventStore (letters, vault-media): the words of each sealed stream
 * encrypted under that stream's own key (AES-256-GCM, see sealing/sealed-text.ts).
 *
 * - seal creates or checks the key before the events reach the events table, and afterAppend
 *   destroys it when the events shred the stream, all in the append's transaction; the read models
 *   are updated from the events with the words in the clear.
 * - unseal opens the words again; a stream whose key was destroyed comes back with its facts and
 *   null words, so history keeps what happened and rebuilds skip the words.
 *
 * Streams of other types pass through untouched.
 */
export class PerStreamSealing implements EventSealing {
  private readonly sealings: ReadonlyMap<string, StreamSealing>;

  constructor(sealings: readonly StreamSealing[]) {
    this.sealings = new Map(sealings.map((s) => [s.streamType, s]));
  }

  async seal(em: EntityManager, stream: { streamId: string; streamType: string; expectedVersion: ExpectedVersion }, events: readonly DomainEvent[]): Promise<readonly DomainEvent[]> {
    const sealing = this.sealings.get(stream.streamType);
    if (!sealing) return events;
    const keyId = sealing.keyIdOf(stream.streamId);
    let key: Buffer | null = null;
    switch (sealing.keyNeed(events)) {
      case 'new':
        // Created before the events: a concurrent first write of the same stream already holds
        // the key, and the retry of this command will see its events.
        key = await sealing.keys.create(em, keyId);
        if (!key) throw new ConcurrencyError(stream.streamId, stream.expectedVersion);
        break;
      case 'existing':
        key = await sealing.keys.find(em, keyId);
        if (!key) throw new ConcurrencyError(stream.streamId, stream.expectedVersion);
        break;
      case 'ensure':
        key = await sealing.keys.findOrCreate(em, keyId);
        if (!key) throw new ConcurrencyError(stream.streamId, stream.expectedVersion);
        break;
      case 'none':
        break;
    }
    return events.map((e) => sealing.seal(e, key, keyId));
  }

  async afterAppend(em: EntityManager, stream: { streamId: string; streamType: string }, events: readonly DomainEvent[]): Promise<void> {
    const sealing = this.sealings.get(stream.streamType);
    if (!sealing?.shreds(events)) return;
    await this.destroyAndJournal(em, sealing, stream.streamType, stream.streamId);
  }

  /**
   * Erases a stream whose decider has no deletion (a reflection, a portrait, a story: the owner's
   * account is erased): its key destroyed and the erasure journaled, in `em`'s transaction, exactly
   * as a shredding append does. False for a stream type this store does not seal.
   */
  async erase(em: EntityManager, streamType: string, streamId: string): Promise<boolean> {
    const sealing = this.sealings.get(streamType);
    if (!sealing) return false;
    await this.destroyAndJournal(em, sealing, streamType, streamId);
    return true;
  }

  private async destroyAndJournal(em: EntityManager, sealing: StreamSealing, streamType: string, streamId: string): Promise<void> {
    const keyId = sealing.keyIdOf(streamId);
    await sealing.keys.destroy(em, keyId);
    // The erasure is journaled with it (ids and times only), so a restore of an older snapshot erases again.
    await em.execute('insert into erasure_journal (stream_type, stream_id, key_id) values (?, ?, ?)', [streamType, streamId, keyId]);
  }

  /** Destroys a stream's key again (an erasure replayed after a restore); false for a stream type this store does not seal. */
  async destroyKey(em: EntityManager, streamType: string, streamId: string): Promise<boolean> {
    const sealing = this.sealings.get(streamType);
    if (!sealing) return false;
    await sealing.keys.destroy(em, sealing.keyIdOf(streamId));
    return true;
  }

  async unseal(em: EntityManager, events: readonly StoredEvent[]): Promise<StoredEvent[]> {
    // One key lookup per stream type for the whole batch (rebuilds read 1,000 events at a time).
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
}
