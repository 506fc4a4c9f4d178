import {
  CourtJournalEvents, type CourtDocumentDeletedV1, type CourtDocumentKeyEvidenceChangedV1, type CourtDocumentUploadedV1, type EvidenceHeadSignedV1,
} from '@lv/contracts';
import type { PublishPolicy } from '@lv/platform/event-store';
import type { CourtDocumentEvent } from './court-document.decider.js';
import type { EvidenceEvent } from '../evidence/evidence-chain.js';

/**
 * What other services (the timeline, the vault home) learn about court documents: that one was
 * filed, marked or deleted, in which category, how big, with which hash, by whom and when; and that an
 * owner's evidence chain moved on. Never a title, description or file name: JetStream keeps messages
 * for replay and cannot forget them; the timeline asks rpc.court-journal.titles when it renders.
 */
export const courtJournalPublishPolicy: PublishPolicy = (stored) => {
  const event = stored as unknown as CourtDocumentEvent | EvidenceEvent;
  switch (event.type) {
    case 'CourtDocumentUploaded': {
      const { documentId, ownerId, category, variant, size, sha256, uploadedAt } = event.data;
      return { subject: CourtJournalEvents.CourtDocumentUploaded, data: { documentId, ownerId, category, variant, size, sha256, uploadedAt } satisfies CourtDocumentUploadedV1 };
    }
    case 'CourtDocumentKeyEvidenceChanged': {
      const { documentId, ownerId, isKeyEvidence, changedAt } = event.data;
      return { subject: CourtJournalEvents.CourtDocumentKeyEvidenceChanged, data: { documentId, ownerId, isKeyEvidence, changedAt } satisfies CourtDocumentKeyEvidenceChangedV1 };
    }
    case 'CourtDocumentDeleted': {
      const { documentId, ownerId, sha256, deletedAt } = event.data;
      return { subject: CourtJournalEvents.CourtDocumentDeleted, data: { documentId, ownerId, sha256, deletedAt } satisfies CourtDocumentDeletedV1 };
    }
    case 'EvidenceEntryAppended': {
      const { ownerId, head } = event.data;
      return { subject: CourtJournalEvents.EvidenceHeadSigned, data: { ownerId, sequence: head.sequence, headHash: head.headHash, keyId: head.keyId, signedAt: head.signedAt } satisfies EvidenceHeadSignedV1 };
    }
    default:
      return null;
  }
};
