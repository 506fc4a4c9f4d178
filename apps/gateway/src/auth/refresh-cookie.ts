import type { CookieSerializeOptions } from '@fastify/cookie';

/** The refresh cookie only ever travels to the auth endpoints. */
export const REFRESH_COOKIE_PATH = '/api/auth';

/**
 * The refresh token's cookie: httpOnly (the SPA's JavaScript never sees it), SameSite=Strict (no
 * cross-site request carries it), scoped to /api/auth, Secure behind TLS, and living exactly as long
 * as the refresh token does.
 */
export function refreshCookieOptions(refreshTokenExpiresAt: number, secure: boolean, now = Date.now()): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: REFRESH_COOKIE_PATH,
    maxAge: Math.max(0, Math.floor((refreshTokenExpiresAt - now) / 1000)),
  };
}

/** Options that delete the refresh cookie (same name/path/attributes, expired). */
export function clearedRefreshCookieOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: REFRESH_COOKIE_PATH, maxAge: 0, expires: new Date(0) };
}
