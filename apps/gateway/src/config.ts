import { commonConfigSchema, objectStorageConfigSchema, z } from '@lv/platform/config';

export const gatewayConfigSchema = commonConfigSchema.extend(objectStorageConfigSchema.shape).extend({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Built SPA (apps/web/dist); the gateway serves it with deep links falling back to index.html. */
  WEB_DIST_DIR: z.string().min(1),
  /** Mark cookies Secure (on behind TLS in deploy/; off for http://127.0.0.1). */
  COOKIE_SECURE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Services whose readiness /api/health reports. */
  HEALTH_SERVICES: z.string().default('identity').transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
