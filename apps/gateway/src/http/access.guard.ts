import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AccessTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { ACCESS_TOKEN_VERIFIER } from '../infra/tokens.js';
import { PUBLIC_ROUTE } from './public.decorator.js';
import { attachCaller, bearerToken, verifyAccessToken } from './request-context.js';

/**
 * Guards every HTTP handler by default (registered as APP_GUARD): the Bearer access token must verify
 * with identity's public key, be unexpired, and its session must not be on the revocation list, so a
 * signed-out session is refused at once. Handlers opt out with @Public().
 *
 * Only people's tokens are accepted here; the ops CLI's operator tokens talk to services directly.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = bearerToken(request.headers.authorization);
    const caller = await verifyAccessToken(this.verifier, token);
    if (caller.kind !== 'user') throw new DomainError('FORBIDDEN');
    attachCaller(request, caller, token!);
    return true;
  }
}
