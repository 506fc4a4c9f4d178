import { SERVICES } from '@lv/contracts';
import { commonConfigSchema, markSecret, z } from '@lv/platform/config';
import { parseOrigins } from './http/cross-site.guard.js';

/** Marks an unset COOKIE_SECURE until the whole object (and so NODE_ENV) is known. */
const COOKIE_SECURE_UNSET = Symbol('COOKIE_SECURE unset');

/** A duration in milliseconds; 0 is refused (it would mean "never" to Node's HTTP server). */
const positiveMs = (fallback: number) => z.coerce.number().int().positive().default(fallback);

// No object-storage settings: the gateway stores nothing, and learns about storage from vault-media's health.
export const gatewayConfigSchema = commonConfigSchema.extend({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Built SPA (apps/web/dist); the gateway serves it with deep links falling back to index.html. */
  WEB_DIST_DIR: z.string().min(1),
  /**
   * vault-media's internal HTTP listener for byte streams (upload bodies in, Range reads out). The
   * gateway proxies those to it; everything else about media goes over NATS.
   */
  VAULT_MEDIA_URL: z.string().url().default('http://127.0.0.1:3401'),
  /**
   * court-journal's internal HTTP listener for byte streams (document uploads in; previews, downloads
   * and evidence bundles out). Everything else about court documents goes over NATS.
   */
  COURT_JOURNAL_URL: z.string().url().default('http://127.0.0.1:3402'),
  /**
   * HMAC key of the lv_device cookie, which marks a browser that signed in to an account before, so
   * that failures from elsewhere do not lock it out (at least 32 characters; generated for the dev stack).
   */
  DEVICE_COOKIE_SECRET: markSecret(z.string().min(32, 'must be at least 32 characters')),
  /**
   * Origins the SPA is served from besides the one the gateway itself sees (scheme://host[:port] of the
   * request), comma-separated. State-changing /api requests from any other Origin are refused (403).
   */
  APP_ORIGINS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseOrigins(v);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Connection bounds of the HTTP listener, so a slow or stalled client cannot hold a connection:
   * the headers must arrive within HTTP_HEADERS_TIMEOUT_MS, a connection with no bytes moving for
   * HTTP_IDLE_TIMEOUT_MS is closed, and a whole request (an upload's body included) must arrive
   * within HTTP_REQUEST_TIMEOUT_MS.
   */
  HTTP_HEADERS_TIMEOUT_MS: positiveMs(10_000),
  HTTP_IDLE_TIMEOUT_MS: positiveMs(30_000),
  HTTP_REQUEST_TIMEOUT_MS: positiveMs(60 * 60_000),
  /**
   * The proxy to vault-media tears down a connection on which no byte moved for this long (vault-media
   * hangs, or a browser stopped reading a recording). Shorter than HTTP_IDLE_TIMEOUT_MS, so a browser
   * waiting on a hung vault-media gets a 503 rather than a cut connection.
   */
  VAULT_MEDIA_IDLE_TIMEOUT_MS: positiveMs(20_000),
  /** The same bound for the proxy to court-journal's byte listener. */
  COURT_JOURNAL_IDLE_TIMEOUT_MS: positiveMs(20_000),
  /**
   * Mark cookies Secure (and send HSTS). Unset, it is on outside development (see the overwrite
   * below); the development stack sets 'false' for http://127.0.0.1.
   */
  COOKIE_SECURE: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? (COOKIE_SECURE_UNSET as unknown as boolean) : v === 'true')),
  /** Services whose readiness /api/health reports (names from the contracts' SERVICES list). */
  HEALTH_SERVICES: z
    .string()
    .default('identity')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(SERVICES, { error: (issue) => `unknown service ${JSON.stringify(issue.input)} (known: ${SERVICES.join(', ')})` }))),
  /**
   * Which proxies to believe for the client address (X-Forwarded-For) that sign-in rate limits use:
   * 'false' (direct), 'true' (any), a hop count, or comma-separated addresses/CIDRs of the proxies.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string[] => {
      const value = v.trim();
      if (value === 'true' || value === 'false') return value === 'true';
      if (/^\d+$/.test(value)) return Number(value);
      return value.split(',').map((s) => s.trim()).filter(Boolean);
    }),
}).overwrite((config) => ({
  ...config,
  // A deployment that forgets the variable must not hand out session cookies over plain HTTP.
  COOKIE_SECURE: (config.COOKIE_SECURE as unknown) === COOKIE_SECURE_UNSET ? config.NODE_ENV !== 'development' : config.COOKIE_SECURE,
}));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
