// A family viewer previews (and, where the key allows it, downloads) court documents through links
// bound to their view session: court-journal booted in-process on the machine's PostgreSQL, NATS and
// Redis and the embedded S3 server; viewer tokens from the test issuer (real revocations in Redis).
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { CourtJournalRpc, ViewerLinkMessages, type ViewerDocumentGrant } from '@lv/contracts';
import { RawRpc, TestViewerIssuer, generateTestKeys, sendHttp, type IssuedViewerToken } from '@lv/testing';
import { courtFiles } from './test-support/files.js';
import { NATS_URL, startCourtJournal, type CourtHarness } from './test-support/harness.js';

jest.setTimeout(120_000);

describe('court-journal: viewer document links bound to the view session', () => {
  let h: CourtHarness;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;
  const viewerKeys = generateTestKeys();
  const ownerId = randomUUID();
  const otherOwnerId = randomUUID();
  const bodies = new Map<string, Buffer>();

  async function upload(owner: string, fileName: string): Promise<string> {
    const body = courtFiles.pdf(6000);
    const token = h.tokenFor(owner);
    const ticket = await rpc.call<{ uploadId: string }>('rpc.court-journal.start-upload', { title: 'Handover notes', category: 'Custody', fileName, size: body.length }, token);
    const stored = await sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, chunks: [body] });
    expect(stored.status).toBe(201);
    const { id } = stored.json<{ id: string }>();
    bodies.set(id, body);
    return id;
  }

  const link = (id: string, viewer: IssuedViewerToken | string) => rpc.call<ViewerDocumentGrant>(CourtJournalRpc.viewerLink.subject, { id }, typeof viewer === 'string' ? viewer : viewer.token);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: { code?: string }) => e.code);
  const read = (url: string, token: string | undefined) => sendHttp(`${h.httpUrl}${url.replace(/^\/api/, '')}`, { headers: token ? { 'x-lv-view-token': token } : {} });

  beforeAll(async () => {
    h = await startCourtJournal('courtview', { VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey });
    viewers = new TestViewerIssuer(h.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await h?.close();
  });

  it('previews a document inline for a court-journal viewer, and refuses it without the cookie, with another session, after revocation', async () => {
    const id = await upload(ownerId, 'handover.pdf');
    const viewer = viewers.issue(ownerId, ['court-journal']);
    const grant = await link(id, viewer);
    expect(grant).toMatchObject({ contentType: 'application/pdf', fileName: 'handover.pdf', downloadUrl: null, section: 'court-journal' });
    const preview = await read(grant.url, viewer.token);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-disposition']).toBe("inline; filename*=UTF-8''handover.pdf");
    expect(preview.headers['content-security-policy']).toContain('sandbox');
    expect(preview.body.equals(bodies.get(id)!)).toBe(true);

    expect([(await read(grant.url, undefined)).status, (await read(grant.url, undefined)).json<{ message: string }>().message]).toEqual([403, ViewerLinkMessages.noViewer]);
    expect((await read(grant.url, viewers.issue(ownerId, ['court-journal']).token)).json()).toEqual({ code: 'FORBIDDEN', message: ViewerLinkMessages.otherSession });
    await viewers.revoke(viewer.viewSessionId);
    expect((await read(grant.url, viewer.token)).json()).toEqual({ code: 'FORBIDDEN', message: ViewerLinkMessages.accessEnded });
  });

  it('refuses a letters-only key (403), another vault’s document (404) and an owner’s token, by RPC and by HTTP', async () => {
    const id = await upload(ownerId, 'receipts.pdf');
    const lettersOnly = viewers.issue(ownerId, ['letters']);
    expect(await codeOf(link(id, lettersOnly))).toBe('FORBIDDEN');
    // A link of this session, presented with a token of the same session that lacks the section.
    const viewer = viewers.issue(ownerId, ['court-journal']);
    const { url } = await link(id, viewer);
    const narrowed = viewers.issueFor(viewer.viewSessionId, ownerId, ['letters']);
    expect((await read(url, narrowed.token)).status).toBe(403);

    const theirs = await upload(otherOwnerId, 'theirs.pdf');
    expect(await codeOf(link(theirs, viewer))).toBe('NOT_FOUND');
    expect(await codeOf(link('not-an-id', viewer))).toBe('NOT_FOUND');
    expect(await codeOf(link(id, h.tokenFor(ownerId)))).toBe('FORBIDDEN');
    expect((await read(`/api/view/documents/${id}?s=1&exp=2&sig=3`, viewer.token)).status).toBe(403);
  });

  it('gives a download link (attachment, the original file name) only to a key that allows downloads', async () => {
    const id = await upload(ownerId, 'court order (final).pdf');
    const downloader = viewers.issue(ownerId, ['court-journal'], undefined, undefined, true);
    const grant = await link(id, downloader);
    expect(grant.downloadUrl).toMatch(/&dl=1&sig=/);
    const file = await read(grant.downloadUrl!, downloader.token);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe("attachment; filename*=UTF-8''court%20order%20%28final%29.pdf");
    expect(file.body.equals(bodies.get(id)!)).toBe(true);
    const viewOnly = viewers.issueFor(downloader.viewSessionId, ownerId, ['court-journal'], false);
    expect((await link(id, viewOnly)).downloadUrl).toBeNull();
    expect((await read(grant.downloadUrl!, viewOnly.token)).json()).toEqual({ code: 'FORBIDDEN', message: ViewerLinkMessages.downloadNotAllowed });
  });
});
