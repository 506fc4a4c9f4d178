import { useEffect, useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router-dom';

const STORAGE_KEY = 'lv-scroll-positions';

function savedPositions(): Record<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return saved && typeof saved === 'object' ? (saved as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/**
 * Scrolls on navigation as the data router's <ScrollRestoration> did (the app uses the declarative
 * router, issue 10): Back and Forward return to where that history entry was left (kept in
 * sessionStorage, so a reload keeps it too); any other navigation opens the page at its #hash, or at
 * the top.
 */
export function ScrollRestoration() {
  const location = useLocation();
  // A history entry's key, with its address: a page opened by typing or following a link from outside
  // has the key "default" whatever its address, so the key alone would give it another page's place.
  const entry = `${location.key}:${location.pathname}${location.search}`;
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const shownKey = useRef<string | null>(null);
  const lastY = useRef(0);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      lastY.current = window.scrollY;
    };
    const onPageHide = () => {
      if (shownKey.current !== null && positions.current) positions.current[shownKey.current] = window.scrollY;
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current ?? {}));
      } catch {
        // Storage full or refused: Back still works within this page load.
      }
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  // Runs before the effect above, so the saved positions are read here, once.
  useLayoutEffect(() => {
    positions.current ??= savedPositions();
    // Where the page being left was scrolled to (read from scroll events: by now the new page is in the DOM).
    if (shownKey.current !== null) positions.current[shownKey.current] = lastY.current;
    shownKey.current = entry;
    scrollForNavigation(location.hash, navigationType === NavigationType.Pop ? positions.current[entry] : undefined);
    // A scroll that changed nothing fires no event: start the new page's position from where it now is.
    lastY.current = window.scrollY;
  }, [entry, location.hash, navigationType]);

  return null;
}

/** Back/Forward to a remembered position, else to the #hash's element, else to the top. */
function scrollForNavigation(hash: string, saved: number | undefined): void {
  if (typeof saved === 'number') {
    window.scrollTo(0, saved);
    return;
  }
  if (hash) {
    try {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    } catch {
      // Not a decodable id: the top, as for no hash.
    }
  }
  window.scrollTo(0, 0);
}
