import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import {
  MediaMessages, VaultMediaRpc, type PlaybackGrant, type Recording, type RpcDeclaration, type SubscriptionTier, type UploadTicket,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { waitFor } from '@lv/testing';
import { MEDIA_LINK_SECRET, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const MiB = 1024 * 1024;

describe('vault-media (in-process, real PostgreSQL, NATS, Redis, S3 server)', () => {
  let h: Harness;
  const alice = randomUUID();
  const bob = randomUUID();
  const nobody = randomUUID();
  let aliceToken: string;
  let bobToken: string;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const codeOf = (p: Promise<unknown>) => p.then(() => 'OK', (e: DomainError) => e.code);
  const put = (ticket: UploadTicket, token: string, chunks: Buffer[], extra: Record<string, string> = {}) =>
    sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType, ...extra }, chunks });

  /** Start + PUT in one go: what the SPA does through the gateway. */
  async function save(token: string, body: Buffer, type: 'video' | 'audio' = 'video', title = 'A message'): Promise<Recording> {
    const ticket = await call(VaultMediaRpc.startUpload, { type, title, sha256: sha(body), size: body.length }, token);
    const answer = await put(ticket, token, [body]);
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<Recording>();
  }

  const objectExists = (key: string) => h.resources.storage.client.statObject('vaultmedia', key).then(() => true, () => false);
  /** Multipart parts the S3 server still holds (an aborted upload leaves none). */
  async function leftoverParts(): Promise<string[]> {
    const dir = join(h.s3Dir, 'vaultmedia', '._S3rver_uploads');
    return existsSync(dir) ? readdir(dir) : [];
  }
  const uploadState = async (id: string) =>
    (await h.db.orm.em.fork().execute<{ state: string }[]>('select state from media_objects where recording_id = ?', [id]))[0]?.state;

  beforeAll(async () => {
    h = await startVaultMedia('vaultmedia');
    aliceToken = h.tokenFor(alice, 'pro');
    bobToken = h.tokenFor(bob, 'legacy');
    // The harness's database handle was closed after migrating: open one for assertions.
    const { createOrm } = await import('@lv/platform/database');
    const { vaultMediaMigrations } = await import('../src/migrations.js');
    (h.db as { orm: unknown }).orm = await createOrm({ databaseUrl: h.db.url, migrations: vaultMediaMigrations, poolMax: 3 });
  });

  afterAll(async () => {
    await h?.resources.hashingQueue.obliterate({ force: true }).catch(() => undefined);
    await h?.db.orm.close().catch(() => undefined);
    (h.db as { orm: unknown }).orm = { close: async () => undefined };
    await h?.close();
  });

  describe('upload', () => {
    it('streams a recording into the vaultmedia bucket under {userId}/{type}_{timestamp}.webm, lists it and titles it for the timeline', async () => {
      const body = webmBody(300 * 1024);
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: '  First steps  ', sha256: sha(body), size: body.length }, aliceToken);
      expect(ticket.objectKey).toMatch(new RegExp(`^${alice}/video_\\d{13}\\.webm$`));
      expect(ticket).toMatchObject({ uploadUrl: `/api/media/uploads/${ticket.uploadId}`, contentType: 'video/webm', maxBytes: 12 * MiB });
      // Nothing is stored and nothing is on the timeline before the body has arrived.
      expect(await objectExists(ticket.objectKey)).toBe(false);

      const answer = await put(ticket, aliceToken, [body.subarray(0, 3), body.subarray(3, 70_000), body.subarray(70_000)]);
      expect(answer.status).toBe(201);
      const recording = answer.json<Recording>();
      expect(recording).toMatchObject({ id: ticket.uploadId, type: 'video', file_type: 'video', title: 'First steps', file_path: ticket.objectKey, content_type: 'video/webm', size: body.length, blob_hash: sha(body), integrity: 'pending' });

      const stat = await h.resources.storage.client.statObject('vaultmedia', ticket.objectKey);
      expect(stat.size).toBe(body.length);
      expect(stat.metaData['content-type']).toBe('video/webm');

      const list = await call(VaultMediaRpc.listRecordings, { limit: 10 }, aliceToken);
      expect(list.map((r) => r.id)).toContain(recording.id);
      // The timeline service titles its entries through this lookup.
      expect(await call(VaultMediaRpc.titles, { ids: [recording.id] }, aliceToken)).toEqual({ titles: { [recording.id]: 'First steps' }, playback: {} });
    });

    it('answers the same PUT sent again after it saved (its answer lost) with the saved recording, 201 as before; to anyone else not found', async () => {
      const body = webmBody(20_000);
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Sent twice', sha256: sha(body), size: body.length }, aliceToken);
      const first = await put(ticket, aliceToken, [body]);
      expect(first.status).toBe(201);
      const again = await put(ticket, aliceToken, [body]);
      expect([again.status, again.json()]).toEqual([201, first.json()]);
      expect((await put(ticket, bobToken, [body])).status).toBe(404);
      expect((await h.db.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where stream_id = ? and type = 'RecordingSaved'`, [`recording-${ticket.uploadId}`]))[0]!.n).toBe(1);
    });

    it('answers "Duplicate: Recording already exists." for a hash the owner already has, before the body is sent', async () => {
      const body = webmBody(20_000);
      await save(aliceToken, body);
      const duplicate = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Again', sha256: sha(body), size: body.length }, aliceToken).catch((e: DomainError) => e);
      expect(duplicate).toMatchObject({ code: 'DUPLICATE_MEDIA', message: 'Duplicate: Recording already exists.' });
      // Another parent may hold the very same bytes: the check is per owner.
      expect(await codeOf(save(bobToken, body))).toBe('OK');
    });

    it('lets exactly one of two racing uploads of the same recording win', async () => {
      const body = webmBody(50_000);
      const request = { type: 'video', title: 'Race', sha256: sha(body), size: body.length };
      const [a, b] = await Promise.all([call(VaultMediaRpc.startUpload, request, aliceToken), call(VaultMediaRpc.startUpload, request, aliceToken)]);
      const answers = await Promise.all([put(a, aliceToken, [body]), put(b, aliceToken, [body])]);
      expect(answers.map((x) => x.status).sort()).toEqual([201, 409]);
      const loser = answers[0]!.status === 409 ? a : b;
      expect(answers.find((x) => x.status === 409)!.json()).toMatchObject({ code: 'DUPLICATE_MEDIA' });
      expect(await objectExists(loser.objectKey)).toBe(false);
    });

    it('refuses a body that is not WebM by its header (415) before anything reaches storage', async () => {
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), webmBody(10_000)]);
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Not a video', sha256: sha(pdf), size: pdf.length }, aliceToken);
      const answer = await put(ticket, aliceToken, [pdf]);
      expect(answer.status).toBe(415);
      expect(answer.json()).toEqual({ code: 'UNSUPPORTED_MEDIA', message: MediaMessages.notARecording });
      expect(await objectExists(ticket.objectKey)).toBe(false);
      expect(await uploadState(ticket.uploadId)).toBe('removed');
      // The upload is closed: the body cannot be sent again under that ticket.
      expect((await put(ticket, aliceToken, [webmBody(100)])).status).toBe(400);
    });

    it('refuses a recording over the size limit: at the start when announced, mid-stream (413) when not, leaving no parts behind', async () => {
      const tooBig = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Huge', sha256: 'f'.repeat(64), size: 13 * MiB }, aliceToken).catch((e: DomainError) => e);
      expect(tooBig).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'This recording is too large: the limit is 12 MB.' });

      // A client that announces 12 MiB and keeps sending: multipart parts are written, then refused.
      const body = webmBody(20 * MiB);
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Liar', sha256: sha(body.subarray(0, 12 * MiB)), size: 12 * MiB }, aliceToken);
      const chunks = Array.from({ length: 20 }, (_, i) => body.subarray(i * MiB, (i + 1) * MiB));
      const answer = await put(ticket, aliceToken, chunks).catch((e: Error) => e);
      expect(answer).toMatchObject({ status: 413 });
      expect((answer as { json(): unknown }).json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'This recording is too large: the limit is 12 MB.' });
      await waitFor(async () => (await uploadState(ticket.uploadId)) === 'removed', 5000, 'the refused upload to be cleaned up');
      expect(await objectExists(ticket.objectKey)).toBe(false);
      expect(await leftoverParts()).toEqual([]);
    });

    it('accepts a recording of exactly the size limit (12 MiB), announced and sent', async () => {
      const body = webmBody(12 * MiB);
      const recording = await save(aliceToken, body, 'video', 'Right at the limit');
      expect(recording).toMatchObject({ size: 12 * MiB, blob_hash: sha(body) });
      expect(await objectExists(recording.file_path)).toBe(true);
    });

    it('refuses bytes that do not match the hash the browser announced, and removes them', async () => {
      const body = webmBody(40_000);
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Damaged', sha256: sha(body), size: body.length }, aliceToken);
      const damaged = Buffer.from(body);
      damaged.writeUInt8(damaged.readUInt8(20_000) ^ 0xff, 20_000);
      const answer = await put(ticket, aliceToken, [damaged]);
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'UPLOAD_INCOMPLETE' });
      expect(await objectExists(ticket.objectKey)).toBe(false);
    });

    it('checks the title and the token', async () => {
      const body = webmBody(1000);
      const blank = await call(VaultMediaRpc.startUpload, { type: 'video', title: '   ', sha256: sha(body), size: body.length }, aliceToken).catch((e: DomainError) => e);
      expect(blank).toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { title: 'Add a title.' } } });
      expect(await codeOf(call(VaultMediaRpc.startUpload, { type: 'video', title: 'x'.repeat(101), sha256: sha(body), size: body.length }, aliceToken))).toBe('VALIDATION_FAILED');
      expect(await codeOf(call(VaultMediaRpc.startUpload, { type: 'video', title: 'x'.repeat(100), sha256: sha(body), size: body.length }, aliceToken))).toBe('OK');
      expect(await codeOf(call(VaultMediaRpc.startUpload, { type: 'video', title: 'No token', sha256: sha(body), size: body.length }))).toBe('UNAUTHENTICATED');
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Token check', sha256: sha(webmBody(10)), size: 10 }, aliceToken);
      expect((await put(ticket, 'not-a-token', [webmBody(10)])).status).toBe(401);
    });
  });

  describe('feature gate', () => {
    it('refuses video and audio saving without Pro or Legacy, with the code and the plans table\'s words, before a byte is kept; with the plan it saves', async () => {
      for (const tier of ['none', 'essentials'] as const) {
        const token = h.tokenFor(randomUUID(), tier);
        const body = webmBody(5000);
        const audio = await call(VaultMediaRpc.startUpload, { type: 'audio', title: 'Voice', sha256: sha(body), size: body.length }, token).catch((e: DomainError) => e);
        expect(audio).toMatchObject({ code: 'UPGRADE_REQUIRED', message: 'Saving audio messages is part of the Pro and Legacy plans.' });
        const video = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Hello', sha256: sha(body), size: body.length }, token).catch((e: DomainError) => e);
        expect(video).toMatchObject({ code: 'UPGRADE_REQUIRED', message: MediaMessages.videoPlanRequired });
        // Nothing was opened or kept: the recordings list is empty.
        expect(await call(VaultMediaRpc.listRecordings, {}, token)).toEqual([]);
      }
      // The same owner, once on Pro, saves both.
      const owner = randomUUID();
      expect(await codeOf(call(VaultMediaRpc.startUpload, { type: 'video', title: 'Hello', sha256: sha(webmBody(5001)), size: 5001 }, h.tokenFor(owner, 'essentials')))).toBe('UPGRADE_REQUIRED');
      const pro = h.tokenFor(owner, 'pro');
      expect((await save(pro, webmBody(5001), 'video')).type).toBe('video');
      expect((await save(pro, webmBody(5002), 'audio', 'Voice')).type).toBe('audio');
      expect(await call(VaultMediaRpc.listRecordings, {}, pro)).toHaveLength(2);
      // Admins pass whatever their tier; audio is stored as audio/webm.
      const admin = h.tokenFor(randomUUID(), 'none', true);
      const voice = await save(admin, webmBody(4000), 'audio', 'Admin voice');
      expect(voice).toMatchObject({ type: 'audio', content_type: 'audio/webm' });
      expect(voice.file_path).toMatch(/\/audio_\d{13}\.webm$/);
    });
  });

  describe('feature gate per tier (the server decides, whatever the SPA shows)', () => {
    const body = webmBody(2000);
    const callers = [['none', false], ['essentials', false], ['pro', false], ['legacy', false], ['none', true]] as const;
    const outcomeFor = (collection: 'vault' | 'final-messages', type: 'video' | 'audio', tier: SubscriptionTier, admin: boolean) =>
      call(VaultMediaRpc.startUpload, { type, title: 'Gate', sha256: sha(body), size: body.length, collection }, h.tokenFor(randomUUID(), tier, admin)).then(() => 'OK', (e: DomainError) => e.code);

    it('video and audio saving: pro, legacy and admins (spec 02, section 9: Pro adds video and audio saving)', async () => {
      const outcomes = [];
      for (const [tier, admin] of callers) outcomes.push([`${tier}${admin ? ' admin' : ''}`, await outcomeFor('vault', 'audio', tier, admin), await outcomeFor('vault', 'video', tier, admin)]);
      expect(outcomes).toEqual([['none', 'UPGRADE_REQUIRED', 'UPGRADE_REQUIRED'], ['essentials', 'UPGRADE_REQUIRED', 'UPGRADE_REQUIRED'], ['pro', 'OK', 'OK'], ['legacy', 'OK', 'OK'], ['none admin', 'OK', 'OK']]);
    });

    it('final messages: pro, legacy and admins only', async () => {
      const outcomes = [];
      for (const [tier, admin] of callers) outcomes.push([`${tier}${admin ? ' admin' : ''}`, await outcomeFor('final-messages', 'video', tier, admin)]);
      expect(outcomes).toEqual([['none', 'UPGRADE_REQUIRED'], ['essentials', 'UPGRADE_REQUIRED'], ['pro', 'OK'], ['legacy', 'OK'], ['none admin', 'OK']]);
    });
  });

  describe('final messages', () => {
    const saveFinal = async (token: string, body: Buffer, title = 'For when I am gone') => {
      const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title, sha256: sha(body), size: body.length, collection: 'final-messages' }, token);
      const answer = await put(ticket, token, [body]);
      if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
      return answer.json<Recording>();
    };

    it('are for Pro, Legacy and admins: Essentials and free plans are refused before a byte is sent', async () => {
      const body = webmBody(3000);
      for (const tier of ['none', 'essentials'] as const) {
        const refused = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Final', sha256: sha(body), size: body.length, collection: 'final-messages' }, h.tokenFor(randomUUID(), tier)).catch((e: DomainError) => e);
        expect(refused).toMatchObject({ code: 'UPGRADE_REQUIRED', message: MediaMessages.finalMessagesPlanRequired });
      }
      expect((await saveFinal(h.tokenFor(randomUUID(), 'legacy'), webmBody(3001))).collection).toBe('final-messages');
      expect((await saveFinal(h.tokenFor(randomUUID(), 'none', true), webmBody(3002))).collection).toBe('final-messages');
      expect(await codeOf(call(VaultMediaRpc.startUpload, { type: 'video', title: 'Final', sha256: sha(body), size: body.length, collection: 'letters' }, aliceToken))).toBe('VALIDATION_FAILED');
    });

    it('are listed apart from the vault, counted nowhere else, and a second save of the same content is a duplicate', async () => {
      const user = randomUUID();
      const token = h.tokenFor(user, 'pro');
      const vault = await save(token, webmBody(2100), 'video', 'Everyday');
      const finalBody = webmBody(2200);
      const final = await saveFinal(token, finalBody, 'Goodbye, for now');
      expect((await call(VaultMediaRpc.listRecordings, {}, token)).map((r) => r.id)).toEqual([vault.id]);
      expect((await call(VaultMediaRpc.listRecordings, { collection: 'final-messages' }, token)).map((r) => [r.id, r.title])).toEqual([[final.id, 'Goodbye, for now']]);
      expect(await call(VaultMediaRpc.finalMessageTitles, {}, token)).toEqual([{ id: final.id, title: 'Goodbye, for now', created_at: final.created_at }]);
      expect(await call(VaultMediaRpc.stats, {}, token)).toMatchObject({ videosSaved: 1 });
      // The timeline's title lookup does not answer for a final message.
      expect(await call(VaultMediaRpc.titles, { ids: [final.id, vault.id] }, token)).toEqual({ titles: { [vault.id]: 'Everyday' }, playback: {} });
      const again = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Again', sha256: sha(finalBody), size: finalBody.length, collection: 'final-messages' }, token).catch((e: DomainError) => e);
      expect(again).toMatchObject({ code: 'DUPLICATE_MEDIA', message: MediaMessages.duplicate });
      // Another owner's final messages are not listed, and deleting one is the owner's alone.
      expect(await call(VaultMediaRpc.listRecordings, { collection: 'final-messages' }, bobToken)).toEqual([]);
      expect(await codeOf(call(VaultMediaRpc.deleteEntry, { id: final.id }, bobToken))).toBe('NOT_FOUND');
      expect(await call(VaultMediaRpc.deleteEntry, { id: final.id }, token)).toEqual({ id: final.id, deleted: true });
      expect(await call(VaultMediaRpc.finalMessageTitles, {}, token)).toEqual([]);
    });
  });

  describe('Who I Am: the profile photo and personal media', () => {
    const png = (size: number) => {
      const body = randomBytes(size);
      body.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
      return body;
    };
    const mp3 = (size: number) => Buffer.concat([Buffer.from('ID3', 'latin1'), randomBytes(size - 3)]);
    async function upload(token: string, body: Buffer, request: { type: string; title: string; collection: string; contentType: string }) {
      const ticket = await call(VaultMediaRpc.startUpload, { ...request, sha256: sha(body), size: body.length }, token);
      return { ticket, answer: await put(ticket, token, [body]) };
    }

    it('keeps one profile photo: a new one replaces the old (its object goes), and only images are taken', async () => {
      const token = h.tokenFor(randomUUID(), 'essentials');
      const first = await upload(token, png(4000), { type: 'image', title: 'Profile photo', collection: 'who-i-am-photo', contentType: 'image/png' });
      expect(first.answer.status).toBe(201);
      expect(first.ticket.objectKey).toMatch(/\/image_\d{13}\.png$/);
      expect(first.answer.json<Recording>()).toMatchObject({ type: 'image', content_type: 'image/png', collection: 'who-i-am-photo' });
      const second = await upload(token, png(5000), { type: 'image', title: 'Profile photo', collection: 'who-i-am-photo', contentType: 'image/png' });
      expect(second.answer.status).toBe(201);
      expect((await call(VaultMediaRpc.listRecordings, { collection: 'who-i-am-photo' }, token)).map((r) => r.id)).toEqual([second.ticket.uploadId]);
      await waitFor(async () => !(await objectExists(first.ticket.objectKey)), 5000, 'the replaced photo’s object removed');
      expect(await objectExists(second.ticket.objectKey)).toBe(true);

      const refused = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Profile photo', collection: 'who-i-am-photo', contentType: 'video/mp4', sha256: 'e'.repeat(64), size: 10 }, token).catch((e: DomainError) => e);
      expect(refused).toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: MediaMessages.photoMustBeImage });
      // Neither the timeline nor the stats count it.
      expect(await call(VaultMediaRpc.stats, {}, token)).toMatchObject({ videosSaved: 0 });
    });

    it('takes images, video and audio files as personal media, checked by their first bytes, and retitles and deletes them', async () => {
      const token = h.tokenFor(randomUUID(), 'essentials');
      const song = await upload(token, mp3(3000), { type: 'audio', title: 'Our song', collection: 'who-i-am', contentType: 'audio/mpeg' });
      expect(song.answer.status).toBe(201);
      expect(song.ticket.objectKey).toMatch(/\/audio_\d{13}\.mp3$/);
      // A file whose bytes are not the format it claims: 415 before anything is kept.
      const liar = await upload(token, png(3000), { type: 'audio', title: 'Not a song', collection: 'who-i-am', contentType: 'audio/mpeg' });
      expect(liar.answer.status).toBe(415);
      expect(liar.answer.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: MediaMessages.notTheAnnouncedFormat });
      expect(await objectExists(liar.ticket.objectKey)).toBe(false);
      // A format Who I Am does not take at all.
      const pdf = await call(VaultMediaRpc.startUpload, { type: 'image', title: 'Scan', collection: 'who-i-am', contentType: 'application/pdf', sha256: 'f'.repeat(64), size: 10 }, token).catch((e: DomainError) => e);
      expect(pdf).toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: MediaMessages.unsupportedFile });
      // The same picture may be the photo and a personal image; twice in personal media it is a duplicate.
      const picture = png(2500);
      expect((await upload(token, picture, { type: 'image', title: 'Me', collection: 'who-i-am-photo', contentType: 'image/png' })).answer.status).toBe(201);
      expect((await upload(token, picture, { type: 'image', title: 'Me at the beach', collection: 'who-i-am', contentType: 'image/png' })).answer.status).toBe(201);
      const again = await call(VaultMediaRpc.startUpload, { type: 'image', title: 'Again', collection: 'who-i-am', contentType: 'image/png', sha256: sha(picture), size: picture.length }, token).catch((e: DomainError) => e);
      expect(again).toMatchObject({ code: 'DUPLICATE_MEDIA' });

      const retitled = await call(VaultMediaRpc.retitle, { id: song.ticket.uploadId, title: '  Our song, always  ' }, token);
      expect(retitled).toMatchObject({ id: song.ticket.uploadId, title: 'Our song, always' });
      expect(await codeOf(call(VaultMediaRpc.retitle, { id: song.ticket.uploadId, title: '   ' }, token))).toBe('VALIDATION_FAILED');
      expect(await codeOf(call(VaultMediaRpc.retitle, { id: song.ticket.uploadId, title: 'Mine now' }, bobToken))).toBe('NOT_FOUND');
      expect((await call(VaultMediaRpc.portraitMediaTitles, {}, token)).map((e) => e.title).sort()).toEqual(['Me at the beach', 'Our song, always', 'Profile photo']);
      expect(await call(VaultMediaRpc.deleteEntry, { id: song.ticket.uploadId }, token)).toEqual({ id: song.ticket.uploadId, deleted: true });
      expect((await call(VaultMediaRpc.listRecordings, { collection: 'who-i-am' }, token)).map((r) => r.title)).toEqual(['Me at the beach']);
    });
  });

  describe('owner scoping and playback', () => {
    let recording: Recording;
    let body: Buffer;
    let grant: PlaybackGrant;

    beforeAll(async () => {
      body = webmBody(256 * 1024);
      recording = await save(aliceToken, body, 'video', 'For Bob to never see');
      grant = await call(VaultMediaRpc.playbackLink, { id: recording.id }, aliceToken);
    });

    const play = (url: string, binding: string | undefined, range?: string) =>
      sendHttp(`${h.mediaUrl}${url.replace('/api/media/play/', '/media/')}`, { headers: { ...(binding ? { 'x-lv-media-binding': binding } : {}), ...(range ? { range } : {}) } });

    it('gives another user "not found" for the id, whatever they try', async () => {
      expect(await call(VaultMediaRpc.listRecordings, {}, bobToken).then((l) => l.map((r) => r.id))).not.toContain(recording.id);
      expect(await codeOf(call(VaultMediaRpc.playbackLink, { id: recording.id }, bobToken))).toBe('NOT_FOUND');
      expect(await codeOf(call(VaultMediaRpc.deleteEntry, { id: recording.id }, bobToken))).toBe('NOT_FOUND');
      expect(await call(VaultMediaRpc.titles, { ids: [recording.id] }, bobToken)).toEqual({ titles: {}, playback: {} });
      const bobsTicket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Bob', sha256: sha(webmBody(10)), size: 10 }, bobToken);
      expect((await put(bobsTicket, aliceToken, [webmBody(10)])).status).toBe(404);
    });

    it('signs links for 3600 s and serves the whole file to the owner', async () => {
      expect(grant.url).toMatch(new RegExp(`^/api/media/play/${recording.id}\\?u=${alice}&exp=\\d+&sig=[\\w-]+$`));
      expect(grant.expiresAt - Date.now()).toBeGreaterThan(3590_000);
      expect(grant.expiresAt - Date.now()).toBeLessThanOrEqual(3600_000);
      expect(grant.binding.maxAgeSeconds).toBe(3600);
      const full = await play(grant.url, grant.binding.value);
      expect(full.status).toBe(200);
      expect(full.headers).toMatchObject({ 'content-type': 'video/webm', 'accept-ranges': 'bytes', 'content-length': String(body.length) });
      expect(sha(full.body)).toBe(sha(body));
    });

    it('answers Range requests with 206 and the right bytes (seeking), and 416 past the end', async () => {
      const first = await play(grant.url, grant.binding.value, 'bytes=0-99');
      expect(first.status).toBe(206);
      expect(first.headers['content-range']).toBe(`bytes 0-99/${body.length}`);
      expect(first.body).toEqual(body.subarray(0, 100));
      const middle = await play(grant.url, grant.binding.value, 'bytes=100000-');
      expect(middle.status).toBe(206);
      expect(middle.headers['content-range']).toBe(`bytes 100000-${body.length - 1}/${body.length}`);
      expect(middle.body).toEqual(body.subarray(100000));
      const tail = await play(grant.url, grant.binding.value, 'bytes=-10');
      expect(tail.body).toEqual(body.subarray(body.length - 10));
      const past = await play(grant.url, grant.binding.value, `bytes=${body.length}-`);
      expect(past.status).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${body.length}`);
    });

    it('refuses an expired, altered or foreign link with 403', async () => {
      const bobsBinding = (await call(VaultMediaRpc.playbackLink, { id: (await save(bobToken, webmBody(2000))).id }, bobToken)).binding.value;
      // Foreign: Bob presents Alice's link, or nobody is bound at all.
      expect((await play(grant.url, bobsBinding)).status).toBe(403);
      expect((await play(grant.url, undefined)).status).toBe(403);
      // Altered: another recording, owner or expiry under the same signature.
      const other = await save(aliceToken, webmBody(3000));
      expect((await play(grant.url.replace(recording.id, other.id), grant.binding.value)).status).toBe(403);
      expect((await play(grant.url.replace(`u=${alice}`, `u=${bob}`), bobsBinding)).status).toBe(403);
      expect((await play(grant.url.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 60}`), grant.binding.value)).status).toBe(403);
      // Expired: signed an hour and a second ago with the service's own secret.
      const { MediaLinkSigner } = await import('../src/playback/media-links.js');
      const past = new MediaLinkSigner(MEDIA_LINK_SECRET, 3600, () => Date.now() - 3601_000);
      const expired = await play(past.signLink(alice, recording.id).url, grant.binding.value);
      expect(expired.status).toBe(403);
      expect(expired.json()).toEqual({ code: 'FORBIDDEN', message: MediaMessages.linkInvalid });
      // A nobody with a well-formed binding for themselves gets nothing either.
      const nobodyBinding = new MediaLinkSigner(MEDIA_LINK_SECRET).signBinding(nobody, 'sess-1').value;
      expect((await play(grant.url, nobodyBinding)).status).toBe(403);
    });

    it('refuses a link once its owner has signed out (the session revoked), and a binding cookie past its expiry', async () => {
      const { RevokedSessions } = await import('@lv/platform/auth');
      const { MediaLinkSigner } = await import('../src/playback/media-links.js');
      const sessionOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;
      const denied = async (answer: Promise<{ status: number; json(): unknown }>) => {
        const a = await answer;
        return { status: a.status, body: a.status === 403 ? a.json() : undefined };
      };
      const refused = { status: 403, body: { code: 'FORBIDDEN', message: MediaMessages.linkInvalid } };

      // Signed out: the link and its cookie are intact and current, but their session is revoked.
      const carol = randomUUID();
      const carolToken = h.tokenFor(carol, 'pro');
      const carols = await save(carolToken, webmBody(3000), 'video', 'Before signing out');
      const carolsGrant = await call(VaultMediaRpc.playbackLink, { id: carols.id }, carolToken);
      expect((await play(carolsGrant.url, carolsGrant.binding.value)).status).toBe(200);
      await new RevokedSessions(h.resources.redis).revoke(sessionOf(carolToken));
      expect(await denied(play(carolsGrant.url, carolsGrant.binding.value))).toEqual(refused);

      // Expired cookie: a current link, with the owner's binding signed an hour and a second ago.
      const dave = randomUUID();
      const daveToken = h.tokenFor(dave, 'pro');
      const daves = await save(daveToken, webmBody(3000), 'video', 'Old cookie');
      const davesGrant = await call(VaultMediaRpc.playbackLink, { id: daves.id }, daveToken);
      const staleBinding = new MediaLinkSigner(MEDIA_LINK_SECRET, 3600, () => Date.now() - 3601_000).signBinding(dave, sessionOf(daveToken)).value;
      expect(await denied(play(davesGrant.url, staleBinding))).toEqual(refused);
      expect((await play(davesGrant.url, davesGrant.binding.value)).status).toBe(200);
    });

    it('deletes: the object and the recording go, the link then finds nothing, the stats drop', async () => {
      const before = await call(VaultMediaRpc.stats, {}, aliceToken);
      expect(await codeOf(call(VaultMediaRpc.deleteEntry, { id: 'not-an-id' }, aliceToken))).toBe('VALIDATION_FAILED');
      expect(await call(VaultMediaRpc.deleteEntry, { id: recording.id }, aliceToken)).toEqual({ id: recording.id, deleted: true });
      expect(await objectExists(recording.file_path)).toBe(false);
      expect(await call(VaultMediaRpc.titles, { ids: [recording.id] }, aliceToken)).toEqual({ titles: {}, playback: {} });
      expect((await call(VaultMediaRpc.listRecordings, {}, aliceToken)).map((e) => e.id)).not.toContain(recording.id);
      const gone = await play(grant.url, grant.binding.value);
      expect(gone.status).toBe(404);
      expect(gone.json()).toEqual({ code: 'NOT_FOUND', message: MediaMessages.fileNotFound });
      // Her delete sent again (its answer lost) is answered as the delete was; to anyone else it is still not found.
      expect(await call(VaultMediaRpc.deleteEntry, { id: recording.id }, aliceToken)).toEqual({ id: recording.id, deleted: true });
      expect(await codeOf(call(VaultMediaRpc.deleteEntry, { id: recording.id }, bobToken))).toBe('NOT_FOUND');
      const after = await call(VaultMediaRpc.stats, {}, aliceToken);
      expect(after.videosSaved).toBe(before.videosSaved! - 1);
      // The same recording may be saved again once deleted.
      expect(await codeOf(save(aliceToken, body))).toBe('OK');
    });
  });

  describe('stats', () => {
    it('counts video and audio messages and the days they were saved', async () => {
      const user = randomUUID();
      const token = h.tokenFor(user, 'legacy');
      expect(await call(VaultMediaRpc.stats, {}, token)).toEqual({ videosSaved: 0, activeDays: [] });
      await save(token, webmBody(1000), 'video');
      await save(token, webmBody(1000), 'audio');
      const today = new Date().toISOString().slice(0, 10);
      expect(await call(VaultMediaRpc.stats, {}, token)).toEqual({ videosSaved: 2, activeDays: [today] });
    });
  });

  describe('titles (the timeline service’s batch lookup)', () => {
    it('answers for the caller’s own recordings only, omits unknown and malformed ids, and takes at most 500 ids', async () => {
      const user = randomUUID();
      const token = h.tokenFor(user, 'pro');
      const mine = await save(token, webmBody(1500), 'video', 'Mine to title');
      const unknown = randomUUID();
      expect(await call(VaultMediaRpc.titles, { ids: [mine.id.toUpperCase(), unknown, 'not-an-id'] }, token)).toEqual({ titles: { [mine.id]: 'Mine to title' }, playback: {} });
      expect(await codeOf(call(VaultMediaRpc.titles, { ids: [mine.id] }))).toBe('UNAUTHENTICATED');
      expect(await codeOf(call(VaultMediaRpc.titles, { ids: Array.from({ length: 501 }, () => randomUUID()) }, token))).toBe('VALIDATION_FAILED');
      // A letter's id (or anything that is not a recording of the caller's) is not found here: the
      // gateway tells the owner a letter is deleted in Letters.
      expect(await codeOf(call(VaultMediaRpc.deleteEntry, { id: unknown }, token))).toBe('NOT_FOUND');
    });
  });

  describe('rebuild', () => {
    it('rebuilds the recordings read model from the log to the same rows, deleted recordings staying deleted', async () => {
      // Its own recordings (video, audio, one deleted) besides whatever earlier tests saved.
      const user = randomUUID();
      const token = h.tokenFor(user, 'pro');
      const kept = await save(token, webmBody(3000), 'video', 'Rebuilt');
      await save(token, webmBody(2500), 'audio', 'Rebuilt voice');
      const deleted = await save(token, webmBody(2000), 'video', 'Deleted before the rebuild');
      await call(VaultMediaRpc.deleteEntry, { id: deleted.id }, token);
      const rows = (table: string, order: string) => h.db.orm.em.fork().execute<Record<string, unknown>[]>(`select * from ${table} order by ${order}`);

      const recordingsBefore = await rows('recordings', 'id');
      const objectsBefore = await rows('media_objects', 'recording_id');
      expect(recordingsBefore.filter((r) => r.user_id === user).map((r) => r.id)).toContain(kept.id);
      expect(recordingsBefore.map((r) => r.id)).not.toContain(deleted.id);
      expect(recordingsBefore.length).toBeGreaterThan(3);

      const reports = await h.service.rebuildProjections();
      expect(reports.map((r) => r.projection)).toContain('recordings');
      expect(await rows('recordings', 'id')).toEqual(recordingsBefore);
      // Upload bookkeeping is not a projection: a rebuild leaves it as it was.
      expect(await rows('media_objects', 'recording_id')).toEqual(objectsBefore);
    });
  });

  describe('media-hashing job', () => {
    it('is enqueued from the outbox once per recording, idempotent by job id, with retries and backoff', async () => {
      const recording = await save(aliceToken, webmBody(10_000), 'video', 'Queued');
      const queue = h.resources.hashingQueue;
      await waitFor(async () => Boolean(await queue.getJob(recording.id)), 15_000, 'the media-hashing job');
      const job = (await queue.getJob(recording.id))!;
      expect(job.data).toMatchObject({ mediaId: recording.id, bucket: 'vaultmedia', key: recording.file_path });
      expect(job.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential', delay: 1000 } });
      const { enqueue } = await import('@lv/platform/queues');
      await enqueue(queue, job.data, recording.id);
      await enqueue(queue, job.data, recording.id);
      const all = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
      expect(all.filter((j) => j.id === recording.id)).toHaveLength(1);
    });
  });

  it('closes uploads whose body never finishes, when the sweeper finds them stale', async () => {
    const body = webmBody(8 * MiB);
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title: 'Stalled', sha256: sha(body), size: body.length }, aliceToken);
    // 6 MiB arrive (a 5 MiB part is stored), then the client stops sending without closing.
    const req = sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${aliceToken}`, 'content-type': 'video/webm', 'content-length': String(body.length) }, chunks: [body.subarray(0, 6 * MiB)] });
    await waitFor(async () => {
      const [row] = await h.db.orm.em.fork().execute<{ multipart_upload_id: string | null }[]>('select multipart_upload_id from media_objects where recording_id = ?', [ticket.uploadId]);
      return Boolean(row?.multipart_upload_id);
    }, 10_000, 'the multipart upload to start');
    expect(await leftoverParts()).toHaveLength(1);
    // Not stale yet: the sweeper leaves a live upload alone.
    expect(await h.service.sweep()).toEqual({ abandoned: 0, removed: 0 });
    await h.db.orm.em.fork().execute(`update media_objects set last_activity_at = now() - interval '1 hour' where recording_id = ?`, [ticket.uploadId]);
    expect((await h.service.sweep()).abandoned).toBe(1);
    expect(await leftoverParts()).toEqual([]);
    expect(await objectExists(ticket.objectKey)).toBe(false);
    expect(await uploadState(ticket.uploadId)).toBe('removed');
    expect((await call(VaultMediaRpc.listRecordings, { limit: 100 }, aliceToken)).map((r) => r.id)).not.toContain(ticket.uploadId);
    req.catch(() => undefined);
  });
});
