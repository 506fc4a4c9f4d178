import { Suspense, useDeferredValue } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider.js';
import { FullScreenSpinner, Spinner } from '../components/ui/spinner.js';
import { AppShell } from '../shell/AppShell.js';
import { decideRoute } from '../auth/route-access.js';
import { placeholderFor } from './route-placeholders.js';
import { ScrollRestoration } from './scroll-restoration.js';

/**
 * The root route: the session guard (public prefixes, auth paths, everything else needs a session)
 * and the application shell. Where the session decides what to show, a full-screen spinner while it
 * loads (or the page's placeholder inside the shell: route-placeholders.ts); public pages are shown at
 * once. Pages are loaded with their route (routes.tsx): the shell is painted first, the page when its
 * code has arrived.
 */
export function RootLayout() {
  const { status } = useAuth();
  // When the session arrives, the page it unlocks (the vault home, in place of its placeholder) renders
  // in the background, in slices that leave the browser free between them, rather than in one long task
  // (issue 10: blocking time). Only that step waits: a session that ends takes effect at once.
  const deferredStatus = useDeferredValue(status);
  const sessionStatus = status === 'authenticated' && deferredStatus === 'loading' ? 'loading' : status;
  const location = useLocation();
  const decision = decideRoute({
    pathname: location.pathname,
    search: location.search,
    hash: location.hash,
    state: location.state,
    sessionStatus,
  });

  // A page with a placeholder (the vault home) shows the shell and the placeholder while the session
  // loads; any other page that needs the session, a full-screen spinner.
  const Placeholder = decision.kind === 'loading' ? placeholderFor(location.pathname) : undefined;
  if (decision.kind === 'loading' && !Placeholder) return <FullScreenSpinner />;

  return (
    <AppShell accountPending={decision.kind === 'loading'}>
      {decision.kind === 'redirect' ? (
        <Navigate to={decision.to} replace state={decision.state} />
      ) : (
        <Suspense fallback={<PageLoading />}>
          {/* eslint-disable-next-line react-hooks/static-components -- placeholderFor returns a module-level component (one per address), never one made here */}
          {Placeholder ? <Placeholder /> : <Outlet />}
        </Suspense>
      )}
      <ScrollRestoration />
    </AppShell>
  );
}

function PageLoading() {
  return (
    <div className="grid min-h-[40vh] place-items-center">
      <Spinner label="Loading page" className="h-8 w-8 text-primary" />
    </div>
  );
}
