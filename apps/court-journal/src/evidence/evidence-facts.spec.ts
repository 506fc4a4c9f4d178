import { evidenceFacts } from './evidence-facts.js';

const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const documentId = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const sha256 = 'a'.repeat(64);
const at = '2026-11-23T08:30:00.000Z';
const document = { id: documentId, sha256, size: '1234' };
const byOwner = { at, actor: { role: 'owner', id: owner } };

describe('the entry each action adds to the owner’s evidence chain', () => {
  it('names the words of a document once, when it is uploaded', () => {
    expect(evidenceFacts.uploaded({
      documentId, ownerId: owner, title: 'Receipts, March', description: 'not for the chain', category: 'Receipts or Payment Records', variant: 'journal', fileName: 'receipts.pdf',
      fileKind: 'pdf', contentType: 'application/pdf', bucket: 'courtjournals', objectKey: 'key', size: 1234, sha256, uploadedAt: at,
    })).toEqual({ action: 'uploaded', documentId, title: 'Receipts, March', category: 'Receipts or Payment Records', fileName: 'receipts.pdf', sha256, size: 1234, ...byOwner });
  });

  it('names a document by id and hash alone afterwards (the chain is never shredded), a deletion with its size', () => {
    const words = { title: null, category: null, fileName: null };
    expect(evidenceFacts.keyEvidence(document, true, at, owner)).toEqual({ action: 'key-evidence-marked', documentId, sha256, size: null, ...words, ...byOwner });
    expect(evidenceFacts.keyEvidence(document, false, at, owner)).toMatchObject({ action: 'key-evidence-unmarked', documentId, sha256 });
    expect(evidenceFacts.viewed(document, at, owner)).toEqual({ action: 'viewed', documentId, sha256, size: null, ...words, ...byOwner });
    expect(evidenceFacts.deleted(document, at, owner)).toEqual({ action: 'deleted', documentId, sha256, size: 1234, ...words, ...byOwner });
  });

  it('names no document for an export', () => {
    expect(evidenceFacts.exported(at, owner)).toEqual({ action: 'exported', documentId: null, title: null, category: null, fileName: null, sha256: null, size: null, ...byOwner });
  });
});
