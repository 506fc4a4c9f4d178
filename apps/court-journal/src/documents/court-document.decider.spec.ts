import { deciderSpecification } from '@lv/testing';
import { courtDocumentDecider, type CourtDocumentEvent, type CourtDocumentUploadedData } from './court-document.decider.js';

const spec = deciderSpecification(courtDocumentDecider);
const documentId = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const t0 = '2026-11-22T10:00:00.000Z';
const t1 = '2026-11-23T08:30:00.000Z';
const sha256 = 'a'.repeat(64);

const facts: CourtDocumentUploadedData = {
  documentId, ownerId: owner, title: 'Receipts, March', description: null, category: 'Receipts or Payment Records', variant: 'journal',
  fileName: 'receipts.pdf', fileKind: 'pdf', contentType: 'application/pdf', bucket: 'courtjournals', objectKey: `${owner}/${documentId}/receipts.pdf`,
  size: 1234, sha256, uploadedAt: t0,
};
const uploaded: CourtDocumentEvent = { type: 'CourtDocumentUploaded', data: facts };
const marked: CourtDocumentEvent = { type: 'CourtDocumentKeyEvidenceChanged', data: { documentId, ownerId: owner, isKeyEvidence: true, changedAt: t1 } };
const unmarked: CourtDocumentEvent = { type: 'CourtDocumentKeyEvidenceChanged', data: { documentId, ownerId: owner, isKeyEvidence: false, changedAt: t1 } };
const deleted: CourtDocumentEvent = { type: 'CourtDocumentDeleted', data: { documentId, ownerId: owner, sha256, deletedAt: t1 } };

const record = { type: 'RecordUpload', ...facts } as const;
const setKey = (isKeyEvidence: boolean, ownerId = owner) => ({ type: 'SetKeyEvidence', documentId, ownerId, isKeyEvidence, now: t1 }) as const;
const del = (ownerId = owner) => ({ type: 'DeleteDocument', documentId, ownerId, now: t1 }) as const;

describe('court document decider', () => {
  describe('RecordUpload', () => {
    it('records a stored document with every fact of it', () => spec.given([]).when(record).then([uploaded]));
    it('never records one document twice', () => spec.given([uploaded]).when(record).thenThrows('CONFLICT'));
  });

  describe('SetKeyEvidence', () => {
    it('marks a document as key evidence', () => spec.given([uploaded]).when(setKey(true)).then([marked]));
    it('unmarks it again', () => spec.given([uploaded, marked]).when(setKey(false)).then([unmarked]));
    it('changes nothing when asked for what already is (no chain entry either)', () => {
      spec.given([uploaded]).when(setKey(false)).then([]);
      spec.given([uploaded, marked]).when(setKey(true)).then([]);
    });
    it("answers NOT_FOUND for someone else's document, an unknown one and a deleted one", () => {
      spec.given([uploaded]).when(setKey(true, stranger)).thenThrows('NOT_FOUND');
      spec.given([]).when(setKey(true)).thenThrows('NOT_FOUND');
      spec.given([uploaded, deleted]).when(setKey(true)).thenThrows('NOT_FOUND');
    });
  });

  describe('DeleteDocument', () => {
    it('deletes the document, keeping its hash in the event', () => spec.given([uploaded, marked]).when(del()).then([deleted]));
    it("answers NOT_FOUND for someone else's document, an unknown one and one already deleted", () => {
      spec.given([uploaded]).when(del(stranger)).thenThrows('NOT_FOUND');
      spec.given([]).when(del()).thenThrows('NOT_FOUND');
      spec.given([uploaded, deleted]).when(del()).thenThrows('NOT_FOUND');
    });
  });
});
