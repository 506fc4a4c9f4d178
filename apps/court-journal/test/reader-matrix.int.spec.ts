import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessMessages, VIEW_SECTIONS } from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import { answerTable, generateTestKeys, MatrixCallers, readerMatrixTests, runReaderMatrix, sendHttp, type ReaderMatrixResult } from '@lv/testing';
import { courtFiles } from './test-support/files.js';
import { NATS_URL, startCourtJournal, type CourtHarness } from './test-support/harness.js';

// Every court-journal handler against every kind of caller (libs/testing runReaderMatrix), compared with
// the table below: what each caller must get, written by hand and not from the handlers' declarations.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                                  anonymous owner   other-owner admin     operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
# A viewer's link to a document of the vault he may see; owners use file-link.
rpc.court-journal.viewer-link            unauth    forbid  forbid      forbid    forbid   | forbid   forbid  ok            forbid   forbid          ok           | NOT_FOUND   expired expired
rpc.court-journal.stats                  unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.start-upload           unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.list                   unauth    ok      ok          ok        forbid   | forbid   forbid  ok            forbid   forbid          ok           | ok          expired expired
rpc.court-journal.set-key-evidence       unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.delete                 unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Owners only: one owner's document is not found for another.
rpc.court-journal.file-link              unauth    ok      NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.bundle-link            unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.evidence-head          unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.evidence-entries       unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The evidence keys, public so anyone can verify a bundle.
rpc.court-journal.public-keys            ok        ok      ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
# The timeline's titles: viewers of the timeline (the Court Journal's own section is checked by the service).
rpc.court-journal.titles                 unauth    ok      ok          ok        forbid   | ok       forbid  forbid        forbid   forbid          ok           | ok          expired expired
rpc.court-journal.op.rebuild-projections unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.op.replay-erasures     unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.court-journal.health                 ok        ok      ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('court-journal reader matrix', () => {
  let h: CourtHarness;
  let callers: MatrixCallers;
  let result: ReaderMatrixResult;
  const ownerTitle = secret('ownerdocument');
  const ownerFileName = `${secret('ownerfile')}.pdf`;
  let document: { id: string };

  /** Start + PUT, as the SPA does through the gateway. */
  async function file(token: string, title: string, fileName = `${title}.pdf`): Promise<{ id: string }> {
    const body = courtFiles.pdf(2048);
    const ticket = await callers.rpc.call<{ uploadId: string }>('rpc.court-journal.start-upload', { title, category: 'Custody', description: `${title} notes`, fileName, size: body.length }, token);
    const answer = await sendHttp(`${h.httpUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<{ id: string }>();
  }

  beforeAll(async () => {
    const viewerKeys = generateTestKeys();
    h = await startCourtJournal('courtmx', { VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey });
    callers = await MatrixCallers.open({ accessTokenKey: h.keys.privateKey, viewerKeys, redis: h.redis, natsUrl: NATS_URL });
    document = await file(h.tokenFor(callers.ownerId), ownerTitle, ownerFileName);
    await file(h.tokenFor(callers.anotherOwnerId), secret('otherdocument'));

    result = await runReaderMatrix({ app: h.app, callers }, {
      answers: ANSWERS,
      payloads: {
        'rpc.court-journal.file-link': { id: document.id, disposition: 'inline' },
        'rpc.court-journal.titles': { ids: [document.id] },
        'rpc.court-journal.viewer-link': { id: document.id },
      },
      ownerSecrets: [ownerTitle, ownerFileName, document.id],
      ownerReads: ['rpc.court-journal.list', 'rpc.court-journal.titles', 'rpc.court-journal.file-link', 'rpc.court-journal.evidence-entries'],
    });
  });

  afterAll(() => Promise.all([callers?.close(), h?.close()]));

  readerMatrixTests(() => result);

  it('lists the owner’s documents to a viewer of the Court Journal by their files’ names, and lets him change nothing', async () => {
    const { rpc, viewers, ownerId } = callers;
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
  });

  it('refuses a viewer whose key opens every section but the Court Journal, with none of the document in the refusal, even behind a wrong declaration', async () => {
    const { rpc, viewers, ownerId } = callers;
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
