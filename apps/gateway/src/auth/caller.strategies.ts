import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import type { AccessTokenVerifier, UserCaller, ViewerCaller, ViewerTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { attachCaller, bearerToken, verifyAccessToken, verifyViewerToken } from '../http/request-context.js';
import { ACCESS_TOKEN_VERIFIER, VIEWER_TOKEN_VERIFIER } from '../infra/tokens.js';

export const OWNER_STRATEGY = 'owner';
export const VIEWER_STRATEGY = 'viewer';

/**
 * An owner: the Bearer access token verifies with identity's public key, is unexpired, and its
 * session is not revoked. Only people's tokens: the ops CLI's operator tokens talk to services
 * directly, and a viewer token fails the access token's issuer and audience.
 */
@Injectable()
export class OwnerStrategy extends PassportStrategy(Strategy, OWNER_STRATEGY) {
  constructor(@Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier) {
    super();
  }

  async validate(request: FastifyRequest): Promise<UserCaller> {
    const token = bearerToken(request.headers.authorization);
    const caller = await verifyAccessToken(this.verifier, token);
    if (caller.kind !== 'user') throw new DomainError('FORBIDDEN');
    attachCaller(request, caller, token!);
    return caller;
  }
}

/**
 * A viewer of one owner's vault: the Bearer viewer token verifies with the viewer public key, is
 * unexpired, and its view session is not revoked. Without a viewer key configured, no one is a viewer.
 */
@Injectable()
export class ViewerStrategy extends PassportStrategy(Strategy, VIEWER_STRATEGY) {
  constructor(@Inject(VIEWER_TOKEN_VERIFIER) private readonly verifier: ViewerTokenVerifier | null) {
    super();
  }

  async validate(request: FastifyRequest): Promise<ViewerCaller> {
    const token = bearerToken(request.headers.authorization);
    if (!this.verifier) throw new DomainError('UNAUTHENTICATED');
    const viewer = await verifyViewerToken(this.verifier, token);
    attachCaller(request, viewer, token!);
    return viewer;
  }
}
