import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AccessTokenVerifier, AccountCaller, Caller, UserCaller, ViewerCaller, ViewerTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { CallContext } from '@lv/platform/nest';
import { requestOriginOf } from './cross-site.guard.js';

interface Authenticated {
  caller: Caller;
  accessToken: string;
}

/**
 * The verified caller of an HTTP request, kept beside the request object (not on it, and never read
 * from anything the client sends but the verified token).
 */
const authenticated = new WeakMap<object, Authenticated>();

export function attachCaller(request: FastifyRequest, caller: Caller, accessToken: string): void {
  authenticated.set(request, { caller, accessToken });
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/**
 * Verifies an access token; an infrastructure failure behind the check (Redis down for the
 * revocation list) becomes SERVICE_UNAVAILABLE rather than a 500 or, worse, a pass.
 */
export async function verifyAccessToken(verifier: AccessTokenVerifier, token: string | undefined): Promise<AccountCaller> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('SERVICE_UNAVAILABLE');
  }
}

/** Verifies a viewer token, with the same mapping of an infrastructure failure to SERVICE_UNAVAILABLE. */
export async function verifyViewerToken(verifier: ViewerTokenVerifier, token: string | undefined): Promise<ViewerCaller> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('SERVICE_UNAVAILABLE');
  }
}

/**
 * What travels with every RPC made for this request: the verified token (access or viewer) and the
 * request's meta. `ip` is Fastify's, so X-Forwarded-For counts only from the proxies TRUST_PROXY names.
 */
export function callContextOf(request: FastifyRequest): CallContext {
  const userAgent = request.headers['user-agent'];
  const origin = requestOriginOf(request);
  return {
    accessToken: authenticated.get(request)?.accessToken,
    meta: {
      requestId: String(request.id), ip: request.ip,
      ...(userAgent ? { userAgent: userAgent.slice(0, 512) } : {}),
      ...(origin ? { origin: origin.slice(0, 512) } : {}),
    },
  };
}

/** Injects the verified owner; only valid on owner routes (guarded, neither @Public nor @ViewerRoute). */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): UserCaller => {
  const auth = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>());
  if (!auth) throw new Error('CurrentCaller used on a handler that is not guarded');
  if (auth.caller.kind !== 'user') throw new Error('CurrentCaller used on a handler that is not an owner route');
  return auth.caller;
});

/** Injects the verified viewer; only valid on @ViewerRoute() handlers. */
export const CurrentViewer = createParamDecorator((_: unknown, context: ExecutionContext): ViewerCaller => {
  const auth = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>());
  if (!auth || auth.caller.kind !== 'viewer') throw new Error('CurrentViewer used on a handler that is not a @ViewerRoute()');
  return auth.caller;
});

/** Injects the CallContext to pass to RpcClient.call (access token + request id, client address, user agent, origin). */
export const CallCtx = createParamDecorator((_: unknown, context: ExecutionContext): CallContext => callContextOf(context.switchToHttp().getRequest<FastifyRequest>()));
