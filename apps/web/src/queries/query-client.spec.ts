import { describe, expect, it } from '@jest/globals';
import { ApiError, NetworkError } from '../api/client.js';
import { createQueryClient, sharedQueryClient } from './query-client.js';
import { retryDelayMs, shouldRetryQuery } from './query-retry.js';
import { fixedQueryClientSource, sharedQueryClientSource } from './query-source.js';

describe('query client', () => {
  it('retries up to 3 times, except for 4xx answers', () => {
    const serverError = new ApiError(503, { code: 'SERVICE_UNAVAILABLE', message: 'x' });
    expect([0, 1, 2, 3].map((n) => shouldRetryQuery(n, serverError))).toEqual([true, true, true, false]);
    expect(shouldRetryQuery(0, new NetworkError('offline'))).toBe(true);
    expect(shouldRetryQuery(0, new ApiError(404, { code: 'NOT_FOUND', message: 'Not found' }))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(429, { code: 'RATE_LIMITED', message: 'x' }))).toBe(false);
    expect([0, 1, 2, 5, 10].map(retryDelayMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
  });

  it("keeps TanStack's other defaults", () => {
    const options = createQueryClient().getDefaultOptions();
    expect(options.queries?.gcTime).toBeUndefined(); // library default: 5 minutes
    expect(options.queries?.retryDelay).toBeUndefined(); // library default: 1 s doubling, capped at 30 s
  });

  it('has one shared client, which the root finds without loading TanStack Query itself', () => {
    const source = sharedQueryClientSource;
    const client = sharedQueryClient();
    expect(sharedQueryClient()).toBe(client);
    expect(source.loaded()).toBe(client);
    const handedIn = createQueryClient();
    expect(fixedQueryClientSource(handedIn).loaded()).toBe(handedIn);
  });
});
