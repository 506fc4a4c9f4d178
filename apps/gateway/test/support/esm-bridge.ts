import { jest } from '@jest/globals';

/**
 * Some CommonJS packages the gateway loads require ESM-only packages: @fastify/static requires
 * `content-disposition` (ESM since v2) and Fastify's `inject()` (light-my-request) requires `cookie`
 * (ESM since v2). Node 22 loads those natively (require(esm)), but Jest's module runtime cannot
 * before Node 24.9. Hand the real modules to Jest's CommonJS registry so the gateway runs unchanged
 * under Jest.
 *
 * Call before importing anything that reaches those packages (the app factory, the SPA plugin).
 */
export async function bridgeEsmOnlyDependencies(): Promise<void> {
  const contentDisposition = await import('content-disposition');
  jest.mock('content-disposition', () => contentDisposition);
  const cookie = await import('cookie');
  jest.mock('cookie', () => cookie);
}
