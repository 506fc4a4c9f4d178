import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { isApiPath } from '../spa/spa-files.js';
import { sendErrorResponse } from './error-response.js';

/** Methods that change something: only these are refused for their origin (GET and HEAD never act). */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes whose body is a raw byte stream rather than JSON: the upload of a recording's bytes, which
 * streams through to vault-media (checked for WebM there), and of a court document's, which streams
 * through to court-journal (checked by its magic bytes there). Nothing else under /api takes a non-JSON body.
 */
const BYTE_STREAM_ROUTES: readonly { method: string; path: RegExp }[] = [
  { method: 'PUT', path: /^\/api\/media\/uploads\/[^/]+$/ },
  { method: 'PATCH', path: /^\/api\/media\/tus\/[^/]+$/ },
  { method: 'PUT', path: /^\/api\/court\/uploads\/[^/]+$/ },
];

/** What the decision needs from a request (plain values, so it can be tested without a server). */
export interface EdgeRequest {
  method: string;
  /** The URL path without the query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The gateway's own origin as this request reached it (scheme://host[:port]). */
  ownOrigin: string;
}

export interface EdgePolicy {
  /** More origins the SPA is served from (e.g. a proxy that rewrites Host); normalised, no trailing slash. */
  extraOrigins: readonly string[];
  /** Behind TLS: the browser's origin is https even when the hop to the gateway is plain http. */
  secure: boolean;
}

function header(headers: EdgeRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function hasBody(headers: EdgeRequest['headers']): boolean {
  const length = header(headers, 'content-length');
  if (length !== undefined) return length.trim() !== '0';
  return header(headers, 'transfer-encoding') !== undefined;
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}

/** Origins seen lately, normalised: every API request names the gateway's own (one or two values), and parsing a URL each time shows in its CPU. Bounded, as the values come from clients. */
const normalisedOrigins = new Map<string, string | null>();
const NORMALISED_ORIGINS_MAX = 64;

/** scheme://host[:port] as URL spells it (lower case, default port dropped); null when it is not one. */
function normalisedOrigin(value: string): string | null {
  const known = normalisedOrigins.get(value);
  if (known !== undefined) return known;
  let origin: string | null;
  try {
    origin = new URL(value).origin;
    if (origin === 'null') origin = null;
  } catch {
    origin = null;
  }
  if (normalisedOrigins.size >= NORMALISED_ORIGINS_MAX) normalisedOrigins.clear();
  normalisedOrigins.set(value, origin);
  return origin;
}

function isOwnOrigin(value: string, request: EdgeRequest, policy: EdgePolicy): boolean {
  const origin = normalisedOrigin(value);
  if (!origin) return false;
  if (policy.extraOrigins.includes(origin)) return true;
  const own = normalisedOrigin(request.ownOrigin);
  if (!own) return false;
  if (origin === own) return true;
  // TLS ended at a proxy the gateway does not trust for X-Forwarded-Proto: same host, https.
  if (!policy.secure) return false;
  const { host, hostname } = new URL(own);
  return origin === normalisedOrigin(`https://${hostname}`) || origin === normalisedOrigin(`https://${host}`);
}

/**
 * The edge's refusal for a request, if any (null lets it through):
 * - CROSS_SITE_REFUSED (403) for a state-changing /api request the browser marks `Sec-Fetch-Site:
 *   cross-site`, or whose `Origin` is not the app's own (including the opaque `null`). A request
 *   without Origin is no browser's cross-site request (browsers send it on every POST/PUT/PATCH/DELETE
 *   that is not same-origin), so scripts and the CLI keep working.
 * - JSON_REQUIRED (415) for an /api request carrying a body that is not application/json, except the
 *   byte streams. HTML forms can only send form-encoded, multipart or text/plain bodies, so this
 *   closes login CSRF even for a browser that sends neither header.
 */
export function edgeRefusal(request: EdgeRequest, policy: EdgePolicy): ErrorCode | null {
  if (!isApiPath(request.path)) return null;
  const method = request.method.toUpperCase();
  if (STATE_CHANGING.has(method)) {
    if (header(request.headers, 'sec-fetch-site')?.trim().toLowerCase() === 'cross-site') return 'CROSS_SITE_REFUSED';
    const origin = header(request.headers, 'origin');
    if (origin !== undefined && !isOwnOrigin(origin.trim(), request, policy)) return 'CROSS_SITE_REFUSED';
  }
  if (hasBody(request.headers) && !isJson(header(request.headers, 'content-type'))) {
    const streamed = BYTE_STREAM_ROUTES.some((route) => route.method === method && route.path.test(request.path));
    if (!streamed) return 'JSON_REQUIRED';
  }
  return null;
}

/** Origins from a comma-separated setting, normalised (lower-case scheme and host, no trailing slash). */
export function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const url = new URL(s);
      if (url.origin === 'null') throw new Error(`not an http(s) origin: ${s}`);
      return url.origin;
    });
}

function ownOriginOf(request: FastifyRequest): string {
  // request.host is the Host header (X-Forwarded-Host only from trusted proxies), port included.
  return `${request.protocol}://${request.host}`;
}

/**
 * The origin a request came from, for the record (a viewer's consent keeps it): its Origin header
 * when that is a real origin, else the gateway's own origin as the request reached it. Normalised.
 * Not a security decision: state-changing requests from another origin never get this far.
 */
export function requestOriginOf(request: FastifyRequest): string | undefined {
  const origin = header(request.headers, 'origin');
  return (origin !== undefined ? normalisedOrigin(origin.trim()) : null) ?? normalisedOrigin(ownOriginOf(request)) ?? undefined;
}

/**
 * Installs the edge check as the first onRequest hook, before any body is read or parsed: a refused
 * request never reaches a parser or a handler.
 */
export function registerCrossSiteGuard(fastify: FastifyInstance, policy: EdgePolicy): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const refusal = edgeRefusal(
      { method: request.method, path: request.url.split('?', 1)[0] ?? '', headers: request.headers, ownOrigin: ownOriginOf(request) },
      policy,
    );
    if (!refusal) {
      done();
      return;
    }
    // The body (if any) is never read: close the connection rather than leave it half-read.
    if (hasBody(request.headers)) reply.header('connection', 'close');
    sendErrorResponse(reply, request.log, new DomainError(refusal));
  });
}
