import { expect as baseExpect, test } from '@playwright/test';

/**
 * `test` and `expect` for the specs. Assertions poll for up to 10 s (the config's default is 5 s):
 * sign-ups, sign-ins and session restores wait on argon2id and a NATS round trip, and the suite runs
 * on a two-core machine next to PostgreSQL, NATS, Redis and the stack's processes. A passing
 * assertion returns as soon as it holds, so this only bounds how long a failing one keeps trying.
 */
export const expect = baseExpect.configure({ timeout: 10_000 });
export { test };
export type { APIRequestContext, Locator, Page, Route } from '@playwright/test';
