import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { credentialsBodySchema, ErrorCodes, signUpBodySchema, IdentityRpc, REFRESH_COOKIE, type IssuedSession, type SessionView, sessionViewSchema } from '@lv/contracts';
import { AccessTokenVerifier } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { bearerToken, CallCtx } from '../http/request-context.js';
import { ACCESS_TOKEN_VERIFIER, GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { DEVICE_COOKIE, DeviceCookies, deviceCookieOptions } from './device-cookie.js';
import { clearedRefreshCookieOptions, refreshCookieOptions } from './refresh-cookie.js';

/**
 * /api/auth/*: the only public entry points that touch sessions. Identity issues the session; the
 * gateway keeps the refresh token in an httpOnly cookie and hands the SPA the rest (SessionView).
 * The client address travels in the RPC meta so identity can rate-limit sign-ins per address, and so
 * does the device id of a browser whose lv_device cookie proves an earlier sign-in to the same email.
 */
@ApiTags('auth')
@RouteErrors({
  503: 'Identity is unavailable.',
  403: 'CROSS_SITE_REFUSED: sent from another site (Origin, Sec-Fetch-Site).',
  415: 'JSON_REQUIRED: a body that is not application/json.',
})
@Controller('auth')
export class AuthController {
  private readonly devices: DeviceCookies;

  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.devices = new DeviceCookies(config.DEVICE_COOKIE_SECRET);
  }

  @Public()
  @Post('sign-up')
  @Route({
    body: signUpBodySchema,
    reply: sessionViewSchema,
    status: 201,
    description: 'Account created and signed in; sets the refresh cookie.',
    errors: {
      400: 'VALIDATION_FAILED with per-field messages.',
      409: 'EMAIL_TAKEN',
      429: 'RATE_LIMITED (10 sign-ups an hour per address), with Retry-After.',
    },
  })
  async signUp(@RouteBody() body: z.output<typeof signUpBodySchema>, @Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const credentials = body;
    const session = await this.rpc.call(IdentityRpc.signUp, credentials, { meta: call.meta });
    return this.startSession(request, reply, session);
  }

  @Public()
  @Post('sign-in')
  @Route({
    body: credentialsBodySchema,
    reply: sessionViewSchema,
    description: 'Signed in; sets the refresh cookie.',
    errors: {
      400: 'VALIDATION_FAILED with per-field messages.',
      401: 'INVALID_CREDENTIALS',
      429: 'RATE_LIMITED, with Retry-After.',
    },
  })
  async signIn(@RouteBody() body: z.output<typeof credentialsBodySchema>, @Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const credentials = body;
    const device = this.devices.deviceFor(request.cookies[DEVICE_COOKIE], credentials.email);
    const session = await this.rpc.call(IdentityRpc.signIn, credentials, { meta: { ...call.meta, device } });
    return this.startSession(request, reply, session);
  }

  @Public({ verifiesOwnToken: true })
  @Post('refresh')
  @ApiCookieAuth('refresh-cookie')
  @Route({
    reply: sessionViewSchema,
    description: 'A new access token; the refresh cookie is rotated.',
    errors: {
      401: 'No refresh cookie, or the session is over.',
    },
  })
  async refresh(@Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const refreshToken = request.cookies[REFRESH_COOKIE];
    if (!refreshToken) throw new DomainError('UNAUTHENTICATED');
    let session: IssuedSession;
    try {
      session = await this.rpc.call(IdentityRpc.refresh, { refreshToken }, { meta: call.meta });
    } catch (error) {
      // A refused refresh token is dead for good: drop the cookie so the browser stops sending it.
      if (error instanceof DomainError && ErrorCodes[error.code].status === 401) reply.clearCookie(REFRESH_COOKIE, clearedRefreshCookieOptions(this.config.COOKIE_SECURE));
      throw error;
    }
    return this.startSession(request, reply, session, false);
  }

  @Public({ verifiesOwnToken: true })
  @Post('sign-out')
  @ApiCookieAuth('refresh-cookie')
  @Route({ status: 204, description: 'The session is revoked and the refresh cookie cleared (also when there was no session).' })
  async signOut(@Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const refreshToken = request.cookies[REFRESH_COOKIE] || undefined;
    // The cookie goes whatever happens next: signing out must never leave a usable cookie behind.
    reply.clearCookie(REFRESH_COOKIE, clearedRefreshCookieOptions(this.config.COOKIE_SECURE));
    // The access token is forwarded only when it is still valid, so identity can revoke its session
    // even without the cookie; an expired one would only get the whole call refused.
    const accessToken = await this.validAccessToken(bearerToken(request.headers.authorization));
    if (!refreshToken && !accessToken) return;
    try {
      await this.rpc.call(IdentityRpc.signOut, { refreshToken }, { accessToken, meta: call.meta });
    } catch (error) {
      // Already signed out (unknown or expired session): signing out again is not an error.
      if (error instanceof DomainError && ErrorCodes[error.code].status === 401) return;
      throw error;
    }
  }

  /** Sets the refresh cookie; after a sign-in or sign-up also marks the browser as known for the account. */
  private startSession(request: FastifyRequest, reply: FastifyReply, session: IssuedSession, signedIn = true): SessionView {
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, refreshCookieOptions(session.refreshTokenExpiresAt, this.config.COOKIE_SECURE));
    if (signedIn) reply.setCookie(DEVICE_COOKIE, this.devices.issue(session.profile.email, request.cookies[DEVICE_COOKIE]), deviceCookieOptions(this.config.COOKIE_SECURE));
    return { accessToken: session.accessToken, accessTokenExpiresAt: session.accessTokenExpiresAt, profile: session.profile };
  }

  private async validAccessToken(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    try {
      const caller = await this.verifier.verify(token);
      return caller.kind === 'user' ? token : undefined;
    } catch {
      return undefined;
    }
  }
}
