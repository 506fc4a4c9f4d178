import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { EvidenceFacts } from '@lv/evidence';
import { OwnerLinkSigner } from '@lv/platform/links';
import { ownerCaller, viewerCaller } from '../../test/test-support/callers.js';
import { InMemoryCourtDocuments } from '../../test/test-support/in-memory-court-documents.js';
import type { CourtDocumentsReadModel } from '../documents/court-documents.repository.js';
import type { EvidenceRecorder } from '../evidence/evidence-recorder.js';
import { FileLinks } from './file-links.js';

const NOW = Date.parse('2026-11-23T08:30:00.000Z');

/** The chain in memory: the entries it took, and a hook run before each append (a race to stage). */
class RecordedEvidence implements EvidenceRecorder {
  readonly entries: { ownerId: string; facts: EvidenceFacts }[] = [];
  beforeAppend: () => void = () => {};
  constructor(private readonly documents: CourtDocumentsReadModel) {}

  async record(ownerId: string, facts: EvidenceFacts, _metadata: unknown, guard?: (documents: CourtDocumentsReadModel) => Promise<void>) {
    this.beforeAppend();
    await guard?.(this.documents);
    this.entries.push({ ownerId, facts });
  }
}

function setup() {
  const documents = new InMemoryCourtDocuments();
  const evidence = new RecordedEvidence(documents);
  let clock = NOW;
  const signer = new OwnerLinkSigner({ namespace: 'court', secret: 'unit-spec-court-link-secret-0123456789', secretName: 'COURT_LINK_SECRET', purposes: ['file', 'bundle'], ttlSeconds: 300, now: () => clock });
  const revoked = new Set<string>();
  const stored = new Map<string, string>();
  const storage = {
    getObject: async (bucket: string, key: string) => {
      const body = stored.get(`${bucket}/${key}`);
      if (body === undefined) throw Object.assign(new Error('no such key'), { code: 'NoSuchKey' });
      return Readable.from([body]);
    },
  };
  const files = new FileLinks({ documents, evidence, links: { signer, revokedSessions: { isRevoked: async (sid) => revoked.has(sid) } }, storage, now: () => clock });
  const owner = ownerCaller();
  const document = documents.add(owner.userId, { file_name: 'receipts (March).pdf' });
  stored.set(`${document.bucket}/${document.object_key}`, '%PDF-1.7 the receipts');
  const presented = (grant: { url: string }) => {
    const url = new URL(grant.url, 'http://court.test');
    return { id: url.pathname.split('/').at(-1)!, query: Object.fromEntries(url.searchParams) };
  };
  return { documents, evidence, files, signer, owner, document, revoked, stored, presented, later: (ms: number) => { clock += ms; } };
}

describe('the owner’s file links', () => {
  it('records a view in the chain, naming the document by id and hash only, and the link opens the file for him', async () => {
    const { files, evidence, owner, document, presented } = setup();
    const grant = await files.fileLink(owner, document.id.toUpperCase(), 'inline');
    expect(evidence.entries).toEqual([{
      ownerId: owner.userId,
      facts: { action: 'viewed', documentId: document.id, sha256: document.sha256, title: null, category: null, fileName: null, size: null, at: new Date(NOW).toISOString(), actor: { role: 'owner', id: owner.userId } },
    }]);
    const { id, query } = presented(grant);
    const opened = await files.openFile(id, query, grant.binding.value);
    expect(opened.headers).toMatchObject({ 'content-type': 'application/pdf', 'content-disposition': "inline; filename*=UTF-8''receipts%20%28March%29.pdf", 'x-content-type-options': 'nosniff' });
    expect(await text(opened.body)).toBe('%PDF-1.7 the receipts');
  });

  it('answers NOT_FOUND for another owner’s document, an unknown id and a malformed one, and records nothing', async () => {
    const { files, evidence, documents, owner } = setup();
    const theirs = documents.add(randomUUID());
    for (const id of [theirs.id, randomUUID(), 'receipts.pdf']) await expect(files.fileLink(owner, id, 'inline')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(evidence.entries).toEqual([]);
  });

  it('never chains a view of a document deleted while the view was being recorded', async () => {
    const { files, evidence, documents, owner, document } = setup();
    evidence.beforeAppend = () => documents.remove(document.id);
    await expect(files.fileLink(owner, document.id, 'attachment')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(evidence.entries).toEqual([]);
  });

  it('gives a viewer no owner’s link', async () => {
    const { files, owner, document } = setup();
    await expect(files.fileLink(viewerCaller(owner.userId, ['court-journal'], true), document.id, 'inline')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses a link presented without the owner’s binding, with another owner’s, altered, expired or from a signed-out session', async () => {
    const { files, signer, owner, document, revoked, presented, later } = setup();
    const grant = await files.fileLink(owner, document.id, 'inline');
    const { id, query } = presented(grant);
    await expect(files.openFile(id, query, undefined)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(files.openFile(id, query, signer.signBinding(randomUUID(), 'another-session').value)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(files.openFile(id, { ...query, d: 'attachment' }, grant.binding.value)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(files.openFile(randomUUID(), query, grant.binding.value)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    revoked.add(owner.sessionId);
    await expect(files.openFile(id, query, grant.binding.value)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    revoked.clear();
    later(301_000);
    await expect(files.openFile(id, query, grant.binding.value)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers NOT_FOUND for a valid link once the document is deleted, or its object gone from storage', async () => {
    const first = setup();
    const grant = await first.files.fileLink(first.owner, first.document.id, 'attachment');
    first.documents.remove(first.document.id);
    const { id, query } = first.presented(grant);
    await expect(first.files.openFile(id, query, grant.binding.value)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const second = setup();
    const again = await second.files.fileLink(second.owner, second.document.id, 'attachment');
    second.stored.clear();
    const link = second.presented(again);
    await expect(second.files.openFile(link.id, link.query, again.binding.value)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
