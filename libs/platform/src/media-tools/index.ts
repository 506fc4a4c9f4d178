import { execFile } from 'node:child_process';

/**
 * ffmpeg and ffprobe as the worker's media-transcoding job uses them (Debian's packages, installed by
 * tools/dev/ensure-install.mjs and the image's Dockerfile): the argument lists and the reading of
 * ffprobe's answer are pure (unit specs); `runTool` runs one of them. Here rather than in the worker
 * so that bench:media runs the very same commands to measure the job against them.
 */

/** What ffprobe found in a file: its streams and its duration (null when it cannot tell). */
export interface ProbedMedia {
  videoCodec: string | null;
  audioCodec: string | null;
  durationSeconds: number | null;
}

/** The playback copy made of an item: a video (H.264 + AAC, MP4) or sound only (AAC in MP4). */
export type RenditionKind = 'video' | 'audio';

/** ffprobe's JSON (`-print_format json -show_format -show_streams`), as far as the job reads it. */
export const PROBE_ARGS = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams'];

const seconds = (value: unknown): number | null => {
  const parsed = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : null;
};

/**
 * Reads ffprobe's JSON: the first video stream's codec (an attached picture, such as an album's cover
 * in an M4A, is not a video), the first audio stream's, and the duration (the container's, else the
 * longest stream's). Anything it cannot read as such throws.
 */
export function parseProbe(json: string): ProbedMedia {
  const parsed = JSON.parse(json) as { streams?: unknown; format?: { duration?: unknown } };
  const streams = Array.isArray(parsed.streams) ? (parsed.streams as { codec_type?: unknown; codec_name?: unknown; duration?: unknown; disposition?: { attached_pic?: unknown } }[]) : [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const streamDurations = streams.map((s) => seconds(s.duration)).filter((d): d is number => d !== null);
  const durationSeconds = seconds(parsed.format?.duration) ?? (streamDurations.length ? Math.max(...streamDurations) : null);
  return {
    videoCodec: typeof video?.codec_name === 'string' ? video.codec_name : video ? 'unknown' : null,
    audioCodec: typeof audio?.codec_name === 'string' ? audio.codec_name : audio ? 'unknown' : null,
    durationSeconds,
  };
}

/**
 * Which copy an item gets: a video's when it is a video and has a picture, a sound-only copy when it
 * has sound; null when ffmpeg found neither (the file cannot be played from what it holds).
 */
export function renditionKindOf(type: 'video' | 'audio', probed: ProbedMedia): RenditionKind | null {
  if (type === 'video' && probed.videoCodec) return 'video';
  return probed.audioCodec ? 'audio' : null;
}

/**
 * The rendition every current browser plays: H.264 (yuv420p, even dimensions, veryfast) and AAC in an
 * MP4 whose index comes first (+faststart: playback starts before the whole file arrives); for sound,
 * AAC in MP4 (audio/mp4). A video without sound gets a copy without sound. Without the original's
 * metadata (its location, device, comments).
 */
export function renditionArgs(kind: RenditionKind, input: string, output: string): string[] {
  // No metadata or chapters of the original come along: a phone's video carries where it was taken
  // (the location tag), and the copy is what family viewers are shown. The original keeps everything.
  const common = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', input, '-map_metadata', '-1', '-map_chapters', '-1'];
  const audio = ['-c:a', 'aac', '-b:a', '128k'];
  const mp4 = ['-movflags', '+faststart', '-f', 'mp4', output];
  if (kind === 'audio') return [...common, '-map', '0:a:0', '-vn', ...audio, ...mp4];
  return [
    ...common, '-map', '0:v:0', '-map', '0:a:0?',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2',
    ...audio, ...mp4,
  ];
}

/** A video's poster: the frame at 1 s, or the first frame of a video shorter than 2 s; a JPEG. */
export function posterArgs(input: string, output: string, durationSeconds: number | null): string[] {
  const at = durationSeconds !== null && durationSeconds >= 2 ? '1' : '0';
  return ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-ss', at, '-i', input, '-map', '0:v:0', '-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', output];
}

/** A tool's non-zero exit, with the end of what it wrote to stderr (the reason operators read). */
export class ToolFailed extends Error {
  constructor(tool: string, readonly stderr: string, detail: string) {
    super(`${tool} failed: ${(stderr.trim().split('\n').slice(-3).join(' ') || detail).slice(0, 400)}`);
    this.name = 'ToolFailed';
  }
}

/** Runs ffmpeg or ffprobe; its stdout, or ToolFailed. */
export function runTool(tool: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new ToolFailed(tool.split('/').pop() ?? tool, stderr, error.message));
      else resolve(stdout);
    });
  });
}
