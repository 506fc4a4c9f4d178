import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Real media made by ffmpeg (Debian's package, installed by tools/dev/ensure-install.mjs) inside the
 * spec, never a binary fixture: a test card and a tone, `seconds` long, with the container `tags` given
 * (a phone's location tag, say).
 *
 *   mp4-video  H.264 + AAC, fragmented like Safari's MediaRecorder writes it (moov first, then fragments)
 *   m4a-audio  AAC in MP4 (audio/mp4), as Safari records audio
 *   webm-video VP8 + Opus, as Chromium records
 */
export type MadeMedia = 'mp4-video' | 'm4a-audio' | 'webm-video';

const ARGS: Record<MadeMedia, string[]> = {
  'mp4-video': ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'],
  'm4a-audio': ['-vn', '-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'],
  'webm-video': ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus', '-f', 'webm'],
};

export async function makeMedia(kind: MadeMedia, seconds = 1, tags: Record<string, string> = {}): Promise<Buffer> {
  const sources = ['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=15:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
  const metadata = Object.entries(tags).flatMap(([name, value]) => ['-metadata', `${name}=${value}`]);
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...sources, ...metadata, ...ARGS[kind], '-shortest', 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
