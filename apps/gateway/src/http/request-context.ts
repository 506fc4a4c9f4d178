import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '@lv/platform/auth';
import { AccessTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { CallContext } from '@lv/platform/nest';

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

export function authenticationOf(request: FastifyRequest): Authenticated | undefined {
  return authenticated.get(request);
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
export async function verifyAccessToken(verifier: AccessTokenVerifier, token: string | undefined): Promise<Caller> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('SERVICE_UNAVAILABLE');
  }
}

/** What travels with every RPC made for this request: the verified access token and the request's meta. */
export function callContextOf(request: FastifyRequest): CallContext {
  const userAgent = request.headers['user-agent'];
  return {
    accessToken: authenticated.get(request)?.accessToken,
    meta: { requestId: String(request.id), ip: request.ip, ...(userAgent ? { userAgent: userAgent.slice(0, 512) } : {}) },
  };
}

/** Injects the verified Caller; only valid on guarded (non-@Public) handlers. */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const auth = authenticated.get(context.switchToHttp().getRequest<FastifyRequest>());
  if (!auth) throw new Error('CurrentCaller used on a handler that is not guarded');
  return auth.caller;
});

/** Injects the CallContext to pass to RpcClient.call (access token + request id, client address, user agent). */
export const CallCtx = createParamDecorator((_: unknown, context: ExecutionContext): CallContext => callContextOf(context.switchToHttp().getRequest<FastifyRequest>()));
