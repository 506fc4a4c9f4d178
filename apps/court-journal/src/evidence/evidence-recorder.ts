import type { MikroORM } from '@mikro-orm/postgresql';
import type { EvidenceFacts } from '@lv/evidence';
import type { EventMetadata } from '@lv/platform/event-store';
import { CourtDocumentsRepository, type CourtDocumentsReadModel } from '../documents/court-documents.repository.js';
import type { EvidenceChain } from './evidence-chain.js';

/** Adds an entry to an owner's chain on its own (a view, an export), not with a document's events. */
export interface EvidenceRecorder {
  /**
   * `guard` runs where the append is made, seeing the documents as it does, and refuses the entry by
   * throwing (a view of a document deleted meanwhile is never chained).
   */
  record(ownerId: string, facts: EvidenceFacts, metadata: EventMetadata, guard?: (documents: CourtDocumentsReadModel) => Promise<void>): Promise<void>;
}

/** The chain in Postgres: the guard reads in the append's transaction, run again on every retry. */
export function chainRecorder(orm: MikroORM, chain: EvidenceChain): EvidenceRecorder {
  return {
    async record(ownerId, facts, metadata, guard) {
      await chain.append(orm, ownerId, facts, metadata, guard && ((em) => guard(CourtDocumentsRepository.in(em))));
    },
  };
}
