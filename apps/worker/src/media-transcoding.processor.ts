import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UnrecoverableError, type Job } from 'bullmq';
import { posterKeyOf, renditionKeyOf, type ReportTranscodePayload, type ReportTranscodeReply, type TranscodeMediaJob } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import { parseProbe, posterArgs, PROBE_ARGS, renditionArgs, renditionKindOf, runTool, type ProbedMedia } from '@lv/platform/media-tools';

export interface MediaTranscodingDeps {
  storage: Pick<ObjectStorage, 'getObject' | 'upload' | 'removeObject' | 'client'>;
  /** rpc.vault-media.report-transcode: the worker owns no data, the recording's service records the result. */
  report: (payload: ReportTranscodePayload) => Promise<ReportTranscodeReply>;
  logger: Logger;
  /** How long one ffmpeg run may take before it is stopped (the attempt then fails and is retried). */
  toolTimeoutMs?: number;
  ffmpeg?: string;
  ffprobe?: string;
}

/** A file ffmpeg cannot read: no retry changes that, so it is reported at once and the job fails for good. */
class Unreadable extends Error {}

/** Refusals that a retry cannot change (as media-hashing's). */
const PERMANENT = new Set(['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED', 'UNAUTHENTICATED']);

const notFound = (err: unknown) => ['NoSuchKey', 'NotFound'].includes((err as { code?: string })?.code ?? '');

async function sizeOf(storage: MediaTranscodingDeps['storage'], bucket: string, key: string): Promise<number | null> {
  try {
    return (await storage.client.statObject(bucket, key)).size;
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
}

/**
 * media-transcoding: gives a saved video or audio item its playback copy. The original is streamed
 * from storage to a scratch file (never whole in memory) and never written: ffmpeg makes the
 * rendition (H.264/AAC MP4 with faststart, AAC in MP4 for sound) and, for a video, a poster JPEG,
 * stored beside the original (`<key>.rendition.mp4`, `<key>.poster.jpg`); ffprobe reads the
 * rendition's duration; vault-media records the result.
 *
 * Idempotent: the job id is the recording id, and a run that finds the copy already stored reports it
 * again without converting (vault-media records a copy once). A file ffmpeg cannot read is reported
 * as failed at once and the job fails for good (kept on the queue board); any other failure throws
 * and is retried with backoff, and the last attempt reports the failure before it fails for good.
 */
export function mediaTranscodingProcessor(deps: MediaTranscodingDeps) {
  const ffmpeg = deps.ffmpeg ?? 'ffmpeg';
  const ffprobe = deps.ffprobe ?? 'ffprobe';
  const timeout = deps.toolTimeoutMs ?? 30 * 60_000;
  const probe = async (file: string): Promise<ProbedMedia> => parseProbe(await runTool(ffprobe, [...PROBE_ARGS, file], timeout));

  async function report(payload: ReportTranscodePayload): Promise<ReportTranscodeReply> {
    try {
      return await deps.report(payload);
    } catch (err) {
      if (err instanceof DomainError && PERMANENT.has(err.code)) throw new UnrecoverableError(`vault-media refused the result: ${err.code} ${err.message}`);
      throw err;
    }
  }

  async function download(bucket: string, key: string, file: string): Promise<void> {
    await pipeline(await deps.storage.getObject(bucket, key), createWriteStream(file));
  }

  async function upload(bucket: string, key: string, file: string, contentType: string): Promise<number> {
    await deps.storage.upload(bucket, key, createReadStream(file), { contentType });
    return (await stat(file)).size;
  }

  /** The copy a run before this one stored in full (rendition, and poster for a video), if any. */
  async function storedCopy(job: TranscodeMediaJob, dir: string): Promise<ReportTranscodePayload['result'] | null> {
    const renditionKey = renditionKeyOf(job.key);
    const posterKey = posterKeyOf(job.key);
    const renditionSize = await sizeOf(deps.storage, job.bucket, renditionKey);
    if (renditionSize === null) return null;
    const posterSize = await sizeOf(deps.storage, job.bucket, posterKey);
    const file = join(dir, 'stored-rendition.mp4');
    await download(job.bucket, renditionKey, file);
    const probed = await probe(file);
    if (job.type === 'video' && probed.videoCodec && posterSize === null) return null;
    if (probed.durationSeconds === null) return null;
    const video = Boolean(probed.videoCodec);
    return {
      status: 'ready', renditionKey, renditionSize, renditionContentType: video ? 'video/mp4' : 'audio/mp4',
      posterKey: video ? posterKey : null, posterSize: video ? posterSize : null, durationSeconds: probed.durationSeconds,
    };
  }

  async function convert(job: TranscodeMediaJob, dir: string): Promise<ReportTranscodePayload['result']> {
    const original = join(dir, 'original');
    await download(job.bucket, job.key, original);
    let probed: ProbedMedia;
    try {
      probed = await probe(original);
    } catch (err) {
      throw new Unreadable(err instanceof Error ? err.message : String(err));
    }
    const kind = renditionKindOf(job.type, probed);
    if (!kind) throw new Unreadable('ffprobe found no video or audio stream in the file');
    const rendition = join(dir, 'rendition.mp4');
    await runTool(ffmpeg, renditionArgs(kind, original, rendition), timeout);
    const made = await probe(rendition);
    if (made.durationSeconds === null) throw new Error('the rendition has no duration ffprobe can read');
    const renditionKey = renditionKeyOf(job.key);
    let posterKey: string | null = null;
    let posterSize: number | null = null;
    if (kind === 'video') {
      const poster = join(dir, 'poster.jpg');
      await runTool(ffmpeg, posterArgs(rendition, poster, made.durationSeconds), timeout);
      posterKey = posterKeyOf(job.key);
      posterSize = await upload(job.bucket, posterKey, poster, 'image/jpeg');
    }
    // The rendition last: a stored rendition means the run got that far (storedCopy relies on it with the poster).
    const renditionSize = await upload(job.bucket, renditionKey, rendition, kind === 'video' ? 'video/mp4' : 'audio/mp4');
    return { status: 'ready', renditionKey, renditionSize, renditionContentType: kind === 'video' ? 'video/mp4' : 'audio/mp4', posterKey, posterSize, durationSeconds: made.durationSeconds };
  }

  return async (data: TranscodeMediaJob, job: Pick<Job, 'id' | 'attemptsMade' | 'opts'>): Promise<ReportTranscodeReply & { durationSeconds?: number; reason?: string; ms: number }> => {
    const started = Date.now();
    const dir = await mkdtemp(join(tmpdir(), 'lv-transcode-'));
    const base = { recordingId: data.mediaId, reportToken: data.reportToken };
    try {
      const result = (await storedCopy(data, dir)) ?? (await convert(data, dir));
      const reply = await report({ ...base, result });
      if (reply.transcode === 'ignored') {
        // The recording is gone (deleted while this ran): what this job stored goes too.
        for (const key of [renditionKeyOf(data.key), posterKeyOf(data.key)]) await deps.storage.removeObject(data.bucket, key).catch(() => undefined);
      }
      const ms = Date.now() - started;
      deps.logger.info({ jobId: job.id, recordingId: data.mediaId, transcode: reply.transcode, ms }, 'media transcoded');
      return { ...reply, durationSeconds: result.status === 'ready' ? result.durationSeconds : undefined, ms };
    } catch (err) {
      if (err instanceof UnrecoverableError) throw err;
      const unreadable = err instanceof Unreadable;
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (unreadable || lastAttempt) {
        const reason = unreadable ? `unreadable: ${err.message}` : `conversion failed: ${err instanceof Error ? err.message : String(err)}`;
        const reply = await report({ ...base, result: { status: 'failed', reason: reason.slice(0, 500) } });
        deps.logger.warn({ jobId: job.id, recordingId: data.mediaId, transcode: reply.transcode, reason }, 'media could not be transcoded: reported');
        // Failed for good: the job stays in the failed set, visible on the queue board with its reason.
        throw new UnrecoverableError(reason);
      }
      throw err;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
