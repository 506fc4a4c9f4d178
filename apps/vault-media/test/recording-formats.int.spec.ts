// Recordings as each browser makes them: WebM (Chromium, Firefox) and MP4 (Safari), made by ffmpeg in
// the spec, saved through vault-media booted in-process on the machine's PostgreSQL, NATS and Redis
// and the embedded S3 server, and played back to their owner.
import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { MediaMessages, VaultMediaRpc, type Recording, type RpcDeclaration, type UploadTicket } from '@lv/contracts';
import { sendHttp, startVaultMedia, type Harness } from './test-support/harness.js';
import { makeMedia } from './test-support/made-media.js';

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('vault-media: WebM and MP4 recordings, checked by their bytes', () => {
  let h: Harness;
  let token: string;
  const owner = randomUUID();

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });
  const put = (ticket: UploadTicket, body: Buffer) =>
    sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
  const open = (type: 'video' | 'audio', body: Buffer, contentType: string) =>
    call(VaultMediaRpc.startUpload, { type, title: `A ${contentType} message`, sha256: sha(body), size: body.length, contentType });
  const objectExists = (key: string) => h.resources.storage.client.statObject('vaultmedia', key).then(() => true, () => false);

  /** The owner's playback of a saved recording: its link, then the bytes with the binding. */
  async function play(recording: Recording) {
    const grant = await call(VaultMediaRpc.playbackLink, { id: recording.id });
    return sendHttp(`${h.mediaUrl}${grant.url.replace('/api/media/play/', '/media/')}`, { headers: { 'x-lv-media-binding': grant.binding.value } });
  }

  beforeAll(async () => {
    h = await startVaultMedia('mediaformats');
    token = h.tokenFor(owner, 'pro');
  });

  afterAll(async () => {
    await h?.resources.hashingQueue.obliterate({ force: true }).catch(() => undefined);
    await h?.close();
  });

  it.each([
    { made: 'mp4-video', type: 'video', announced: 'video/mp4;codecs="avc1.42E01E, mp4a.40.2"', stored: 'video/mp4', extension: 'mp4' },
    { made: 'm4a-audio', type: 'audio', announced: 'audio/mp4', stored: 'audio/mp4', extension: 'm4a' },
    { made: 'webm-video', type: 'video', announced: 'video/webm;codecs=vp8,opus', stored: 'video/webm', extension: 'webm' },
  ] as const)('keeps a $made recording as $stored under .$extension, and plays it back as such, byte for byte', async ({ made, type, announced, stored, extension }) => {
    const body = await makeMedia(made);
    const ticket = await open(type, body, announced);
    expect(ticket.contentType).toBe(stored);
    expect(ticket.objectKey).toMatch(new RegExp(`^${owner}/${type}_\\d{13}\\.${extension}$`));

    const answer = await put(ticket, body);
    expect(answer.status).toBe(201);
    const recording = answer.json<Recording>();
    expect(recording).toMatchObject({ type, content_type: stored, file_path: ticket.objectKey, size: body.length, blob_hash: sha(body) });
    expect((await h.resources.storage.client.statObject('vaultmedia', ticket.objectKey)).metaData['content-type']).toBe(stored);

    const played = await play(recording);
    expect(played.status).toBe(200);
    expect(played.headers['content-type']).toBe(stored);
    expect(sha(played.body)).toBe(sha(body));
  });

  it('refuses a recording whose bytes are not the format it announced (415), before anything reaches storage', async () => {
    // Two seconds: ffmpeg makes the same bytes for the same input, and the one-second ones are saved above.
    const mp4 = await makeMedia('mp4-video', 2);
    const webm = await makeMedia('webm-video', 2);
    const cases = [
      { type: 'video', body: mp4, announced: 'video/webm', message: MediaMessages.notARecording },
      { type: 'video', body: webm, announced: 'video/mp4', message: MediaMessages.notTheAnnouncedFormat },
      { type: 'audio', body: Buffer.from('ID3\u0004 an mp3 is not an m4a, whatever its name says'), announced: 'audio/mp4', message: MediaMessages.notTheAnnouncedFormat },
    ] as const;
    for (const { type, body, announced, message } of cases) {
      const ticket = await open(type, body, announced);
      const answer = await put(ticket, body);
      expect({ announced, status: answer.status, body: answer.json() }).toEqual({ announced, status: 415, body: { code: 'UNSUPPORTED_MEDIA', message } });
      expect(await objectExists(ticket.objectKey)).toBe(false);
    }
  });

  it('refuses a recording announced in a format recordings do not come in, before a byte is sent', async () => {
    const body = await makeMedia('mp4-video');
    for (const contentType of ['video/quicktime', 'audio/mpeg', 'image/jpeg']) {
      await expect(open('video', body, contentType)).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA', message: MediaMessages.notARecording });
    }
  });
});
