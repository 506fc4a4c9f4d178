import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { AuthProvider, useAuth } from '../auth/AuthProvider.js';
import type { SessionManager } from '../auth/session.js';
import { UnsavedChangesProvider } from '../shell/UnsavedChangesProvider.js';
import { ThemeProvider, useTheme } from '../theme/ThemeProvider.js';
import { GivenQueryClient, loadQueryClient } from './query-client-source.js';

// sonner loads beside the first page rather than before it (issue 10, first load); a toast shown
// before it has mounted appears when it does.
const Toaster = lazy(async () => ({ default: (await import('sonner')).Toaster }));

/** sonner with the spec's toast constants (section 9), which are sonner's own defaults. */
function AppToaster() {
  const { resolvedTheme } = useTheme();
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

// Cache reset and the local reflection's migration need TanStack Query: loaded once a user signs in.
const DataEffects = lazy(async () => {
  await loadQueryClient();
  return { default: (await import('./data-effects.js')).DataEffects };
});

function SignedInEffects() {
  const { user } = useAuth();
  // Kept mounted from the first sign-in on, so they see the sign-out (or the next account) too.
  const [signedInOnce, setSignedInOnce] = useState(false);
  if (user && !signedInOnce) setSignedInOnce(true);
  return signedInOnce ? (
    <Suspense fallback={null}>
      <DataEffects />
    </Suspense>
  ) : null;
}

/** Theme, session, unsaved-work tracking and toasts; `queryClient` replaces the app's own (specs). */
export function AppProviders({ children, session, queryClient }: { children: ReactNode; session?: SessionManager; queryClient?: QueryClient }) {
  return (
    <ThemeProvider>
      <GivenQueryClient.Provider value={queryClient ?? null}>
        <AuthProvider session={session}>
          <SignedInEffects />
          <UnsavedChangesProvider>
            {children}
            <AppToaster />
          </UnsavedChangesProvider>
        </AuthProvider>
      </GivenQueryClient.Provider>
    </ThemeProvider>
  );
}
