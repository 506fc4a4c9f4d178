import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, AccessTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { sendErrorResponse } from '../http/error-response.js';
import { bearerToken, verifyAccessToken } from '../http/request-context.js';

/** Where the queue dashboard lives, and the cookie that lets a browser open it. */
export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';
export const ADMIN_COOKIE = 'lv_admin';
/** The admin cookie never outlives its access token, nor this. */
export const ADMIN_COOKIE_MAX_AGE_SECONDS = 15 * 60;

/**
 * A browser cannot add a Bearer header to a page it navigates to, so an admin first calls
 * POST /api/admin/queue-session with the header; the gateway answers with this cookie, which holds
 * that same access token: httpOnly, SameSite=Strict, sent only to the dashboard's path, and no longer
 * than the token itself lives. Every dashboard request re-verifies it like a Bearer token (signature,
 * expiry, revoked session, admin claim), so signing out ends dashboard access at once too.
 */
export function adminCookieOptions(tokenExpiresAtMs: number, secure: boolean, now = Date.now()): CookieSerializeOptions {
  return tokenCookieOptions(QUEUE_DASHBOARD_PATH, ADMIN_COOKIE_MAX_AGE_SECONDS, tokenExpiresAtMs, secure, now);
}

/**
 * A cookie that carries an access token to one path a browser navigates to (a dashboard, a download):
 * httpOnly, SameSite=Strict, that path only, and never longer than `maxAgeSeconds` nor the token itself.
 */
export function tokenCookieOptions(path: string, maxAgeSeconds: number, tokenExpiresAtMs: number, secure: boolean, now = Date.now()): CookieSerializeOptions {
  const remaining = Math.floor((tokenExpiresAtMs - now) / 1000);
  return { httpOnly: true, sameSite: 'strict', secure, path, maxAge: Math.max(0, Math.min(maxAgeSeconds, remaining)) };
}

export function clearedAdminCookieOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: QUEUE_DASHBOARD_PATH, maxAge: 0, expires: new Date(0) };
}

/** The `exp` of a JWT in epoch ms (read only for the cookie's lifetime; the token is verified separately). */
export function tokenExpiresAt(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The admin behind a request: a Bearer admin token, or the lv_admin cookie. 401 without a valid token, 403 for non-admins. */
export async function verifyAdminRequest(verifier: AccessTokenVerifier, request: FastifyRequest): Promise<Caller> {
  const token = bearerToken(request.headers.authorization) ?? request.cookies?.[ADMIN_COOKIE];
  const caller = await verifyAccessToken(verifier, token);
  if (caller.kind !== 'user' || !caller.isAdmin) throw new DomainError('FORBIDDEN');
  return caller;
}

/**
 * Mounts a Fastify plugin (the BullMQ dashboard) under `prefix`, behind an admin-only gate that runs
 * before any of its routes. Must be called before the app starts listening.
 */
export async function mountAdminOnly(
  app: FastifyInstance,
  verifier: AccessTokenVerifier,
  plugin: FastifyPluginAsync | FastifyPluginCallback,
  prefix = QUEUE_DASHBOARD_PATH,
): Promise<void> {
  await app.register(async (scope) => {
    // Created before Nest installs its error handler on the root: answer failures as ErrorBody here too.
    scope.setErrorHandler((error, request, reply) => sendErrorResponse(reply, request.log, error));
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        await verifyAdminRequest(verifier, request);
      } catch (error) {
        sendErrorResponse(reply, request.log, error);
        return reply;
      }
    });
    await scope.register(plugin, { prefix });
  });
}
