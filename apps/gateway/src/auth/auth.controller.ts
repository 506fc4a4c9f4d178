import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  credentialsBodySchema, emailChangeLinkBodySchema, signInViewSchema, twoStepSignInBodySchema, ErrorCodes, forgotPasswordBodySchema, forgotPasswordReplySchema, IdentityRpc, REFRESH_COOKIE, resetPasswordBodySchema, signUpBodySchema, sessionProbeSchema, sessionViewSchema, verifyEmailBodySchema,
  passkeyAssertionBodySchema, twoStepPasskeyBodySchema, twoStepPasskeyOptionsBodySchema, type PasskeyCeremony,
  type EmailChangeLinkReply, type ForgotPasswordReply, type IssuedSession, type ResetPasswordReply, type SessionProbe, type SessionView, type SignInView, type VerifyEmailReply,
} from '@lv/contracts';
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
    reply: signInViewSchema,
    description: 'Signed in; sets the refresh cookie. For an account with two-step sign-in on: no session and no cookie, but a challenge for POST /api/auth/sign-in/two-step (5 minutes).',
    errors: {
      400: 'VALIDATION_FAILED with per-field messages.',
      401: 'INVALID_CREDENTIALS',
      429: 'RATE_LIMITED, with Retry-After.',
    },
  })
  async signIn(@RouteBody() body: z.output<typeof credentialsBodySchema>, @Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SignInView> {
    const credentials = body;
    const device = this.devices.deviceFor(request.cookies[DEVICE_COOKIE], credentials.email);
    const outcome = await this.rpc.call(IdentityRpc.signIn, credentials, { meta: { ...call.meta, device } });
    // The password alone opens nothing when two-step sign-in is on: the challenge goes back, no cookie.
    if ('twoStepRequired' in outcome) return outcome;
    return this.startSession(request, reply, outcome);
  }

  /** Two-step sign-in's second step: the challenge of the password step and a code from the app, or a recovery code. */
  @Public()
  @Post('sign-in/two-step')
  @Route({
    body: twoStepSignInBodySchema,
    reply: sessionViewSchema,
    description: 'Signed in; sets the refresh cookie. A recovery code works once.',
    errors: {
      400: 'VALIDATION_FAILED: no code or no challenge.',
      401: 'TWO_STEP_INVALID: a wrong or used code, a lapsed, used, altered or another account’s challenge: one answer for all.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async signInTwoStep(@RouteBody() body: z.output<typeof twoStepSignInBodySchema>, @Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const session = await this.rpc.call(IdentityRpc.signInTwoStep, body, { meta: call.meta });
    return this.startSession(request, reply, session);
  }

  // Passkeys (WebAuthn): signing in without a password, and as the second step after it.

  /** Options for navigator.credentials.get() with no account named: the browser offers this site's passkeys. */
  @Public()
  @Post('passkey/options')
  @Route({
    reply: IdentityRpc.passkeySignInOptions.reply,
    description: 'A single-use challenge (5 minutes) and the options for the browser; send its answer to POST /api/auth/passkey.',
    errors: {
      429: 'RATE_LIMITED (per address), with Retry-After.',
    },
  })
  async passkeyOptions(@CallCtx() call: CallContext): Promise<PasskeyCeremony> {
    return this.rpc.call(IdentityRpc.passkeySignInOptions, {}, { meta: call.meta });
  }

  /** Signing in with a passkey and no password: the passkey (held, and unlocked by the person) is both factors. */
  @Public()
  @Post('passkey')
  @Route({
    body: passkeyAssertionBodySchema,
    reply: sessionViewSchema,
    description: 'Signed in; sets the refresh cookie.',
    errors: {
      400: 'VALIDATION_FAILED: an answer that is not a WebAuthn credential; PASSKEY_INVALID: an unknown or removed passkey, a used or lapsed challenge, another site’s answer, no user verification: one answer for all.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async passkeySignIn(@RouteBody() body: z.output<typeof passkeyAssertionBodySchema>, @Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const session = await this.rpc.call(IdentityRpc.passkeySignIn, body, { meta: call.meta });
    return this.startSession(request, reply, session);
  }

  /** The second step with a passkey: options for the account's passkeys, bound to the password step's challenge. */
  @Public()
  @Post('sign-in/two-step/passkey/options')
  @Route({
    body: twoStepPasskeyOptionsBodySchema,
    reply: IdentityRpc.twoStepPasskeyOptions.reply,
    description: 'A single-use challenge for one of the account’s passkeys; send its answer to POST /api/auth/sign-in/two-step/passkey.',
    errors: {
      400: 'VALIDATION_FAILED: no challenge; PASSKEY_INVALID: the account has no passkey.',
      401: 'TWO_STEP_INVALID: a lapsed, used or altered challenge.',
      429: 'RATE_LIMITED (per address), with Retry-After.',
    },
  })
  async twoStepPasskeyOptions(@RouteBody() body: z.output<typeof twoStepPasskeyOptionsBodySchema>, @CallCtx() call: CallContext): Promise<PasskeyCeremony> {
    return this.rpc.call(IdentityRpc.twoStepPasskeyOptions, body, { meta: call.meta });
  }

  @Public()
  @Post('sign-in/two-step/passkey')
  @Route({
    body: twoStepPasskeyBodySchema,
    reply: sessionViewSchema,
    description: 'Signed in; sets the refresh cookie.',
    errors: {
      400: 'VALIDATION_FAILED: no challenge, or an answer that is not a WebAuthn credential; PASSKEY_INVALID: another account’s or a removed passkey, a used challenge, another site’s answer.',
      401: 'TWO_STEP_INVALID: the password step’s challenge lapsed, used or altered.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async signInTwoStepPasskey(@RouteBody() body: z.output<typeof twoStepPasskeyBodySchema>, @Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const session = await this.rpc.call(IdentityRpc.signInTwoStepPasskey, body, { meta: call.meta });
    return this.startSession(request, reply, session);
  }

  /** "Forgot password?": the same answer (status, words, about the same time) whether or not the address has an account. */
  @Public()
  @Post('forgot-password')
  @Route({
    body: forgotPasswordBodySchema,
    reply: forgotPasswordReplySchema,
    description: 'Taken: when the address has an account, a single-use link valid 30 minutes is e-mailed to it. The answer never says whether it has.',
    errors: {
      400: 'VALIDATION_FAILED: the e-mail address.',
      429: 'RATE_LIMITED (3 an hour per e-mail address asked about, 10 per client address), with Retry-After.',
    },
  })
  async forgotPassword(@RouteBody() body: z.output<typeof forgotPasswordBodySchema>, @CallCtx() call: CallContext): Promise<ForgotPasswordReply> {
    return this.rpc.call(IdentityRpc.forgotPassword, body, { meta: call.meta });
  }

  /** The reset link's page: a new password; every session of the account ends, and the person signs in again with it. */
  @Public()
  @Post('reset-password')
  @Route({
    body: resetPasswordBodySchema,
    reply: IdentityRpc.resetPassword.reply,
    description: 'The password is changed, every session of the account signed out and the owner told by e-mail; sign in with the new password.',
    errors: {
      400: 'RESET_LINK_INVALID (used, expired, altered or another account’s: one answer for all), or VALIDATION_FAILED: the new password (8 characters or more, not a common one).',
    },
  })
  async resetPassword(@RouteBody() body: z.output<typeof resetPasswordBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<ResetPasswordReply> {
    const result = await this.rpc.call(IdentityRpc.resetPassword, body, { meta: call.meta });
    // This browser's own session (if any) ended with the others: its cookie goes too.
    reply.clearCookie(REFRESH_COOKIE, clearedRefreshCookieOptions(this.config.COOKIE_SECURE));
    return result;
  }

  /** The confirm link e-mailed to a new address: the address changes; every other session of the account ends. */
  @Public()
  @Post('confirm-email')
  @Route({
    body: emailChangeLinkBodySchema,
    reply: IdentityRpc.confirmEmailChange.reply,
    description: 'The account signs in with the new address from now on; every session but the one that asked for the change is signed out.',
    errors: {
      400: 'EMAIL_CHANGE_LINK_INVALID (used, expired, replaced, undone, altered or another account’s: one answer for all), or VALIDATION_FAILED: no token.',
      409: 'EMAIL_TAKEN: another account took the address since.',
    },
  })
  async confirmEmail(@RouteBody() body: z.output<typeof emailChangeLinkBodySchema>, @CallCtx() call: CallContext): Promise<EmailChangeLinkReply> {
    return this.rpc.call(IdentityRpc.confirmEmailChange, body, { meta: call.meta });
  }

  /** The verification link e-mailed to a new account's address: from now on the product may e-mail on the owner's behalf. */
  @Public()
  @Post('verify-email')
  @Route({
    body: verifyEmailBodySchema,
    reply: IdentityRpc.verifyEmail.reply,
    description: 'The account’s address is verified; access tokens issued from now on (the next refresh) say so, and key e-mails and trustee invitations go out.',
    errors: {
      400: 'EMAIL_VERIFY_LINK_INVALID (used, expired, replaced, altered or another account’s: one answer for all), or VALIDATION_FAILED: no token.',
    },
  })
  async verifyEmail(@RouteBody() body: z.output<typeof verifyEmailBodySchema>, @CallCtx() call: CallContext): Promise<VerifyEmailReply> {
    return this.rpc.call(IdentityRpc.verifyEmail, body, { meta: call.meta });
  }

  /** The "this wasn't me" link e-mailed to the old address: the old address stays or comes back, every session ends, a reset link follows. */
  @Public()
  @Post('undo-email-change')
  @Route({
    body: emailChangeLinkBodySchema,
    reply: IdentityRpc.undoEmailChange.reply,
    description: 'The old address is kept (or restored), every session of the account signed out, and a link to choose a new password e-mailed to it.',
    errors: {
      400: 'EMAIL_CHANGE_LINK_INVALID (used, expired, altered or another account’s: one answer for all), or VALIDATION_FAILED: no token.',
    },
  })
  async undoEmailChange(@RouteBody() body: z.output<typeof emailChangeLinkBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<EmailChangeLinkReply> {
    const result = await this.rpc.call(IdentityRpc.undoEmailChange, body, { meta: call.meta });
    reply.clearCookie(REFRESH_COOKIE, clearedRefreshCookieOptions(this.config.COOKIE_SECURE));
    return result;
  }

  /** A new-sign-in alert's "this wasn't me" link: every session ends, a reset link follows. */
  @Public()
  @Post('not-me')
  @Route({
    body: emailChangeLinkBodySchema,
    reply: IdentityRpc.disownSignIn.reply,
    description: 'Every session of the account is signed out and a link to choose a new password is e-mailed to its address.',
    errors: {
      400: 'SIGN_IN_ALERT_LINK_INVALID (used, expired, altered or another account’s: one answer for all), or VALIDATION_FAILED: no token.',
    },
  })
  async notMe(@RouteBody() body: z.output<typeof emailChangeLinkBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<EmailChangeLinkReply> {
    const result = await this.rpc.call(IdentityRpc.disownSignIn, body, { meta: call.meta });
    reply.clearCookie(REFRESH_COOKIE, clearedRefreshCookieOptions(this.config.COOKIE_SECURE));
    return result;
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
    return this.renew(request, call, reply);
  }

  /** The SPA's session check on every page load: the same exchange as refresh, but no session is a 200. */
  @Public({ verifiesOwnToken: true })
  @Post('session')
  @ApiCookieAuth('refresh-cookie')
  @Route({
    reply: sessionProbeSchema,
    description: 'The session with a new access token (the refresh cookie is rotated), or null when there is no refresh cookie or its session is over (the cookie is then cleared).',
  })
  async session(@Req() request: FastifyRequest, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionProbe> {
    try {
      return { session: await this.renew(request, call, reply) };
    } catch (error) {
      // A signed-out visitor is an answer, not an error the browser logs; identity being down still is one.
      if (error instanceof DomainError && ErrorCodes[error.code].status === 401) return { session: null };
      throw error;
    }
  }

  /** Exchanges the refresh cookie for a new session; 401 (UNAUTHENTICATED or identity's refusal) when there is none. */
  private async renew(request: FastifyRequest, call: CallContext, reply: FastifyReply): Promise<SessionView> {
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
    const view: SessionView = { accessToken: session.accessToken, accessTokenExpiresAt: session.accessTokenExpiresAt, profile: session.profile };
    return session.passwordChangeRequired ? { ...view, passwordChangeRequired: true } : view;
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
