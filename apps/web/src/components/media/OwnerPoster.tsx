import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { fetchPlaybackLink, mediaKeys } from '../../api/media.js';
import { PosterThumbnail } from './PosterThumbnail.js';

// Apart from PosterThumbnail: the viewer's pages use that one without the owner's media API.

/** The owner's poster: through the recording's playback link (the one the player uses, cached with it) with `poster=1`. */
export function OwnerPoster({ recordingId, title, fallback }: { recordingId: string; title: string; fallback?: ReactNode }) {
  const link = useQuery({
    queryKey: mediaKeys.playback(recordingId),
    queryFn: () => fetchPlaybackLink(recordingId),
    // As MediaPlayer's: the link lives an hour.
    staleTime: 55 * 60 * 1000,
    gcTime: 55 * 60 * 1000,
  });
  return <PosterThumbnail src={link.data ? `${link.data.url}&poster=1` : undefined} title={title} fallback={fallback} />;
}
