import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { CommunityMessages, MUSIC_BUCKET, VaultMediaRpc, type LibraryTrack, type MusicTrack, type MusicUploadTicket, type PlaybackGrant, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { sendHttp, startVaultMedia, type Harness } from './test-support/harness.js';

// The Parent Circle's music library in vault-media, against real PostgreSQL, NATS, Redis and the S3
// server: a fresh library is empty; operators add tracks over the byte listener (magic bytes, size
// and SHA-256 checked); Pro and Legacy members and admins list and play them through links bound to
// them; everyone else is refused.

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
/** An MP3 as players find it: an ID3v2 tag header, then frames (here noise after an MPEG frame sync). */
const mp3 = (size = 40_000) => Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0]), Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(size - 14)]);
const wav = () => {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + 8000, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  return Buffer.concat([header, randomBytes(8000)]);
};
const m4a = () => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A \0\0\0\0M4A mp42isom', 'latin1'), randomBytes(6000)]);

describe('music library (vault-media, real services)', () => {
  let h: Harness;
  let operator: string;
  const member = randomUUID();
  const another = randomUUID();
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const codeOf = (p: Promise<unknown>) => p.then(() => 'OK', (e: DomainError) => e.code);
  const objectExists = (key: string) => h.resources.storage.client.statObject(MUSIC_BUCKET, key).then(() => true, () => false);

  async function add(fileName: string, body: Buffer, options: { title?: string; token?: string; announced?: Buffer } = {}) {
    const announced = options.announced ?? body;
    const ticket = (await call(VaultMediaRpc.musicStartUpload, { fileName, size: announced.length, sha256: sha(announced), ...(options.title ? { title: options.title } : {}) }, operator)) as MusicUploadTicket;
    const answer = await sendHttp(`${h.mediaUrl}${ticket.uploadPath}`, { method: 'PUT', headers: { authorization: `Bearer ${options.token ?? operator}`, 'content-type': ticket.contentType }, chunks: [body] });
    return { ticket, answer };
  }
  const library = async () => (await call(VaultMediaRpc.musicLibrary, {}, operator)) as LibraryTrack[];

  beforeAll(async () => {
    h = await startVaultMedia('musiclib');
    operator = signOperatorToken(new AccessTokenSigner(h.keys.privateKey), 'spec');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('starts empty, and lists only for Pro, Legacy and admins: others get the spec’s upgrade text', async () => {
    expect(await call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, 'pro'))).toEqual([]);
    expect(await call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, 'legacy'))).toEqual([]);
    expect(await call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, 'none', true))).toEqual([]);
    for (const tier of ['none', 'essentials'] as const) {
      await expect(call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, tier))).rejects.toMatchObject({ code: 'UPGRADE_REQUIRED', message: CommunityMessages.upgrade });
    }
    expect(await codeOf(call(VaultMediaRpc.musicTracks, {}))).toBe('UNAUTHENTICATED');
    // Members never reach the operators' commands.
    expect(await codeOf(call(VaultMediaRpc.musicStartUpload, { fileName: 'a.mp3', size: 10, sha256: 'a'.repeat(64) }, h.tokenFor(member, 'pro', true)))).toBe('FORBIDDEN');
    expect(await codeOf(call(VaultMediaRpc.musicRemove, { track: 'a.mp3' }, h.tokenFor(member, 'pro', true)))).toBe('FORBIDDEN');
  });

  it('adds an mp3 through the byte listener: title and category from its name, bytes whole in the bucket', async () => {
    const body = mp3();
    const { ticket, answer } = await add('/home/ops/motivation-rise-up.mp3', body);
    expect(ticket.contentType).toBe('audio/mpeg');
    expect(answer.status).toBe(201);
    const track = answer.json<MusicTrack>();
    expect(track).toEqual({ id: ticket.trackId, title: 'Rise Up', category: 'motivation', fileName: 'motivation-rise-up.mp3' });
    const [kept] = await library();
    expect(kept).toMatchObject({ id: track.id, size: body.length, sha256: sha(body), contentType: 'audio/mpeg' });
    expect(await objectExists(kept!.objectKey)).toBe(true);
    expect(await call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, 'pro'))).toEqual([track]);
  });

  it('takes wav and m4a by their headers, and the operator’s own title', async () => {
    expect((await add('meditation_evening.wav', wav())).answer.status).toBe(201);
    const voice = await add('voice-from-a-dad.m4a', m4a(), { title: 'From one dad to another' });
    expect(voice.answer.json<MusicTrack>()).toMatchObject({ title: 'From one dad to another', category: 'voice' });
    const tracks = (await call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, 'legacy'))) as MusicTrack[];
    expect(tracks.map((t) => [t.category, t.title])).toEqual([['meditation', 'Evening'], ['motivation', 'Rise Up'], ['voice', 'From one dad to another']]);
  });

  it('refuses other files, a name already in the library, bytes that are not the announced audio or not the announced file, and a member’s token', async () => {
    await expect(call(VaultMediaRpc.musicStartUpload, { fileName: 'song.ogg', size: 10, sha256: 'a'.repeat(64) }, operator)).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: CommunityMessages.notAudioFile });
    await expect(call(VaultMediaRpc.musicStartUpload, { fileName: 'Motivation-Rise-Up.MP3', size: 10, sha256: 'a'.repeat(64) }, operator)).rejects.toMatchObject({ code: 'CONFLICT' });

    // A WAV named .mp3: refused on its first bytes, nothing kept.
    const disguised = await add('lullaby.mp3', wav());
    expect(disguised.answer.status).toBe(415);
    expect(disguised.answer.json<{ message: string }>().message).toBe(CommunityMessages.notTheAudioFormat);
    // Bytes that are not what was announced (the hash differs).
    const other = mp3(5000);
    const swapped = await add('lullaby-two.mp3', mp3(5000), { announced: other });
    expect(swapped.answer.status).toBe(400);
    // A member's token on the byte listener.
    const forged = await add('lullaby-three.mp3', mp3(3000), { token: h.tokenFor(member, 'pro', true) });
    expect(forged.answer.status).toBe(403);

    const names = (await library()).map((t) => t.fileName);
    expect(names).not.toContain('lullaby.mp3');
    expect(names).not.toContain('lullaby-two.mp3');
    const rows = await h.resources.orm.em.fork().execute<{ file_name: string; status: string; object_key: string }[]>(`select file_name, status, object_key from music_tracks where file_name like 'lullaby%' order by file_name`);
    expect(rows.map((r) => [r.file_name, r.status])).toEqual([['lullaby-three.mp3', 'uploading'], ['lullaby-two.mp3', 'removed'], ['lullaby.mp3', 'removed']]);
    for (const row of rows) expect(await objectExists(row.object_key)).toBe(false);
    // The name of a refused file is free again.
    expect((await add('lullaby.mp3', mp3(2000))).answer.status).toBe(201);
  });

  it('plays a track through a link bound to the member who asked for it, and to nobody else', async () => {
    const [track] = (await library()).filter((t) => t.fileName === 'motivation-rise-up.mp3');
    const grant = (await call(VaultMediaRpc.musicPlaybackLink, { id: track!.id }, h.tokenFor(member, 'pro'))) as PlaybackGrant;
    expect(grant.url).toMatch(new RegExp(`^/api/media/play/music/${track!.id}\\?u=${member}&exp=\\d+&sig=`));
    const play = (url: string, binding?: string, range?: string) =>
      sendHttp(`${h.mediaUrl}${url.replace('/api/media/play/music/', '/music/')}`, { headers: { ...(binding ? { 'x-lv-media-binding': binding } : {}), ...(range ? { range } : {}) } });

    const full = await play(grant.url, grant.binding.value);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('audio/mpeg');
    expect(sha(full.body)).toBe(track!.sha256);
    const part = await play(grant.url, grant.binding.value, 'bytes=0-9');
    expect(part.status).toBe(206);
    expect(part.body.subarray(0, 3).toString('latin1')).toBe('ID3');

    expect((await play(grant.url)).status).toBe(403);
    const othersBinding = ((await call(VaultMediaRpc.musicPlaybackLink, { id: track!.id }, h.tokenFor(another, 'legacy'))) as PlaybackGrant).binding.value;
    expect((await play(grant.url, othersBinding)).status).toBe(403);
    expect((await play(grant.url.replace(/sig=[^&]+/, 'sig=forged'), grant.binding.value)).status).toBe(403);
    // A track's link is not a recording's: the recordings' route refuses it.
    const asRecording = await sendHttp(`${h.mediaUrl}${grant.url.replace('/api/media/play/music/', '/media/')}`, { headers: { 'x-lv-media-binding': grant.binding.value } });
    expect(asRecording.status).toBe(403);

    for (const tier of ['none', 'essentials'] as const) expect(await codeOf(call(VaultMediaRpc.musicPlaybackLink, { id: track!.id }, h.tokenFor(member, tier)))).toBe('UPGRADE_REQUIRED');
    expect(await codeOf(call(VaultMediaRpc.musicPlaybackLink, { id: randomUUID() }, h.tokenFor(member, 'pro')))).toBe('NOT_FOUND');
  });

  it('removes a track by file name: it leaves the playlist, its bytes go, and its link stops working', async () => {
    const [track] = (await library()).filter((t) => t.fileName === 'lullaby.mp3');
    const grant = (await call(VaultMediaRpc.musicPlaybackLink, { id: track!.id }, h.tokenFor(member, 'pro'))) as PlaybackGrant;
    expect(await call(VaultMediaRpc.musicRemove, { track: 'LULLABY.mp3' }, operator)).toEqual({ id: track!.id, fileName: 'lullaby.mp3', removed: true });
    expect(((await call(VaultMediaRpc.musicTracks, {}, h.tokenFor(member, 'pro'))) as MusicTrack[]).map((t) => t.id)).not.toContain(track!.id);
    expect(await objectExists(track!.objectKey)).toBe(false);
    const answer = await sendHttp(`${h.mediaUrl}${grant.url.replace('/api/media/play/music/', '/music/')}`, { headers: { 'x-lv-media-binding': grant.binding.value } });
    expect(answer.status).toBe(404);
    expect(await codeOf(call(VaultMediaRpc.musicRemove, { track: track!.id }, operator))).toBe('NOT_FOUND');
  });

  it('sweeps an upload whose sender went away, and rebuilds the library from its streams', async () => {
    // lullaby-three.mp3 was opened and never completed (its bytes were refused): stale at once here.
    const { MusicLibrary } = await import('../src/music/music-library.js');
    const music = h.app.get(MusicLibrary);
    expect((await music.sweep(0)).abandoned).toBe(1);
    const before = await library();
    await call(VaultMediaRpc.rebuildProjections, {}, operator);
    expect(await library()).toEqual(before);
  });
});
