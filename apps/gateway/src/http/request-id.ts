import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What we accept from a caller (a proxy, the SPA, a test): short, printable, no spaces or separators that could forge log lines. */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/**
 * Fastify's `genReqId`: honours an incoming X-Request-Id when it is well-formed, otherwise makes a
 * fresh one. The id then names the request in every log line (`requestId`), goes back to the caller
 * as a response header and travels in the RPC meta to the services.
 */
export function requestIdFor(raw: Pick<IncomingMessage, 'headers'>): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return isWellFormedRequestId(value) ? value : randomUUID();
}
