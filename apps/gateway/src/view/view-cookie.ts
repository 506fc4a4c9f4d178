import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { VIEW_COOKIE_PATH, VIEW_TOKEN_COOKIE } from '@lv/contracts';

/**
 * The viewer's lv_view cookie: the current viewer token, for the one thing a Bearer header cannot
 * reach, a media element's or a new tab's request for bytes. httpOnly (the SPA's JavaScript never reads
 * it), SameSite=Strict, only under /api/view, Secure behind TLS, and living exactly as long as the
 * token: a link copied to another browser finds no cookie there, and the byte listener verifies the
 * token itself (expiry, revocation) on every request.
 */
export function viewCookieOptions(tokenExpiresAt: number, secure: boolean, now = Date.now()): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: VIEW_COOKIE_PATH, maxAge: Math.max(0, Math.floor((tokenExpiresAt - now) / 1000)) };
}

/** Sets the cookie from a grant (redeem, token renewal): the SPA's renewal every ~14 minutes moves it along. */
export function setViewCookie(reply: FastifyReply, grant: { viewer_token: string; viewer_token_expires_at: number }, secure: boolean): void {
  reply.setCookie(VIEW_TOKEN_COOKIE, grant.viewer_token, viewCookieOptions(grant.viewer_token_expires_at, secure));
}

/** "Clear access": the cookie goes with the session. */
export function clearViewCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(VIEW_TOKEN_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: VIEW_COOKIE_PATH, maxAge: 0, expires: new Date(0) });
}
