import type { EntityManager } from '@mikro-orm/postgresql';
import type { DomainEvent, StoredEvent } from './types.js';
import { bindingEntityManager, type EventStore } from './event-store.js';

/**
 * A read model built from events. `apply` must be idempotent per event and must not read other read
 * models' state in ways that depend on timing; `reset` empties the read model before a rebuild.
 */
export interface Projection {
  readonly name: string;
  /** Event types this projection reads. */
  readonly handles: readonly string[];
  /**
   * `apply` only writes: it calls nothing but `em.execute(sql, params)` and reads no result back.
   * An append that commits on its own then sends these statements with its own, in one round trip
   * (each execute() resolves at once with no rows, before the append has run; the events carry
   * their versions and ids but no global position yet).
   */
  readonly writeOnly?: boolean;
  apply(em: EntityManager, events: readonly StoredEvent[]): Promise<void>;
  reset(em: EntityManager): Promise<void>;
}

/** A projection typed by the events it reads: `handles` names them, and `apply` gets them as they are. */
export interface ProjectionOf<E extends DomainEvent> extends Omit<Projection, 'handles' | 'apply'> {
  readonly handles: readonly E['type'][];
  apply(em: EntityManager, events: readonly StoredEvent<E>[]): Promise<void>;
}

/**
 * A typed projection, as the store takes it. The store hands a projection only the events whose type
 * it handles (appends and rebuilds filter on `handles`), and within a service an event type names one
 * shape, so the one narrowing from the store's events to the projection's happens here, once.
 */
export function projectionFor<E extends DomainEvent>(projection: ProjectionOf<E>): Projection {
  return { ...projection, apply: (em, events) => projection.apply(em, events as readonly StoredEvent<E>[]) };
}

export interface RebuildReport {
  projection: string;
  events: number;
  ms: number;
}

/**
 * Rebuilds read models from the store in one transaction: readers keep seeing the old read model
 * until the new one commits. Events are read in global order in batches, with a fresh identity map
 * per batch (STACK.md: a reused EntityManager crawls).
 *
 * Appends wait while a rebuild runs. Without that, an append committing mid-rebuild is lost to it:
 * its position may be below what the rebuild already read (positions become visible at commit, not
 * in order), and its inline projection's `update ... where id = ?` finds the row the reset deleted
 * and changes nothing. SHARE ROW EXCLUSIVE blocks inserts into events (and other rebuilds) but not
 * readers; it is taken after in-flight appends commit, so every committed event is then visible.
 */
export async function rebuildProjections(em: EntityManager, store: EventStore, projections: readonly Projection[], batchSize = 1000): Promise<RebuildReport[]> {
  return em.fork().transactional(async (tem) => {
    await tem.execute('lock table events in share row exclusive mode');
    const reports: RebuildReport[] = [];
    for (const projection of projections) {
      const started = Date.now();
      await projection.reset(tem);
      let after = '0';
      let count = 0;
      for (;;) {
        const batch = await store.readAll(tem, after, batchSize);
        if (batch.length === 0) break;
        const relevant = batch.filter((e) => projection.handles.includes(e.type));
        if (relevant.length) await projection.apply(projection.writeOnly ? bindingEntityManager(tem) : tem, relevant);
        count += relevant.length;
        after = batch.at(-1)!.globalPosition;
        tem.clear();
      }
      await tem.execute(
        `insert into projection_checkpoints (name, position, rebuilt_at) values (?, ?::bigint, now())
         on conflict (name) do update set position = excluded.position, rebuilt_at = excluded.rebuilt_at`,
        [projection.name, after],
      );
      reports.push({ projection: projection.name, events: count, ms: Date.now() - started });
    }
    return reports;
  });
}
