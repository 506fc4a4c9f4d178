import type { EvidenceFacts } from '@lv/evidence';
import type { CourtDocumentUploadedData } from '../documents/court-document.decider.js';

type Named = Partial<Omit<EvidenceFacts, 'action' | 'at' | 'actor'>>;
/** What the chain names of a stored document besides its id. */
interface ChainedDocument {
  id: string;
  sha256: string;
  size: string | number;
}

/** An entry's facts: nulls for what the action does not name. */
function facts(action: EvidenceFacts['action'], at: string, ownerId: string, named: Named): EvidenceFacts {
  return { action, documentId: null, title: null, category: null, fileName: null, sha256: null, size: null, ...named, at, actor: { role: 'owner', id: ownerId } };
}

/**
 * The entry each of the owner's actions adds to his evidence chain. Only an upload names the words
 * (title, category, file name): the chain is never shredded, so later entries name the document by
 * id and hash alone.
 */
export const evidenceFacts = {
  uploaded: (d: CourtDocumentUploadedData): EvidenceFacts =>
    facts('uploaded', d.uploadedAt, d.ownerId, { documentId: d.documentId, title: d.title, category: d.category, fileName: d.fileName, sha256: d.sha256, size: d.size }),
  keyEvidence: (document: ChainedDocument, isKeyEvidence: boolean, at: string, ownerId: string): EvidenceFacts =>
    facts(isKeyEvidence ? 'key-evidence-marked' : 'key-evidence-unmarked', at, ownerId, { documentId: document.id, sha256: document.sha256 }),
  deleted: (document: ChainedDocument, at: string, ownerId: string): EvidenceFacts =>
    facts('deleted', at, ownerId, { documentId: document.id, sha256: document.sha256, size: Number(document.size) }),
  viewed: (document: ChainedDocument, at: string, ownerId: string): EvidenceFacts => facts('viewed', at, ownerId, { documentId: document.id, sha256: document.sha256 }),
  exported: (at: string, ownerId: string): EvidenceFacts => facts('exported', at, ownerId, {}),
};
