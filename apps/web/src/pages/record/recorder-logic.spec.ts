import { describe, expect, it } from '@jest/globals';
import { formatBytes, formatTimer, isPermissionError, permissionHint, pickMimeType } from './recorder-logic.js';

describe('recorder logic', () => {
  it('shows the timer as mm:ss', () => {
    expect(formatTimer(0)).toBe('00:00');
    expect(formatTimer(2)).toBe('00:02');
    expect(formatTimer(61)).toBe('01:01');
    expect(formatTimer(3600)).toBe('60:00');
  });

  it('records WebM with the best codec the browser has', () => {
    expect(pickMimeType('video', () => true)).toBe('video/webm;codecs=vp8,opus');
    expect(pickMimeType('audio', (m) => m === 'audio/webm')).toBe('audio/webm');
    expect(pickMimeType('video', () => false)).toBeUndefined();
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
