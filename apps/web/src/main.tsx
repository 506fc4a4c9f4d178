import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers.js';
import { createAppRouter } from './app/router.js';
import { preloadPages } from './app/routes.js';
import './styles.css';

const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
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
    .then(() => hydrateRoot(container, app));
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
