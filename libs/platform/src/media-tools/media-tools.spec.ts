import { parseProbe, posterArgs, renditionArgs, renditionKindOf } from './index.js';

const probeJson = (streams: object[], duration?: string) => JSON.stringify({ streams, format: duration === undefined ? {} : { duration } });

describe('ffmpeg for the playback copy', () => {
  it('reads ffprobe: the codecs, and the duration of the container or else the longest stream', () => {
    expect(parseProbe(probeJson([{ codec_type: 'video', codec_name: 'vp8' }, { codec_type: 'audio', codec_name: 'opus' }], '2.040000')))
      .toEqual({ videoCodec: 'vp8', audioCodec: 'opus', durationSeconds: 2.04 });
    // A WebM as MediaRecorder writes it names no duration in its header: the streams may, or nothing does.
    expect(parseProbe(probeJson([{ codec_type: 'audio', codec_name: 'aac', duration: '1.5' }, { codec_type: 'video', codec_name: 'h264', duration: '1.4' }], 'N/A')))
      .toEqual({ videoCodec: 'h264', audioCodec: 'aac', durationSeconds: 1.5 });
    expect(parseProbe(probeJson([{ codec_type: 'audio', codec_name: 'opus' }]))).toEqual({ videoCodec: null, audioCodec: 'opus', durationSeconds: null });
    // An M4A's album cover is an attached picture, not a video.
    expect(parseProbe(probeJson([{ codec_type: 'audio', codec_name: 'aac' }, { codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } }], '3')).videoCodec).toBeNull();
    expect(parseProbe('{}')).toEqual({ videoCodec: null, audioCodec: null, durationSeconds: null });
    expect(() => parseProbe('not json')).toThrow();
  });

  it('makes a video copy of a video with a picture, a sound-only copy of sound, and none of a file with neither', () => {
    expect(renditionKindOf('video', { videoCodec: 'vp8', audioCodec: 'opus', durationSeconds: 1 })).toBe('video');
    expect(renditionKindOf('video', { videoCodec: null, audioCodec: 'opus', durationSeconds: 1 })).toBe('audio');
    expect(renditionKindOf('audio', { videoCodec: 'mjpeg', audioCodec: 'aac', durationSeconds: 1 })).toBe('audio');
    expect(renditionKindOf('audio', { videoCodec: null, audioCodec: null, durationSeconds: null })).toBeNull();
    expect(renditionKindOf('video', { videoCodec: null, audioCodec: null, durationSeconds: null })).toBeNull();
  });

  it('asks for H.264 (yuv420p, even sizes) and AAC in an MP4 that starts with its index; AAC in MP4 for sound', () => {
    const video = renditionArgs('video', '/tmp/in', '/tmp/out.mp4');
    expect(video.join(' ')).toContain('-i /tmp/in -map_metadata -1 -map_chapters -1 -map 0:v:0 -map 0:a:0? -c:v libx264 -preset veryfast');
    expect(video.join(' ')).toContain('-pix_fmt yuv420p');
    expect(video.join(' ')).toContain('-c:a aac');
    expect(video.slice(-5)).toEqual(['-movflags', '+faststart', '-f', 'mp4', '/tmp/out.mp4']);
    const audio = renditionArgs('audio', '/tmp/in', '/tmp/out.m4a');
    expect(audio.join(' ')).toContain('-i /tmp/in -map_metadata -1 -map_chapters -1 -map 0:a:0 -vn -c:a aac');
    expect(audio).not.toContain('libx264');
    expect(audio.slice(-5)).toEqual(['-movflags', '+faststart', '-f', 'mp4', '/tmp/out.m4a']);
  });

  it('takes the poster at 1 s, or the first frame of a video shorter than 2 s', () => {
    const at = (duration: number | null) => { const args = posterArgs('/tmp/r.mp4', '/tmp/p.jpg', duration); return args[args.indexOf('-ss') + 1]; };
    expect(at(10)).toBe('1');
    expect(at(2)).toBe('1');
    expect(at(1.2)).toBe('0');
    expect(at(null)).toBe('0');
    expect(posterArgs('/tmp/r.mp4', '/tmp/p.jpg', 5).slice(-7)).toEqual(['-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', '/tmp/p.jpg'].slice(-7));
  });
});
