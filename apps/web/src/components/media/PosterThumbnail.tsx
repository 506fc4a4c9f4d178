import { useState, type ReactNode } from 'react';
import { durationAttribute, formatDuration } from './duration.js';

/**
 * A video's poster as a list's thumbnail, named by the recording's title. While its link loads, or
 * when the link or the picture fails, the fallback shows instead (never a spinner: a list of
 * thumbnails is not worth waiting on).
 */
export function PosterThumbnail({ src, title, fallback = null }: { src: string | undefined; title: string; fallback?: ReactNode }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return <>{fallback}</>;
  return <img src={src} alt={title} loading="lazy" decoding="async" onError={() => setFailed(true)} className="h-16 w-28 shrink-0 rounded-lg bg-muted object-cover" />;
}

/** A recording's length, once its playback copy is made: "1:05". */
export function DurationText({ seconds }: { seconds: number | null | undefined }) {
  if (typeof seconds !== 'number') return null;
  return <time dateTime={durationAttribute(seconds)}>{formatDuration(seconds)}</time>;
}
