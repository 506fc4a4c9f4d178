import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessTokenSigner } from '@lv/platform/auth';
import { RawRpc, TestViewerIssuer, generateTestKeys, runReaderMatrix } from '@lv/testing';
import { NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

// Every vault-media handler against every kind of caller (libs/testing runReaderMatrix), taken from
// the running service's handler registry: a handler added later is in the matrix without a list.

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('vault-media reader matrix', () => {
  let h: Harness;
  let rpc: RawRpc;
  let viewers: TestViewerIssuer;
  const viewerKeys = generateTestKeys();
  const ownerId = randomUUID();
  const anotherOwnerId = randomUUID();

  /** Start + PUT, as the SPA does through the gateway. */
  async function save(token: string, title: string, collection: 'vault' | 'final-messages' | 'who-i-am' = 'vault'): Promise<{ id: string }> {
    const body = webmBody(2048);
    const ticket = await rpc.call<{ uploadId: string; contentType: string }>('rpc.vault-media.start-upload', { type: 'video', title, sha256: sha(body), size: body.length, collection, contentType: 'video/webm' }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<{ id: string }>();
  }

  beforeAll(async () => {
    h = await startVaultMedia('mediamx', { VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey });
    viewers = new TestViewerIssuer(h.resources.redis, viewerKeys);
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await h?.close();
  });

  it('allows exactly what each handler declares, and never shows one vault to another', async () => {
    const ownerTitle = secret('ownerrecording');
    const recording = await save(h.tokenFor(ownerId), ownerTitle);
    const finalTitle = secret('finalmessage');
    const finalMessage = await save(h.tokenFor(ownerId), finalTitle, 'final-messages');
    const portraitTitle = secret('portraitmedia');
    const portraitMedia = await save(h.tokenFor(ownerId), portraitTitle, 'who-i-am');
    await save(h.tokenFor(anotherOwnerId), secret('otherrecording'));
    await save(h.tokenFor(anotherOwnerId), secret('otherfinal'), 'final-messages');

    const result = await runReaderMatrix({
      handlers: h.app.get((await import('@lv/platform/nest')).RpcHandlerRegistry).handlers(),
      natsUrl: NATS_URL,
      accessTokens: new AccessTokenSigner(h.keys.privateKey),
      viewers,
      ownerId,
      anotherOwnerId,
      ownerTier: 'pro',
      payloads: { 'rpc.vault-media.playback-link': { id: recording.id }, 'rpc.vault-media.titles': { ids: [recording.id] }, 'rpc.vault-media.retitle': { id: portraitMedia.id, title: portraitTitle }, 'rpc.vault-media.viewer-link': { id: recording.id } },
      ownerSecrets: [ownerTitle, recording.id, finalTitle, finalMessage.id, portraitTitle, portraitMedia.id],
      ownerReads: ['rpc.vault-media.list-recordings', 'rpc.vault-media.export-list', 'rpc.vault-media.titles', 'rpc.vault-media.playback-link', 'rpc.vault-media.final-message-titles', 'rpc.vault-media.portrait-media-titles'],
    });

    if (process.env.MATRIX_PRINT) console.log(result.table());
    expect(new Set(result.rows.map((row) => row.subject))).toEqual(new Set(['rpc.vault-media.health', 'rpc.vault-media.stats', 'rpc.vault-media.start-upload', 'rpc.vault-media.list-recordings', 'rpc.vault-media.final-message-titles', 'rpc.vault-media.portrait-media-titles', 'rpc.vault-media.retitle', 'rpc.vault-media.titles', 'rpc.vault-media.delete-entry', 'rpc.vault-media.playback-link', 'rpc.vault-media.report-hash', 'rpc.vault-media.op.rebuild-projections', 'rpc.vault-media.export-list', 'rpc.vault-media.admin.storage-by-day',
      // The Parent Circle's music library: members read (their plan checked by the service), operators add and remove.
      'rpc.vault-media.music.list', 'rpc.vault-media.music.playback-link', 'rpc.vault-media.op.music-start-upload', 'rpc.vault-media.op.music-library', 'rpc.vault-media.op.music-remove',
      // A family viewer's link to one item: viewers of timeline, who-i-am or if-im-not-there (the item's own section is checked by the service).
      'rpc.vault-media.viewer-link']));
    expect(result.rows.some((row) => row.subject === 'rpc.vault-media.viewer-link' && row.caller === 'viewer of this vault' && row.outcome === 'OK')).toBe(true);
    expect(result.rows.some((row) => row.subject === 'rpc.vault-media.titles' && row.caller === 'viewer of this vault' && row.outcome === 'OK')).toBe(true);
    expect({ unexpectedAllows: result.unexpectedAllows, table: result.unexpectedAllows.length ? result.table() : '' }).toEqual({ unexpectedAllows: [], table: '' });
    expect(result.unexpectedDenials).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(result.blindOwnerReads).toEqual([]);
    expect(result.crashes).toEqual([]);

    // A viewer with 'timeline' reads the titles of the owner's timeline (scoped by vaultOwnerId), and nothing it may not.
    const viewer = viewers.issue(ownerId, ['timeline']);
    const titles = await rpc.call<{ titles: Record<string, string> }>('rpc.vault-media.titles', { ids: [recording.id] }, viewer.token);
    expect(titles.titles).toEqual({ [recording.id]: ownerTitle });
    await expect(rpc.call('rpc.vault-media.list-recordings', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.vault-media.delete-entry', { id: recording.id }, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.vault-media.final-message-titles', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });

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
