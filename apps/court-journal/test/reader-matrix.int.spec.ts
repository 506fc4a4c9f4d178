import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessMessages, VIEW_SECTIONS } from '@lv/contracts';
import { AccessTokenSigner, type ViewerCaller } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, generateTestKeys, runReaderMatrix, sendHttp } from '@lv/testing';
import { courtFiles } from './test-support/files.js';
import { NATS_URL, startCourtJournal, type CourtHarness } from './test-support/harness.js';

// Every court-journal handler against every kind of caller (libs/testing runReaderMatrix), taken
// from the running service's handler registry: a handler added later is in the matrix without a list.

jest.setTimeout(120_000);

const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('court-journal reader matrix', () => {
  let h: CourtHarness;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;
  const viewerKeys = generateTestKeys();
  const ownerId = randomUUID();
  const anotherOwnerId = randomUUID();

  /** Start + PUT, as the SPA does through the gateway. */
  async function file(token: string, title: string, fileName = `${title}.pdf`): Promise<{ id: string }> {
    const body = courtFiles.pdf(2048);
    const ticket = await rpc.call<{ uploadId: string }>('rpc.court-journal.start-upload', { title, category: 'Custody', description: `${title} notes`, fileName, size: body.length }, token);
    const answer = await sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<{ id: string }>();
  }

  beforeAll(async () => {
    h = await startCourtJournal('courtmx', { VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey });
    viewers = new TestViewerIssuer(h.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await h?.close();
  });

  it('allows exactly what each handler declares, and never shows one vault to another', async () => {
    const ownerTitle = secret('ownerdocument');
    const ownerFileName = `${secret('ownerfile')}.pdf`;
    const document = await file(h.tokenFor(ownerId), ownerTitle, ownerFileName);
    await file(h.tokenFor(anotherOwnerId), secret('otherdocument'));

    const result = await runReaderMatrix({
      handlers: h.app.get((await import('@lv/platform/nest')).RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: new AccessTokenSigner(h.keys.privateKey),
      viewers,
      ownerId,
      anotherOwnerId,
      payloads: {
        'rpc.court-journal.file-link': { id: document.id, disposition: 'inline' },
        'rpc.court-journal.titles': { ids: [document.id] },
        'rpc.court-journal.viewer-link': { id: document.id },
      },
      ownerSecrets: [ownerTitle, ownerFileName, document.id],
      ownerReads: ['rpc.court-journal.list', 'rpc.court-journal.titles', 'rpc.court-journal.file-link', 'rpc.court-journal.evidence-entries'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    expect(new Set(result.rows.map((row) => row.subject))).toEqual(new Set([
      'rpc.court-journal.health', 'rpc.court-journal.stats', 'rpc.court-journal.start-upload', 'rpc.court-journal.list', 'rpc.court-journal.set-key-evidence',
      'rpc.court-journal.delete', 'rpc.court-journal.file-link', 'rpc.court-journal.evidence-head', 'rpc.court-journal.evidence-entries',
      'rpc.court-journal.bundle-link', 'rpc.court-journal.public-keys', 'rpc.court-journal.titles', 'rpc.court-journal.op.rebuild-projections',
      // A family viewer's document link: viewers of the court-journal section only (owners use file-link).
      'rpc.court-journal.viewer-link',
    ]));
    expect(result.rows.some((row) => row.subject === 'rpc.court-journal.viewer-link' && row.caller === 'viewer of this vault' && row.outcome === 'OK')).toBe(true);
    expect(result.rows.some((row) => row.subject === 'rpc.court-journal.list' && row.caller === 'viewer of this vault' && row.outcome === 'OK')).toBe(true);
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    expect(result.unexpectedDenials).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);

    // A viewer with 'court-journal' lists the owner's documents (scoped by vaultOwnerId) and changes nothing.
    const viewer = viewers.issue(ownerId, ['court-journal']);
    // Court titles and descriptions never reach a viewer: the file's name stands in for the title.
    const list = await rpc.call<{ id: string; title: string; description: string | null }[]>('rpc.court-journal.list', {}, viewer.token);
    expect(list.map((d) => [d.title, d.description])).toEqual([[ownerFileName, null]]);
    expect(JSON.stringify(list)).not.toContain(ownerTitle);
    expect((await rpc.call<{ title: string; description: string | null }[]>('rpc.court-journal.list', {}, h.tokenFor(ownerId))).map((d) => [d.title, d.description])).toEqual([[ownerTitle, `${ownerTitle} notes`]]);
    await expect(rpc.call('rpc.court-journal.file-link', { id: document.id, disposition: 'inline' }, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.court-journal.delete', { id: document.id }, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // A viewer with another scope sees no documents.
    await expect(rpc.call('rpc.court-journal.list', {}, viewers.issue(ownerId, ['letters']).token)).rejects.toMatchObject({ code: 'FORBIDDEN' });

    // A viewer of this vault whose key opens every section but the Court Journal: refused the list and a
    // document's link, with none of the document in the refusal, and no titles on his timeline.
    const withoutCourt = viewers.issue(ownerId, VIEW_SECTIONS.filter((section) => section !== 'court-journal'));
    const refusals = await Promise.all([
      rpc.call('rpc.court-journal.list', {}, withoutCourt.token).then(() => 'answered', (error: unknown) => error),
      rpc.call('rpc.court-journal.viewer-link', { id: document.id }, withoutCourt.token).then(() => 'answered', (error: unknown) => error),
    ]);
    expect(refusals).toEqual([expect.objectContaining({ code: 'FORBIDDEN' }), expect.objectContaining({ code: 'FORBIDDEN' })]);
    for (const words of [ownerTitle, document.id]) expect(JSON.stringify(refusals)).not.toContain(words);
    expect(await rpc.call('rpc.court-journal.titles', { ids: [document.id] }, withoutCourt.token)).toEqual({ titles: {} });
    // With the Court Journal and the timeline, the document shows on the timeline by its file's name.
    expect(await rpc.call('rpc.court-journal.titles', { ids: [document.id] }, viewers.issue(ownerId, ['timeline', 'court-journal']).token)).toEqual({ titles: { [document.id]: ownerFileName } });
    expect(await rpc.call('rpc.court-journal.titles', { ids: [document.id] }, h.tokenFor(ownerId))).toEqual({ titles: { [document.id]: ownerTitle } });
    // The service's own check, behind the handlers' declarations: a declaration written wrongly would still show him nothing.
    const caller: ViewerCaller = { kind: 'viewer', vaultOwnerId: ownerId, viewSessionId: randomUUID(), scopes: ['timeline'], expiresAt: Date.now() + 60_000, mayDownload: false };
    const notShared = { code: 'FORBIDDEN', message: AccessMessages.sectionNotShared };
    await expect(h.service.list(caller)).rejects.toMatchObject(notShared);
    expect(await h.service.titles(caller, [document.id])).toEqual({ titles: {} });
  });
});
