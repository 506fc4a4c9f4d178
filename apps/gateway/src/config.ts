import { SERVICES } from '@lv/contracts';
import { commonConfigSchema, objectStorageConfigSchema, z } from '@lv/platform/config';

/** Marks an unset COOKIE_SECURE until the whole object (and so NODE_ENV) is known. */
const COOKIE_SECURE_UNSET = Symbol('COOKIE_SECURE unset');

export const gatewayConfigSchema = commonConfigSchema.extend(objectStorageConfigSchema.shape).extend({
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
