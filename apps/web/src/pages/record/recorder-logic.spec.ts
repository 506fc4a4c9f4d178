import { describe, expect, it } from '@jest/globals';
import { formatBytes, formatTimer, isPermissionError, permissionHint, pickMimeType, recordedContentType } from './recorder-logic.js';

describe('recorder logic', () => {
  it('shows the timer as mm:ss', () => {
    expect(formatTimer(0)).toBe('00:00');
    expect(formatTimer(2)).toBe('00:02');
    expect(formatTimer(61)).toBe('01:01');
    expect(formatTimer(3600)).toBe('60:00');
  });

  // MediaRecorder.isTypeSupported as the browsers answer it.
  /** Chromium (current): WebM with VP8/VP9/Opus, and since 126 MP4 with H.264/AAC too. */
  const chromium = (mime: string) => /^(video|audio)\/webm/.test(mime) || /^video\/mp4;codecs=avc1,mp4a$/.test(mime);
  /** Safari on iPhone, iPad and Mac (14.1 to 18.3): MP4 only, bare or with H.264/AAC codecs; no WebM at all. */
  const safari = (mime: string) => /^(video|audio)\/mp4/.test(mime);
  /** An older Safari that knows only the bare MP4 types. */
  const bareSafari = (mime: string) => mime === 'video/mp4' || mime === 'audio/mp4';

  it('records WebM with the best codec the browser has, even where MP4 is offered too (Chromium)', () => {
    expect(pickMimeType('video', chromium)).toBe('video/webm;codecs=vp8,opus');
    expect(pickMimeType('audio', chromium)).toBe('audio/webm;codecs=opus');
    expect(pickMimeType('video', (m) => m === 'video/webm;codecs=vp9,opus' || m === 'video/mp4')).toBe('video/webm;codecs=vp9,opus');
    expect(pickMimeType('audio', (m) => m === 'audio/webm')).toBe('audio/webm');
  });

  it('records MP4 where the browser records no WebM (Safari), H.264/AAC when it says so', () => {
    expect(pickMimeType('video', safari)).toBe('video/mp4;codecs=avc1,mp4a');
    expect(pickMimeType('audio', safari)).toBe('audio/mp4;codecs=mp4a.40.2');
    expect(pickMimeType('video', bareSafari)).toBe('video/mp4');
    expect(pickMimeType('audio', bareSafari)).toBe('audio/mp4');
    // Nothing the vault keeps: the browser's own default, and the vault checks what arrives.
    expect(pickMimeType('video', () => false)).toBeUndefined();
  });

  it('saves a recording as what the recorder says it made, WebM or MP4 of its type', () => {
    expect(recordedContentType('video', 'video/webm;codecs=vp8,opus')).toBe('video/webm');
    expect(recordedContentType('audio', 'audio/webm;codecs=opus')).toBe('audio/webm');
    // Safari's mimeType after start(): codecs spelt out.
    expect(recordedContentType('video', 'video/mp4; codecs="avc1.42E01E, mp4a.40.2"')).toBe('video/mp4');
    expect(recordedContentType('audio', 'audio/mp4')).toBe('audio/mp4');
    // An audio-only stream some browsers label video/mp4 is an audio recording.
    expect(recordedContentType('audio', 'video/mp4')).toBe('audio/mp4');
    expect(recordedContentType('video', 'VIDEO/MP4')).toBe('video/mp4');
    // Unknown or empty: the default WebM.
    expect(recordedContentType('video', '')).toBe('video/webm');
    expect(recordedContentType('video', undefined)).toBe('video/webm');
    expect(recordedContentType('audio', 'audio/ogg;codecs=opus')).toBe('audio/webm');
  });

  it('knows a refusal from another failure, and names what to allow', () => {
    expect(isPermissionError({ name: 'NotAllowedError' })).toBe(true);
    expect(isPermissionError({ name: 'NotFoundError' })).toBe(false);
    expect(permissionHint('audio')).toBe('Permission Required: Please allow audio access to record your message.');
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(97 * 1024)).toBe('97 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});
