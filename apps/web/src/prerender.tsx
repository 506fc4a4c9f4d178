import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/providers.js';
import { AppRoutes } from './app/routes.js';

/**
 * Build-time render of a page (issue 10, first load; tools/build/prerender.mjs): the same route
 * table and providers as main.tsx, with the session still loading as it is when the browser hydrates,
 * so the markup matches the browser's first render. `prerender` waits for the lazy page.
 */
export async function renderPage(path: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    // Every boundary inline, however large: React would otherwise send a big one apart, with an inline
    // script that moves it into place (later, and refused by the gateway's CSP).
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  return new Response(prelude).text();
}
