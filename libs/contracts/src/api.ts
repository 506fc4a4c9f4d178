/**
 * The gateway's HTTP API as the SPA sees it. Errors always come back as an `ErrorBody` JSON with the
 * matching HTTP status (see errors.ts).
 *
 *   POST  /api/auth/sign-up   {email, password}  -> 201 SessionView, sets the refresh cookie
 *   POST  /api/auth/sign-in   {email, password}  -> 200 SessionView, sets the refresh cookie
 *   POST  /api/auth/refresh   (refresh cookie)   -> 200 SessionView (rotates the cookie) | 401
 *   POST  /api/auth/session   (refresh cookie)   -> 200 { session: SessionView } (rotates the cookie) | 200 { session: null }
 *   POST  /api/auth/sign-out  (refresh cookie)   -> 204, session revoked on the server
 *   GET   /api/me             Bearer             -> 200 UserProfile
 *   PATCH /api/me             Bearer, UpdateProfileRequest -> 200 UserProfile
 *   GET   /api/vault/stats    Bearer             -> 200 VaultStats
 *   GET   /api/vault/reflection Bearer           -> 200 Reflection
 *   PUT   /api/vault/reflection Bearer, SaveReflectionRequest -> 200 Reflection (blank text clears it)
 *   GET   /api/health                            -> 200 | 503 HealthReport
 */
export const REFRESH_COOKIE = 'lv_refresh';

export const HEALTH_STATUSES = ['up', 'down'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];
