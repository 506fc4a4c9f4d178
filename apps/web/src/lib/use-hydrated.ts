import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => {};

/**
 * False on the server and while React hydrates prerendered markup, true after (and from the start of a
 * render that is not a hydration): state the server cannot know (localStorage, the OS theme) waits for
 * it, so the first render matches the markup it hydrates.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
