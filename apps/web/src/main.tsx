import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/providers.js';
import { AppRoutes, preloadPages } from './app/routes.js';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

const app = (
  <StrictMode>
    <AppProviders>
      {/* Navigations render at once (no transition): the shell stays and shows "Loading page" until a
          page's code is here, and signing out can leave a protected page before the user is cleared
          (shell/use-sign-out.ts). */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
);
// The gateway sends a public page prerendered at build time (tools/build/prerender.mjs): React takes
// over its markup once the page's code is here (its chunks are modulepreloaded by the same HTML). Every
// other address gets the empty index.html, rendered here from scratch.
if (container.hasChildNodes()) {
  void preloadPages(window.location.pathname)
    // A page that failed to load is the route's error screen, shown by the hydrated app.
    .catch(() => undefined)
    .then(afterFirstPaint)
    // In a transition, React hydrates in slices that yield to the browser between them, instead of one
    // long task that holds every tap and keystroke until the whole page is done (issue 10: total
    // blocking time). What is typed or tapped meanwhile is replayed once its part has hydrated.
    .then(() => startTransition(() => void hydrateRoot(container, app)));
} else {
  createRoot(container).render(app);
}

/**
 * Resolves once the browser has painted the prerendered page (the frame after this one), so its text is
 * on screen before hydration's long task rather than after it. A hidden tab paints no frames: at once.
 */
function afterFirstPaint(): Promise<void> {
  if (document.visibilityState !== 'visible') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
