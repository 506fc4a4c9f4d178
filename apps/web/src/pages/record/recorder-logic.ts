import type { MediaType } from '@lv/contracts';

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

/** What MediaRecorder should record: WebM (the only format the vault accepts), the best codec available. */
export function pickMimeType(type: MediaType, isSupported: (mime: string) => boolean): string | undefined {
  const candidates = type === 'video' ? ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'] : ['audio/webm;codecs=opus', 'audio/webm'];
  return candidates.find((mime) => isSupported(mime));
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
