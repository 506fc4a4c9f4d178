import { z } from 'zod';

/**
 * The gateway's HTTP API as the SPA sees it. Errors always come back as an `ErrorBody` JSON with the
 * matching HTTP status (see errors.ts).
 *
 *   POST  /api/auth/sign-up   {email, password}  -> 201 SessionView, sets the refresh cookie
 *   POST  /api/auth/sign-in   {email, password}  -> 200 SessionView, sets the refresh cookie
 *   POST  /api/auth/refresh   (refresh cookie)   -> 200 SessionView (rotates the cookie) | 401
 *   POST  /api/auth/sign-out  (refresh cookie)   -> 204, session revoked on the server
 *   GET   /api/me             Bearer             -> 200 UserProfile
 *   PATCH /api/me             Bearer, UpdateProfileRequest -> 200 UserProfile
 *   GET   /api/vault/stats    Bearer             -> 200 VaultStats
 *   GET   /api/vault/reflection Bearer           -> 200 Reflection
 *   PUT   /api/vault/reflection Bearer, SaveReflectionRequest -> 200 Reflection (blank text clears it)
 *   GET   /api/health                            -> 200 | 503 HealthReport
 */
export const REFRESH_COOKIE = 'lv_refresh';

export const vaultStatsSchema = z.object({
  /** Video and audio messages saved. */
  videosSaved: z.number().int().min(0),
  /** Letters written (letters, not court documents). */
  lettersWritten: z.number().int().min(0),
  /** 1 when the user's reflection is saved (server-side) and not blank, else 0. */
  thoughtsSaved: z.number().int().min(0).max(1).meta({ description: '1 when the reflection ("Thoughts & Feelings") is saved, else 0.' }),
  /** Distinct calendar days with saved entries; at least 1 for a signed-in user. */
  daysActive: z.number().int().min(1),
});
export type VaultStats = z.infer<typeof vaultStatsSchema>;

export const HEALTH_STATUSES = ['up', 'down'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const healthCheckSchema = z.object({ status: z.enum(HEALTH_STATUSES), detail: z.string().optional(), latencyMs: z.number().optional() });
export const healthReportSchema = z.object({ status: z.enum(HEALTH_STATUSES), checks: z.record(z.string(), healthCheckSchema) });
export type HealthReport = z.infer<typeof healthReportSchema>;
