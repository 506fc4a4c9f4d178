import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import { compileForChildProcess, startChild, waitFor, type ChildService } from '@lv/testing';
import { REDIS_URL, NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';
import { makeMedia } from './test-support/made-media.js';

// The media-transcoding job end to end: vault-media (in-process) enqueues it from its outbox for each
// saved video or audio item; the real worker (apps/worker, compiled to a scratch directory and run as
// a child process) streams the original from storage, makes the playback copy and poster with ffmpeg
// and reports back over NATS. Media made by ffmpeg in the spec, never a binary fixture; the copies are
// checked with ffprobe.

jest.setTimeout(240_000);

const run = promisify(execFile);
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
const SECONDS = 2;

interface Probed { streams: { codec_type: string; codec_name: string }[]; format: { duration: string; format_name: string; tags?: Record<string, string> } }

describe('media-transcoding (vault-media in-process, the worker as a child process)', () => {
  let h: Harness;
  let worker: ChildService | undefined;
  let scratchDir: string | undefined;
  let probeDir: string;
  const owner = randomUUID();
  let token: string;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) => h.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'spec' } });

  async function save(body: Buffer, contentType: string, title: string, type: 'video' | 'audio' = 'video'): Promise<Recording> {
    const ticket = await call(VaultMediaRpc.startUpload, { type, title, sha256: sha(body), size: body.length, contentType });
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    expect(answer.status).toBe(201);
    return answer.json<Recording>();
  }
  const listed = async (id: string) => (await call(VaultMediaRpc.listRecordings, { limit: 100 })).find((r) => r.id === id);

  /** The owner's playback of a recording, with the link's own query and `extra` (original=1, poster=1). */
  async function play(recording: Recording, extra = '', range?: string) {
    const grant = await call(VaultMediaRpc.playbackLink, { id: recording.id });
    return sendHttp(`${h.mediaUrl}${grant.url.replace('/api/media/play/', '/media/')}${extra}`, {
      headers: { 'x-lv-media-binding': grant.binding.value, ...(range ? { range } : {}) },
    });
  }

  async function probe(bytes: Buffer, name: string): Promise<Probed> {
    const file = join(probeDir, name);
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
    return JSON.parse(stdout) as Probed;
  }

  beforeAll(async () => {
    const [harness, scratch] = await Promise.all([startVaultMedia('transcoding'), compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/worker'], 'worker-transcode-spec')]);
    h = harness;
    scratchDir = scratch;
    probeDir = await mkdtemp(join(tmpdir(), 'lv-transcode-probe-'));
    token = h.tokenFor(owner, 'pro');
    worker = startChild(join(scratch, 'apps', 'worker', 'main.js'), [], {
      NATS_URL, REDIS_URL, STACK_ID: h.stackId, JWT_PUBLIC_KEY: h.keys.publicKey, LOG_LEVEL: 'info',
      S3_ENDPOINT: h.s3.endpoint, S3_ACCESS_KEY: h.s3.accessKey, S3_SECRET_KEY: h.s3.secretKey, MEDIA_TRANSCODING_CONCURRENCY: '2',
    });
    await worker.waitForLine(/worker is processing jobs/);
  });

  afterAll(async () => {
    await worker?.kill('SIGTERM');
    await h?.resources.hashingQueue.obliterate({ force: true }).catch(() => undefined);
    await h?.close();
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
    if (probeDir) await rm(probeDir, { recursive: true, force: true });
  });

  it.each([
    { made: 'webm-video', contentType: 'video/webm' },
    { made: 'mp4-video', contentType: 'video/mp4' },
  ] as const)('gives a $made recording an H.264/AAC MP4 copy of its duration and a poster; the original stays as saved', async ({ made, contentType }) => {
    // Where it was filmed, as a phone's camera tags it (ISO 6709), and a comment.
    const body = await makeMedia(made, SECONDS, { location: '+51.5007-000.1246/', comment: 'Filmed at home' });
    const recording = await save(body, contentType, `A ${made} message`);
    expect(recording.transcode_status).toBe('pending');

    await waitFor(async () => (await listed(recording.id))?.transcode_status !== 'pending', 120_000, 'the playback copy to be made');
    const entry = (await listed(recording.id))!;
    expect(entry).toMatchObject({ transcode_status: 'ready', poster: true, blob_hash: sha(body), file_path: recording.file_path, content_type: contentType });
    expect(Math.abs(entry.duration_seconds! - SECONDS)).toBeLessThanOrEqual(0.2);

    // Playback serves the copy by default: H.264 and AAC in an MP4 whose index comes first (faststart).
    const copy = await play(recording);
    expect(copy.status).toBe(200);
    expect(copy.headers['content-type']).toBe('video/mp4');
    const probed = await probe(copy.body, `${made}.rendition.mp4`);
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    expect(Math.abs(Number(probed.format.duration) - SECONDS)).toBeLessThanOrEqual(0.2);
    expect(copy.body.indexOf('moov')).toBeLessThan(copy.body.indexOf('mdat'));
    // The copy family viewers are shown says nothing of where it was filmed; the original keeps it.
    expect(JSON.stringify(probed.format.tags ?? {})).not.toMatch(/51\.5007|Filmed at home|location/i);
    // Range reads keep working on the copy.
    const part = await play(recording, '', 'bytes=0-99');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${copy.body.length}`);
    expect(part.body).toEqual(copy.body.subarray(0, 100));

    // The original, when asked, byte for byte as uploaded (its SHA-256 the recorded one).
    const original = await play(recording, '&original=1');
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe(contentType);
    expect(sha(original.body)).toBe(recording.blob_hash);
    const stored = await h.resources.storage.client.statObject('vaultmedia', recording.file_path);
    expect(stored.size).toBe(body.length);

    // The poster: a JPEG ffprobe reads as a picture.
    const poster = await play(recording, '&poster=1');
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(poster.body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await probe(poster.body, `${made}.poster.jpg`)).streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'mjpeg' });

    // Idempotent: the job added again (a redelivery, an operator's retry) records nothing more.
    await waitFor(async () => (await h.resources.transcodingQueue.getJobState(recording.id)) === 'completed', 30_000, 'the job completed');
    await h.resources.transcodingQueue.getJob(recording.id).then((job) => job?.remove());
    const { enqueue } = await import('@lv/platform/queues');
    await enqueue(h.resources.transcodingQueue, { mediaId: recording.id, bucket: 'vaultmedia', key: recording.file_path, type: 'video', reportToken: h.service.transcodeTokenFor(recording.id) }, recording.id);
    await waitFor(async () => (await h.resources.transcodingQueue.getJobState(recording.id)) === 'completed', 60_000, 'the job run again');
    expect((await h.resources.transcodingQueue.getJob(recording.id))?.returnvalue).toMatchObject({ transcode: 'ready' });
    const [row] = await h.resources.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where stream_id = ? and type = 'RecordingTranscoded'`, [`recording-${recording.id}`]);
    expect(row!.n).toBe(1);
    expect(sha((await play(recording)).body)).toBe(sha(copy.body));
  });

  it('gives an audio recording an AAC copy in MP4 of its duration, and no poster', async () => {
    const body = await makeMedia('m4a-audio', SECONDS);
    const recording = await save(body, 'audio/mp4', 'A voice message', 'audio');
    await waitFor(async () => (await listed(recording.id))?.transcode_status !== 'pending', 120_000, 'the playback copy to be made');
    const entry = (await listed(recording.id))!;
    expect(entry).toMatchObject({ transcode_status: 'ready', poster: false });
    expect(Math.abs(entry.duration_seconds! - SECONDS)).toBeLessThanOrEqual(0.2);
    const copy = await play(recording);
    expect(copy.headers['content-type']).toBe('audio/mp4');
    const probed = await probe(copy.body, 'voice.rendition.m4a');
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['audio:aac']);
    expect(copy.body.indexOf('moov')).toBeLessThan(copy.body.indexOf('mdat'));
    expect(sha((await play(recording, '&original=1')).body)).toBe(recording.blob_hash);
    expect((await play(recording, '&poster=1')).status).toBe(404);
  });

  it('marks a file ffmpeg cannot read as failed (kept on the queue board), and still plays it as saved', async () => {
    // A WebM header, then garbage.
    const body = webmBody(120_000);
    const recording = await save(body, 'video/webm', 'A damaged message');
    await waitFor(async () => (await listed(recording.id))?.transcode_status !== 'pending', 60_000, 'the failure to be reported');
    expect(await listed(recording.id)).toMatchObject({ transcode_status: 'failed', poster: false, duration_seconds: null });

    const queue = h.resources.transcodingQueue;
    await waitFor(async () => (await queue.getJobState(recording.id)) === 'failed', 30_000, 'the job in the failed set');
    const job = (await queue.getJob(recording.id))!;
    expect(job.failedReason).toMatch(/^unreadable: /);
    expect(job.attemptsMade).toBe(1);
    expect((await queue.getFailed()).map((j) => j.id)).toContain(recording.id);

    const played = await play(recording);
    expect(played.status).toBe(200);
    expect(played.headers['content-type']).toBe('video/webm');
    expect(sha(played.body)).toBe(recording.blob_hash);
    expect((await play(recording, '&poster=1')).status).toBe(404);
  });
});
