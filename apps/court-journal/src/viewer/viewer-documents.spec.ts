import { randomUUID } from 'node:crypto';
import { OwnerLinkSigner, ViewerLinks } from '@lv/platform/links';
import { ownerCaller, viewerCaller } from '../../test/test-support/callers.js';
import { InMemoryCourtDocuments } from '../../test/test-support/in-memory-court-documents.js';
import { ViewerDocuments } from './viewer-documents.js';

describe('a family viewer’s document links', () => {
  const documents = new InMemoryCourtDocuments();
  const signer = new OwnerLinkSigner({ namespace: 'court', secret: 'unit-spec-court-link-secret-0123456789', secretName: 'COURT_LINK_SECRET', purposes: ['view'], ttlSeconds: 300 });
  const viewers = new ViewerDocuments({
    documents, links: new ViewerLinks(signer, 'view'), tokens: undefined,
    storage: { getObject: () => Promise.reject(new Error('a link is made without reading the file')) },
  });
  const owner = ownerCaller();
  const document = documents.add(owner.userId, { title: 'Notes for my lawyer', file_name: 'photo.png', file_kind: 'png' });
  const elsewhere = documents.add(randomUUID());

  it('gives a court-journal viewer a preview link named by the file, and a download link only when his key allows downloads', async () => {
    const viewOnly = await viewers.link(viewerCaller(owner.userId, ['court-journal']), document.id);
    expect(viewOnly).toMatchObject({ contentType: 'image/png', fileName: 'photo.png', downloadUrl: null, section: 'court-journal' });
    expect(JSON.stringify(viewOnly)).not.toContain('Notes for my lawyer');
    const withDownloads = await viewers.link(viewerCaller(owner.userId, ['court-journal'], true), document.id);
    expect(withDownloads.downloadUrl).toMatch(/[?&]dl=1&/);
    expect(withDownloads.url).not.toMatch(/[?&]dl=/);
  });

  it('answers NOT_FOUND for another vault’s document, an unknown id and a malformed one', async () => {
    const viewer = viewerCaller(owner.userId, ['court-journal']);
    for (const id of [elsewhere.id, randomUUID(), 'photo.png']) await expect(viewers.link(viewer, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a viewer whose key does not open the Court Journal, and the owner himself (he previews through his own links)', async () => {
    await expect(viewers.link(viewerCaller(owner.userId, ['letters']), document.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(viewers.link(owner, document.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
