import { useEffect, useState, type ComponentType } from 'react';
import { CommunityMessages } from '@lv/contracts';
import { Spinner } from '../../components/ui/spinner.js';

type Loaded = { TodaysTrack: ComponentType };

const loadTodaysTrack = (): Promise<Loaded> => import('../../components/media/TodaysTrack.js');

/**
 * What Listen Now opens, loaded when pressed (issue 10: not in the vault home's first load). A chunk
 * that fails to arrive says the tracks could not be loaded, inside the card: the page stays, with
 * whatever is typed in its reflection (an error thrown here would replace the whole page). Pressing
 * Listen Now again tries again.
 */
export function TodaysTrackLoader({ load = loadTodaysTrack }: { load?: () => Promise<Loaded> }) {
  const [loaded, setLoaded] = useState<Loaded | 'failed' | null>(null);
  useEffect(() => {
    let current = true;
    load().then(
      (module) => current && setLoaded(module),
      () => current && setLoaded('failed'),
    );
    return () => {
      current = false;
    };
  }, [load]);
  if (loaded === 'failed') return <p role="alert" className="text-sm">{CommunityMessages.failedToLoadTracks}</p>;
  if (!loaded) return <Spinner label="Loading music tracks" />;
  return <loaded.TodaysTrack />;
}
