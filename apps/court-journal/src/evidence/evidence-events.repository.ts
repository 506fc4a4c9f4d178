import type { EntityManager } from '@mikro-orm/postgresql';
import type { SignedEvidenceHead } from '@lv/contracts';
import type { EvidenceEntry } from '@lv/evidence';

/** An owner's evidence chain is the stream `evidence-{ownerId}`, one EvidenceEntryAppended per entry. */
export const EVIDENCE_STREAM_TYPE = 'evidence';
export const evidenceStreamId = (ownerId: string) => `evidence-${ownerId}`;

export type EvidenceEvent = { type: 'EvidenceEntryAppended'; data: { ownerId: string; entry: EvidenceEntry; head: SignedEvidenceHead } };

/**
 * The chain's reads on the events table (appends go through the event store). Each takes the
 * EntityManager to read in: the append's transaction when the version read must hold until it commits.
 */
export class EvidenceEvents {
  /** The chain's last event and its version in the stream; null for an empty chain. Only that event is read. */
  async last(em: EntityManager, ownerId: string): Promise<{ version: number; data: EvidenceEvent['data'] } | null> {
    const [row] = await em.execute<{ version: number; data: EvidenceEvent['data'] }[]>(
      `select version, data from events where stream_id = ? order by version desc limit 1`,
      [evidenceStreamId(ownerId)],
    );
    return row ?? null;
  }

  /** Every event of the chain, first to last. */
  async all(em: EntityManager, ownerId: string): Promise<EvidenceEvent['data'][]> {
    const rows = await em.execute<{ data: EvidenceEvent['data'] }[]>(`select data from events where stream_id = ? order by version`, [evidenceStreamId(ownerId)]);
    return rows.map((r) => r.data);
  }
}
