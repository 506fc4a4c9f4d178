import { lazy, Suspense, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { AuthProvider, useAuth } from '../auth/AuthProvider.js';
import type { SessionManager } from '../api/session.js';
import { LocalReflectionMigration } from '../pages/vault/LocalReflectionMigration.js';
import { UnsavedChangesProvider } from '../shell/UnsavedChangesProvider.js';
import { ThemeProvider, useTheme } from '../theme/ThemeProvider.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { fixedQueryClientSource, QueryClientSourceContext } from '../queries/query-source.js';

// sonner loads beside the first page rather than before it (issue 10, first load); a toast shown
// before it has mounted appears when it does.
const Toaster = lazy(async () => ({ default: (await import('sonner')).Toaster }));

/** sonner with the spec's toast constants (section 9), which are sonner's own defaults. */
function AppToaster() {
  const { resolvedTheme } = useTheme();
  // Not in prerendered markup: mounted once the page has hydrated, so sonner's code is not needed for it.
  if (!useHydrated()) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        theme={resolvedTheme}
        position="bottom-right"
        duration={4000}
        visibleToasts={3}
        gap={14}
        hotkey={['altKey', 'KeyT']}
        richColors
        closeButton
      />
    </Suspense>
  );
}

/** Drops cached server data when the signed-in user changes (sign-out, expiry, another account). */
function CacheResetOnUserChange() {
  const { user } = useAuth();
  const source = useContext(QueryClientSourceContext);
  const previous = useRef<string | null>(null);
  const userId = user?.id ?? null;
  useEffect(() => {
    // No client yet: no page has queried, nothing is cached.
    if (previous.current !== null && previous.current !== userId) source.loaded()?.clear();
    previous.current = userId;
  }, [userId, source]);
  return null;
}

export function AppProviders({ children, session, queryClient }: { children: ReactNode; session?: SessionManager; queryClient?: QueryClient }) {
  // TanStack Query itself loads with the pages that query (query-provider.tsx); the root only says
  // which client they use: the one handed in, or the app's shared one.
  const parent = useContext(QueryClientSourceContext);
  const source = useMemo(() => (queryClient ? fixedQueryClientSource(queryClient) : parent), [queryClient, parent]);
  return (
    <ThemeProvider>
      <QueryClientSourceContext.Provider value={source}>
        <AuthProvider session={session}>
          <CacheResetOnUserChange />
          <LocalReflectionMigration />
          <UnsavedChangesProvider>
            {children}
            <AppToaster />
          </UnsavedChangesProvider>
        </AuthProvider>
      </QueryClientSourceContext.Provider>
    </ThemeProvider>
  );
}
