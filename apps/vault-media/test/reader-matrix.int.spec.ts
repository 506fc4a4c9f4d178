import { createHash, randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { answerTable, generateTestKeys, MatrixCallers, readerMatrixTests, runReaderMatrix, type ReaderMatrixResult } from '@lv/testing';
import { NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

// Every vault-media handler against every kind of caller (libs/testing runReaderMatrix), compared with
// the table below: what each caller must get, written by hand and not from the handlers' declarations.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                                anonymous owner   other-owner admin     operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
rpc.vault-media.stats                  unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.start-upload           unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.export-list            unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The admin dashboard's storage figures: admins only.
rpc.vault-media.admin.storage-by-day   unauth    forbid  forbid      ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.list-recordings        unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Sections' own reads: Who I Am's media, If I'm Not There's final messages, the timeline's titles.
rpc.vault-media.portrait-media-titles  unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        ok       forbid          ok           | ok          expired expired
rpc.vault-media.retitle                unauth    ok      NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.final-message-titles   unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   ok              ok           | ok          expired expired
rpc.vault-media.delete-entry           unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.playback-link          unauth    ok      NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# A viewer's link to one item (its own section is checked by the service); owners use playback-link.
rpc.vault-media.viewer-link            unauth    forbid  forbid      forbid    forbid   | ok       forbid  forbid        forbid   forbid          ok           | NOT_FOUND   expired expired
# The hashing and transcoding workers' reports: public on the bus, authorised by the job's report token.
rpc.vault-media.report-hash            invalid   invalid invalid     invalid   invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.vault-media.report-transcode       invalid   invalid invalid     invalid   invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.vault-media.op.rebuild-projections unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.op.replay-erasures     unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.titles                 unauth    ok      ok          ok        forbid   | ok       forbid  forbid        forbid   forbid          ok           | ok          expired expired
# The Parent Circle's music: members read it (their plan checked by the service), operators manage it.
rpc.vault-media.music.list             unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.music.playback-link    unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.op.music-start-upload  unauth    forbid  forbid      forbid    invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.op.music-library       unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.op.music-remove        unauth    forbid  forbid      forbid    invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.vault-media.health                 ok        ok      ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('vault-media reader matrix', () => {
  let h: Harness;
  let callers: MatrixCallers;
  let result: ReaderMatrixResult;
  const ownerTitle = secret('ownerrecording');
  const finalTitle = secret('finalmessage');
  const portraitTitle = secret('portraitmedia');
  let recording: { id: string };
  let finalMessage: { id: string };
  let portraitMedia: { id: string };

  /** Start + PUT, as the SPA does through the gateway. */
  async function save(token: string, title: string, collection: 'vault' | 'final-messages' | 'who-i-am' = 'vault'): Promise<{ id: string }> {
    const body = webmBody(2048);
    const ticket = await callers.rpc.call<{ uploadId: string; contentType: string }>('rpc.vault-media.start-upload', { type: 'video', title, sha256: sha(body), size: body.length, collection, contentType: 'video/webm' }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<{ id: string }>();
  }

  beforeAll(async () => {
    const viewerKeys = generateTestKeys();
    h = await startVaultMedia('mediamx', { VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey });
    callers = await MatrixCallers.open({ accessTokenKey: h.keys.privateKey, viewerKeys, redis: h.resources.redis, natsUrl: NATS_URL });
    const { ownerId, anotherOwnerId } = callers;
    recording = await save(h.tokenFor(ownerId), ownerTitle);
    finalMessage = await save(h.tokenFor(ownerId), finalTitle, 'final-messages');
    portraitMedia = await save(h.tokenFor(ownerId), portraitTitle, 'who-i-am');
    await save(h.tokenFor(anotherOwnerId), secret('otherrecording'));
    await save(h.tokenFor(anotherOwnerId), secret('otherfinal'), 'final-messages');

    result = await runReaderMatrix({ app: h.app, callers }, {
      answers: ANSWERS,
      ownerTier: 'pro',
      payloads: { 'rpc.vault-media.playback-link': { id: recording.id }, 'rpc.vault-media.titles': { ids: [recording.id] }, 'rpc.vault-media.retitle': { id: portraitMedia.id, title: portraitTitle }, 'rpc.vault-media.viewer-link': { id: recording.id } },
      ownerSecrets: [ownerTitle, recording.id, finalTitle, finalMessage.id, portraitTitle, portraitMedia.id],
      ownerReads: ['rpc.vault-media.list-recordings', 'rpc.vault-media.export-list', 'rpc.vault-media.titles', 'rpc.vault-media.playback-link', 'rpc.vault-media.final-message-titles', 'rpc.vault-media.portrait-media-titles'],
    });
  });

  afterAll(() => Promise.all([callers?.close(), h?.close()]));

  readerMatrixTests(() => result);

  it('shows a viewer of the timeline the titles of the owner’s recordings, and nothing it may not', async () => {
    const { rpc, viewers, ownerId } = callers;
    // A viewer with 'timeline' reads the titles of the owner's timeline (scoped by vaultOwnerId), and nothing it may not.
    const viewer = viewers.issue(ownerId, ['timeline']);
    const titles = await rpc.call<{ titles: Record<string, string> }>('rpc.vault-media.titles', { ids: [recording.id] }, viewer.token);
    expect(titles.titles).toEqual({ [recording.id]: ownerTitle });
    await expect(rpc.call('rpc.vault-media.list-recordings', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.vault-media.delete-entry', { id: recording.id }, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.vault-media.final-message-titles', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('shows a key holder of If I’m Not There the final messages’ titles and a family viewer the portrait’s media, of this vault only', async () => {
    const { rpc, viewers, ownerId } = callers;
    // A key holder of "If I'm Not There" reads the final messages' titles of this vault only, never the vault's other recordings.
    const contact = viewers.issue(ownerId, ['if-im-not-there']);
    const finals = await rpc.call<{ id: string; title: string }[]>('rpc.vault-media.final-message-titles', {}, contact.token);
    expect(finals.map(({ id, title }) => ({ id, title }))).toEqual([{ id: finalMessage.id, title: finalTitle }]);
    await expect(rpc.call('rpc.vault-media.titles', { ids: [recording.id] }, contact.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.vault-media.portrait-media-titles', {}, contact.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const family = viewers.issue(ownerId, ['who-i-am']);
    expect((await rpc.call<{ id: string; title: string }[]>('rpc.vault-media.portrait-media-titles', {}, family.token)).map(({ id, title }) => ({ id, title }))).toEqual([{ id: portraitMedia.id, title: portraitTitle }]);
    await expect(rpc.call('rpc.vault-media.retitle', { id: recording.id, title: 'Viewer title' }, family.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
