import { Suspense } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider.js';
import { FullScreenSpinner, Spinner } from '../components/ui/spinner.js';
import { AppShell } from '../shell/AppShell.js';
import { decideRoute } from './route-access.js';

/**
 * The root route: the session guard (public prefixes, auth paths, everything else needs a session)
 * and the application shell. Where the session decides what to show, a full-screen spinner while it
 * loads; public pages are shown at once. Pages are loaded with their route (routes.tsx): the shell
 * is painted first, the page when its code has arrived.
 */
export function RootLayout() {
  const { status } = useAuth();
  const location = useLocation();
  const decision = decideRoute({
    pathname: location.pathname,
    search: location.search,
    hash: location.hash,
    state: location.state,
    sessionStatus: status,
  });

  if (decision.kind === 'loading') return <FullScreenSpinner />;

  return (
    <AppShell>
      {decision.kind === 'redirect' ? (
        <Navigate to={decision.to} replace state={decision.state} />
      ) : (
        <Suspense fallback={<PageLoading />}>
          <Outlet />
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
