import { ApiError } from '../api/client.js';

/** TanStack Query's default number of retries, kept as is. */
export const DEFAULT_QUERY_RETRIES = 3;

/**
 * TanStack's defaults stay (3 retries, backoff 1 s doubling to 30 s), except that a 4xx answer is not
 * retried: repeating a refused request unchanged cannot succeed. Also what `useRequest` does, for the
 * pages that load without TanStack Query. `failureCount` is how many attempts failed before this one.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isClientError) return false;
  return failureCount < DEFAULT_QUERY_RETRIES;
}

/** TanStack Query's default delay before retry number `failureCount` + 1. */
export function retryDelayMs(failureCount: number): number {
  return Math.min(1000 * 2 ** failureCount, 30_000);
}
