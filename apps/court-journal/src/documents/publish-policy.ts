import { CourtJournalEvents, published } from '@lv/contracts';
import { publishPolicyFor } from '@lv/platform/event-store';
import type { CourtDocumentEvent } from './court-document.decider.js';
import type { EvidenceEvent } from '../evidence/evidence-events.repository.js';
import { upcastCourtDocumentEvent } from './court-document.upcast.js';

/**
 * What other services (the timeline, the vault home) learn about court documents: that one was
 * filed, marked or deleted, in which category, how big, with which hash, by whom and when; and that an
 * owner's evidence chain moved on. Never a title, description or file name: JetStream keeps messages
 * for replay and cannot forget them; the timeline asks rpc.court-journal.titles when it renders.
 */
export const courtJournalPublishPolicy = publishPolicyFor<CourtDocumentEvent | EvidenceEvent>((stored) => {
  const event = upcastCourtDocumentEvent(stored);
  switch (event.type) {
    case 'CourtDocumentUploaded': {
      const { documentId, ownerId, category, variant, size, sha256, uploadedAt } = event.data;
      return published(CourtJournalEvents.CourtDocumentUploaded, { documentId, ownerId, category, variant, size, sha256, uploadedAt });
    }
    case 'CourtDocumentKeyEvidenceChanged': {
      const { documentId, ownerId, isKeyEvidence, changedAt } = event.data;
      return published(CourtJournalEvents.CourtDocumentKeyEvidenceChanged, { documentId, ownerId, isKeyEvidence, changedAt });
    }
    case 'CourtDocumentDeleted': {
      const { documentId, ownerId, sha256, deletedAt } = event.data;
      return published(CourtJournalEvents.CourtDocumentDeleted, { documentId, ownerId, sha256, deletedAt });
    }
    case 'EvidenceEntryAppended': {
      const { ownerId, head } = event.data;
      return published(CourtJournalEvents.EvidenceHeadSigned, { ownerId, sequence: head.sequence, headHash: head.headHash, keyId: head.keyId, signedAt: head.signedAt });
    }
    default:
      return null;
  }
});
