import { useContext, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { sharedQueryClient } from './query-client.js';
import { QueryClientSourceContext } from './query-source.js';

/**
 * TanStack Query for one page: loaded with the page's chunk (routes.tsx), not in the first load of the
 * public pages. Every page gets the same client, so the cache survives navigation.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const source = useContext(QueryClientSourceContext);
  const [client] = useState(() => source.loaded() ?? sharedQueryClient());
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
