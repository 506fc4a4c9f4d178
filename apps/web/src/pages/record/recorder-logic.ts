import { baseContentTypeOf, MEDIA_CONTENT_TYPES, RECORDED_CONTENT_TYPES, type MediaType } from '@lv/contracts';

/** The recorder timer: mm:ss (minutes keep counting past 59). */
export function formatTimer(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Human size: 97 KB, 1.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * What MediaRecorder may be asked for, best first: WebM where the browser records it (Chromium,
 * Firefox), else MP4 (Safari: H.264/AAC video, AAC audio), each with its codecs named and then bare.
 */
const RECORDER_CANDIDATES: Record<MediaType, readonly string[]> = {
  video: ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm', 'video/mp4;codecs=avc1,mp4a', 'video/mp4;codecs="avc1.42E01E, mp4a.40.2"', 'video/mp4'],
  audio: ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4;codecs=mp4a.40.2', 'audio/mp4'],
};

/** What MediaRecorder should record: the first candidate the browser says it supports (undefined: its own default). */
export function pickMimeType(type: MediaType, isSupported: (mime: string) => boolean): string | undefined {
  return RECORDER_CANDIDATES[type].find((mime) => isSupported(mime));
}

/**
 * The content type a finished recording is saved as, from what the recorder says it made
 * (`MediaRecorder.mimeType`, codecs and all): WebM or MP4 of the recording's type (an audio-only
 * `video/mp4` is audio/mp4). Anything else is sent as the default WebM, and the vault, which checks
 * the first bytes, refuses it in words.
 */
export function recordedContentType(type: MediaType, recorderMimeType: string | undefined): string {
  const container = baseContentTypeOf(recorderMimeType ?? '').split('/')[1];
  return RECORDED_CONTENT_TYPES[type].find((contentType) => contentType === `${type}/${container}`) ?? MEDIA_CONTENT_TYPES[type];
}

/** getUserMedia's refusals that mean "the person (or the browser policy) said no". */
export function isPermissionError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError';
}

/** The spec's words for a refusal (section 8), with its variant naming what to allow. */
export const PERMISSION_TOAST = { title: 'Permission Error', description: 'Camera or mic access denied.' } as const;
export function permissionHint(type: MediaType): string {
  return `Permission Required: Please allow ${type} access to record your message.`;
}
