import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Sparkles } from 'lucide-react';
import { CommunityMessages, MUSIC_CATEGORY_LABELS, type MusicTrack } from '@lv/contracts';
import { communityKeys, fetchTrackLink } from '../../api/community.js';
import { ApiError } from '../../api/client.js';
import { buttonClasses } from '../ui/button.js';
import { Spinner } from '../ui/spinner.js';

export const TRACK_PLAYER_TEXT = {
  gone: 'This track is no longer in the music library.',
  loadFailed: 'The track could not be loaded. Please try again.',
  playback: 'The track could not be played. Please try again.',
} as const;

/**
 * Plays a track of the Parent Circle's music library through a link signed for an hour and bound to
 * the signed-in member (a cookie), asked for when the track is chosen. The browser's own audio
 * controls (play, pause, seek, volume) carry the track's title as their name.
 */
export function TrackPlayer({ track, autoPlay = false }: { track: MusicTrack; autoPlay?: boolean }) {
  const [failed, setFailed] = useState(false);
  const link = useQuery({ queryKey: communityKeys.trackLink(track.id), queryFn: () => fetchTrackLink(track.id), staleTime: 55 * 60 * 1000, gcTime: 55 * 60 * 1000 });
  if (link.isPending) return <Spinner label={`Loading ${track.title}`} />;
  if (link.error) {
    const gone = link.error instanceof ApiError && link.error.status === 404;
    return <p role="alert" className="text-sm text-destructive">{gone ? TRACK_PLAYER_TEXT.gone : TRACK_PLAYER_TEXT.loadFailed}</p>;
  }
  return (
    <div className="flex flex-col gap-1">
      <audio
        key={link.data.url}
        src={link.data.url}
        controls
        autoPlay={autoPlay}
        preload="metadata"
        onError={() => setFailed(true)}
        aria-label={`${track.title} (${MUSIC_CATEGORY_LABELS[track.category]})`}
        data-testid="music-player"
        className="w-full"
      />
      {failed ? <p role="alert" className="text-sm text-destructive">{TRACK_PLAYER_TEXT.playback}</p> : null}
    </div>
  );
}

/** The community's gate (spec 6): the spec's words and the way to the plans. */
export function CommunityUpgradeNotice({ id = 'community-upgrade' }: { id?: string }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-primary/30 bg-primary/5 p-6 text-center" data-testid="community-upgrade">
      <span aria-hidden="true" className="mx-auto grid h-10 w-10 place-items-center rounded-full bg-primary/15 text-primary">
        <Sparkles className="h-5 w-5" />
      </span>
      <p id={id} className="mx-auto mt-3 max-w-md font-medium">
        {CommunityMessages.upgrade}
      </p>
      <Link to="/pricing" className={buttonClasses({ className: 'mt-4' })}>
        See the plans
      </Link>
    </section>
  );
}
