import { useEffect, useState } from 'react';
import type { UserProfile } from '@lv/contracts';

/**
 * The top bar's picture of the signed-in user: the profile's avatar_url, or else the Who I Am photo
 * (the spec's avatar, which the owner sets on Who I Am). The photo is looked up once the browser is
 * idle after the first paint, through a link signed for this user; the media client loads only then,
 * so it never weighs on a route's first load. Anything failing leaves the initials.
 */
export function useAvatarSource(user: UserProfile): string | null {
  // Kept with the user it belongs to, so a change of account never shows the previous one's photo.
  const [portrait, setPortrait] = useState<{ userId: string; url: string } | null>(null);
  useEffect(() => {
    if (user.avatar_url) return;
    const controller = new AbortController();
    const lookUp = async () => {
      const { fetchPlaybackLink, fetchRecordings } = await import('../api/media.js');
      const [photo] = await fetchRecordings(1, controller.signal, 'who-i-am-photo');
      if (!photo || controller.signal.aborted) return;
      const link = await fetchPlaybackLink(photo.id);
      if (!controller.signal.aborted) setPortrait({ userId: user.id, url: link.url });
    };
    const idle = window.requestIdleCallback?.bind(window) ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(() => void lookUp().catch(() => undefined));
    return () => controller.abort();
  }, [user.id, user.avatar_url]);
  return user.avatar_url ?? (portrait?.userId === user.id ? portrait.url : null);
}
