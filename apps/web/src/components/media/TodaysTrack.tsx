import { useQuery } from '@tanstack/react-query';
import { CommunityMessages } from '@lv/contracts';
import { communityKeys, fetchMusicTracks } from '../../api/community.js';
import { QueryProvider } from '../../queries/query-provider.js';
import { TrackPlayer } from './TrackPlayer.js';
import { Spinner } from '../ui/spinner.js';

/** Today's track: one of the library's, changing each day (the same all day). */
export function trackOfTheDay<T>(tracks: readonly T[], now = new Date()): T | null {
  if (!tracks.length) return null;
  const day = Math.floor(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / 86_400_000);
  return tracks[day % tracks.length] ?? null;
}

function TodaysTrackPlayer() {
  const tracks = useQuery({ queryKey: communityKeys.music, queryFn: ({ signal }) => fetchMusicTracks(signal), retry: false, staleTime: Infinity });
  const today = trackOfTheDay(tracks.data ?? []);
  if (tracks.isPending) return <Spinner label="Loading music tracks" />;
  if (tracks.isError) return <p role="alert" className="text-sm">{CommunityMessages.failedToLoadTracks}</p>;
  if (!today) return <p role="note" className="text-sm">{CommunityMessages.noAudioFiles}</p>;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">
        Today: <span className="font-medium">{today.title}</span>
      </p>
      <TrackPlayer track={today} autoPlay />
    </div>
  );
}

/**
 * What "Listen Now" opens on the vault home: today's track of the Parent Circle's music library, or
 * why there is none. Loaded when pressed, with TanStack Query and the player (the track list and its
 * links are the community page's queries too), not in the vault home's first load (issue 10).
 */
export function TodaysTrack() {
  return (
    <QueryProvider>
      <TodaysTrackPlayer />
    </QueryProvider>
  );
}
