import { QueryClient } from '@tanstack/react-query';
import { shouldRetryQuery } from './query-retry.js';
import { adoptSharedQueryClient } from './query-source.js';

/** TanStack's defaults (gc 5 min, backoff), and no retry of a 4xx answer (query-retry.ts). */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: shouldRetryQuery } } });
}

let shared: QueryClient | undefined;

/** The app's one client (made on first use), for every page (query-provider.tsx). */
export function sharedQueryClient(): QueryClient {
  if (!shared) {
    shared = createQueryClient();
    adoptSharedQueryClient(shared);
  }
  return shared;
}
