import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.js';
import { adoptSharedQueryClient } from './query-source.js';

/** TanStack Query's default number of retries, kept as is. */
export const DEFAULT_QUERY_RETRIES = 3;

/**
 * TanStack's defaults stay (gc 5 min, 3 retries, backoff 1 s doubling to 30 s), except that a 4xx
 * answer is not retried: repeating a refused request unchanged cannot succeed.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isClientError) return false;
  return failureCount < DEFAULT_QUERY_RETRIES;
}

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
