import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { ErasureHandler, PerStreamSealing } from '@lv/platform/event-store';

/**
 * Erasure of a stream whose decider has no deletion (a reflection, a portrait, a story): when its
 * owner's account is erased, its key is destroyed and journaled (PerStreamSealing.erase) and its
 * read-model row, the only place its words are in the clear, deleted, in one transaction. After a
 * restore of an older snapshot the journal's replay deletes the row again (the replay destroys the
 * key itself). A rebuild later finds the events' words gone and writes no row back.
 */
export interface StreamErasure {
  /** Erases one stream (the caller found it alive: a key or a row); true when it had a row. */
  erase(streamId: string): Promise<boolean>;
  readonly handler: ErasureHandler;
}

export function streamErasure(options: {
  orm: MikroORM;
  sealing: PerStreamSealing;
  streamType: string;
  /** The read model's table and the column its row is found by, with that column's value for a stream. */
  readModel: { table: string; idColumn: string; idOf: (streamId: string) => string };
}): StreamErasure {
  const { orm, sealing, streamType, readModel } = options;
  const deleteRow = async (em: EntityManager, streamId: string) =>
    (await em.execute<unknown[]>(`delete from "${readModel.table}" where "${readModel.idColumn}" = ? returning 1`, [readModel.idOf(streamId)])).length;
  return {
    erase: (streamId) => orm.em.fork().transactional(async (em) => {
      const deleted = await deleteRow(em, streamId);
      await sealing.erase(em, streamType, streamId);
      return deleted > 0;
    }),
    handler: { streamType, eraseAgain: async (streamId) => (await deleteRow(orm.em.fork(), streamId)) > 0 },
  };
}
