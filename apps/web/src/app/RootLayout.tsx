import { Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider.js';
import { FullScreenSpinner } from '../components/ui/spinner.js';
import { AppShell } from '../shell/AppShell.js';
import { decideRoute } from './route-access.js';

/**
 * The root route: while the session loads, a full-screen spinner; then the session guard (public
 * prefixes, auth paths, everything else needs a session) and the application shell.
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
      {decision.kind === 'redirect' ? <Navigate to={decision.to} replace state={decision.state} /> : <Outlet />}
      <ScrollRestoration />
    </AppShell>
  );
}
