import { createContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/**
 * Where the app's query client comes from, without TanStack Query's code: the library loads with the
 * pages that use it (query-provider.tsx, issue 10 first load), so the root must not import it.
 */
export interface QueryClientSource {
  /** The client, when it exists already (nothing cached before it does). */
  loaded(): QueryClient | undefined;
}

let shared: QueryClient | undefined;

/** Records the one shared client (query-client.ts makes it), so the cache outlives page changes. */
export function adoptSharedQueryClient(client: QueryClient): void {
  shared = client;
}

/** The app's shared client (the default). */
export const sharedQueryClientSource: QueryClientSource = {
  loaded: () => shared,
};

/** A source that always gives `client` (a client handed in, as specs do). */
export function fixedQueryClientSource(client: QueryClient): QueryClientSource {
  return { loaded: () => client };
}

export const QueryClientSourceContext = createContext<QueryClientSource>(sharedQueryClientSource);
