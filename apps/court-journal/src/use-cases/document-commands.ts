import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { handleCommand, type EventMetadata, type EventStore, type StoredEvent } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { COURT_DOCUMENT_STREAM_TYPE, courtDocumentDecider, courtDocumentStreamId, type CourtDocumentCommand } from '../documents/court-document.decider.js';
import type { CourtDocumentsReadModel } from '../documents/court-documents.repository.js';
import type { EvidenceChain } from '../evidence/evidence-chain.js';
import type { CourtUploads } from '../uploads/court-uploads.repository.js';
import type { ObjectRemovals } from './object-removals.js';

/** What a use case that writes to documents' streams works with. */
export interface DocumentWriteDeps {
  orm: MikroORM;
  store: EventStore;
  evidence: EvidenceChain;
  documents: CourtDocumentsReadModel;
  uploads: CourtUploads;
  removals: ObjectRemovals;
  logger: Logger;
  now: () => number;
}

/**
 * Runs a command on a document's stream; `alsoInTransaction` commits with its events (the chain's
 * entry, a ticket closed, a removal queued) and runs only when the decider decided some.
 */
export function executeDocumentCommand(
  orm: MikroORM,
  store: EventStore,
  command: CourtDocumentCommand,
  metadata: EventMetadata,
  alsoInTransaction?: (em: EntityManager, events: StoredEvent[]) => Promise<void>,
) {
  return handleCommand(orm.em, store, courtDocumentDecider, command, { streamId: courtDocumentStreamId(command.documentId), streamType: COURT_DOCUMENT_STREAM_TYPE, metadata, alsoInTransaction });
}
