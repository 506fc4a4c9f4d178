import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { showToast } from '../../lib/toast.js';
import type { StoredMediaType } from '@lv/contracts';
import { fetchPlaybackLink, mediaKeys } from '../../api/media.js';
import { ApiError } from '../../api/client.js';
import { Spinner } from '../ui/spinner.js';

export const PLAYBACK_MESSAGES = {
  fileNotFound: 'File Not Found: The media file could not be located.',
  loadFailed: 'Failed to load media',
  playback: (type: StoredMediaType) => `Playback Error: Could not play the ${type === 'audio' ? 'audio' : 'media'} file. Please try again.`,
} as const;

/**
 * Plays a recording (or shows an image) through a signed link (3600 s, bound to the signed-in owner by a cookie), fetched
 * when the player opens and again shortly before it expires. The browser's media element reads the
 * bytes with Range requests, so seeking works without downloading everything first. The link serves
 * the recording's playback copy once made (H.264/AAC MP4), and with `poster=1` a video's poster.
 */
export function MediaPlayer({ recordingId, type, title, autoPlay = false, poster = false }: { recordingId: string; type: StoredMediaType; title: string; autoPlay?: boolean; poster?: boolean }) {
  const [playbackError, setPlaybackError] = useState<string | null>(null);
  const link = useQuery({
    queryKey: mediaKeys.playback(recordingId),
    queryFn: () => fetchPlaybackLink(recordingId),
    // Refetched a minute before the link expires; never retried on a 4xx.
    staleTime: 55 * 60 * 1000,
    gcTime: 55 * 60 * 1000,
  });

  useEffect(() => {
    if (!link.error) return;
    const notFound = link.error instanceof ApiError && link.error.status === 404;
    const [heading, detail] = notFound ? ['File Not Found', 'The media file could not be located.'] : [PLAYBACK_MESSAGES.loadFailed, undefined];
    showToast((toast) => toast.error(heading, detail ? { description: detail } : undefined));
  }, [link.error]);

  if (link.isPending) return <Spinner label="Loading media" />;
  if (link.error) {
    const notFound = link.error instanceof ApiError && link.error.status === 404;
    return <p role="alert" className="text-sm text-destructive">{notFound ? PLAYBACK_MESSAGES.fileNotFound : PLAYBACK_MESSAGES.loadFailed}</p>;
  }
  const onError = () => {
    const message = PLAYBACK_MESSAGES.playback(type);
    setPlaybackError(message);
    showToast((toast) => toast.error('Playback Error', { description: message.replace(/^Playback Error: /, '') }));
  };
  const common = {
    src: link.data.url,
    controls: true,
    preload: 'metadata' as const,
    autoPlay,
    onError,
    'aria-label': `${title} (${type})`,
    'data-testid': 'media-player',
  };
  if (type === 'image') {
    return (
      <div className="flex flex-col gap-2">
        <img src={link.data.url} alt={title} onError={onError} className="max-h-80 w-full rounded-xl bg-muted object-contain" data-testid="media-image" />
        {playbackError ? <p role="alert" className="text-sm text-destructive">{playbackError}</p> : null}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {type === 'video'
        ? <video {...common} poster={poster ? `${link.data.url}&poster=1` : undefined} playsInline className="aspect-video w-full rounded-xl bg-black" />
        : <audio {...common} className="w-full" />}
      {playbackError ? <p role="alert" className="text-sm text-destructive">{playbackError}</p> : null}
    </div>
  );
}
