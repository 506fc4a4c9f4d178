/**
 * What no log line may carry, for every process (issue 29): access keys, link tokens, view-session
 * secrets, passwords, bearer tokens and cookies. A key in a request body or an RPC payload is
 * censored by name; a request line is logged by its route template (or its path), never its query
 * string, because a key e-mail's old `/access?k=` links and `?session=` addresses carry secrets there.
 */
export const SECRET_FIELD_NAMES = [
  'k', 'key', 'token', 'access', 'access_key', 'accessKey', 'session', 'secret', 'password', 'accessToken', 'refreshToken', 'key_link_token', 'viewer_token',
] as const;

const CENSORED_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-view-session'];

/** pino `redact` paths: each secret field at the top of a line and one level down (a payload, a body). */
export const SECRET_REDACT_PATHS: readonly string[] = [
  ...SECRET_FIELD_NAMES.flatMap((name) => [name, `*.${name}`]),
  ...CENSORED_HEADERS.flatMap((name) => [`req.headers["${name}"]`, `res.headers["${name}"]`]),
  'auth.accessToken',
];

/** The parts of an incoming request a log line may show (Fastify's request, or a bare Node request). */
interface LoggableRequest {
  method?: string;
  url?: string;
  ip?: string;
  host?: string;
  routeOptions?: { url?: string };
  socket?: { remotePort?: number };
}

/**
 * The address a log line shows for a request: the route's template when one matched (`/api/view/entries/:section`:
 * a token in a path segment stays out too), else the path with the query string cut off (the SPA's
 * deep links, 404s). A fragment never reaches the server.
 */
export function loggableUrl(req: LoggableRequest): string {
  const template = req.routeOptions?.url;
  if (template && !template.includes('*')) return template;
  return (req.url ?? '').split('?', 1)[0] ?? '';
}

/** Fastify's `req` serializer with the address made safe; the rest is what Fastify logs by default. */
export function serializeRequest(req: LoggableRequest) {
  return { method: req.method, url: loggableUrl(req), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
