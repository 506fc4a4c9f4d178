import { Controller, Delete, Get, Inject, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  changeEmailBodySchema, changePasswordBodySchema, confirmIdentityBodySchema, type SessionView, IdentityRpc, twoStepCodeBodySchema, twoStepDisableBodySchema, type RecoveryCodes, type TwoStepSetup, type TwoStepStatus, isUuid, type AccountSessions, type SessionsEnded, notificationPreferencesBodySchema, updateProfileBodySchema, type ChangePasswordReply, type NotificationPreferencesView, type PayloadInput, type UserProfile, type VerifyEmailReply,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/** The signed-in user's own profile. Whose profile is decided by identity from the verified token, never by the request. */
@ApiTags('me')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
})
@Controller('me')
export class MeController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({ reply: IdentityRpc.getMe.reply })
  async getMe(@CallCtx() call: CallContext): Promise<UserProfile> {
    return this.rpc.call(IdentityRpc.getMe, {}, call);
  }

  @Patch()
  @Route({
    body: updateProfileBodySchema,
    reply: IdentityRpc.updateMe.reply,
    errors: {
      400: 'VALIDATION_FAILED with per-field messages.',
    },
  })
  async updateMe(@RouteBody() body: z.output<typeof updateProfileBodySchema>, @CallCtx() call: CallContext): Promise<UserProfile> {
    const changes = body;
    const request: PayloadInput<typeof IdentityRpc.updateMe> = {};
    if (changes.full_name !== undefined) request.full_name = changes.full_name;
    if (changes.avatar_url !== undefined) request.avatar_url = changes.avatar_url;
    return this.rpc.call(IdentityRpc.updateMe, request, call);
  }

  /**
   * Sudo mode: the password again, after a sensitive action was refused SUDO_REQUIRED. The answer is a
   * new access token carrying the renewed proof; the SPA retries the action with it.
   */
  @Post('confirm-identity')
  @Route({
    body: confirmIdentityBodySchema,
    reply: IdentityRpc.confirmIdentity.reply,
    description: 'The session has proved who it is now: sensitive actions (keys, trustees, delivery settings, the export) are let through for the next 10 minutes with the new access token.',
    errors: {
      400: 'VALIDATION_FAILED: the current password missing or wrong (field currentPassword).',
      429: 'RATE_LIMITED: too many wrong passwords (counted as sign-in attempts).',
    },
  })
  async confirmIdentity(@RouteBody() body: z.output<typeof confirmIdentityBodySchema>, @CallCtx() call: CallContext): Promise<SessionView> {
    return this.rpc.call(IdentityRpc.confirmIdentity, body, call);
  }

  /** A new sign-in e-mail; needs the current password. It takes effect once the new address confirms. */
  @Put('email')
  @Route({
    body: changeEmailBodySchema,
    reply: IdentityRpc.changeEmail.reply,
    description: 'Nothing changes yet: the new address is e-mailed a confirm link (24 hours), the old one is told at once with an undo link (7 days). The reply is the profile, still on the current address.',
    errors: {
      400: 'VALIDATION_FAILED: the e-mail, or the current password missing or wrong (field currentPassword).',
      409: 'EMAIL_TAKEN: another account uses it.',
      429: 'RATE_LIMITED: too many wrong current passwords (counted as sign-in attempts).',
    },
  })
  async changeEmail(@RouteBody() body: z.output<typeof changeEmailBodySchema>, @CallCtx() call: CallContext): Promise<UserProfile> {
    return this.rpc.call(IdentityRpc.changeEmail, body, call);
  }

  /** A new password; needs the current one. Every other session of the account ends; this one stays signed in. */
  @Put('password')
  @Route({
    body: changePasswordBodySchema,
    reply: IdentityRpc.changePassword.reply,
    description: 'How many other sessions were signed out.',
    errors: {
      400: 'VALIDATION_FAILED: the new password (6 characters or more, not only spaces, not the current one), or the current password missing or wrong.',
      429: 'RATE_LIMITED: too many wrong current passwords (counted as sign-in attempts).',
    },
  })
  async changePassword(@RouteBody() body: z.output<typeof changePasswordBodySchema>, @CallCtx() call: CallContext): Promise<ChangePasswordReply> {
    return this.rpc.call(IdentityRpc.changePassword, body, call);
  }

  /** "Resend verification e-mail": a new link to the account's address; the one sent before stops working. */
  @Post('verify-email/resend')
  @Route({
    reply: IdentityRpc.resendVerification.reply,
    description: 'A new verification link (24 hours) is e-mailed to the account’s address, or the answer says it is verified already.',
    errors: {
      429: 'RATE_LIMITED (3 an hour per account), with Retry-After.',
    },
  })
  async resendVerification(@CallCtx() call: CallContext): Promise<VerifyEmailReply> {
    return this.rpc.call(IdentityRpc.resendVerification, {}, call);
  }

  @Get('notifications')
  @Route({ reply: IdentityRpc.notificationPreferences.reply, description: 'The four switches; the defaults (updated_at null) until saved.' })
  async notifications(@CallCtx() call: CallContext): Promise<NotificationPreferencesView> {
    return this.rpc.call(IdentityRpc.notificationPreferences, {}, call);
  }

  @Put('notifications')
  @Route({
    body: notificationPreferencesBodySchema,
    reply: IdentityRpc.saveNotificationPreferences.reply,
    errors: {
      400: 'VALIDATION_FAILED: each of the four is true or false; nothing else is accepted.',
    },
  })
  async saveNotifications(@RouteBody() body: z.output<typeof notificationPreferencesBodySchema>, @CallCtx() call: CallContext): Promise<NotificationPreferencesView> {
    return this.rpc.call(IdentityRpc.saveNotificationPreferences, body, call);
  }

  // Two-step sign-in with an authenticator app.

  @Get('two-step')
  @Route({ reply: IdentityRpc.twoStepStatus.reply, description: 'Whether two-step sign-in is on, and how many recovery codes are left.' })
  async twoStepStatus(@CallCtx() call: CallContext): Promise<TwoStepStatus> {
    return this.rpc.call(IdentityRpc.twoStepStatus, {}, call);
  }

  /** A new secret for the authenticator app; nothing changes until its first code confirms it. */
  @Post('two-step/setup')
  @Route({
    reply: IdentityRpc.twoStepSetup.reply,
    description: 'A new secret (base32) and its otpauth:// URI for the QR code; an earlier set-up not confirmed is replaced.',
    errors: {
      409: 'CONFLICT: two-step sign-in is on already.',
    },
  })
  async twoStepSetup(@CallCtx() call: CallContext): Promise<TwoStepSetup> {
    return this.rpc.call(IdentityRpc.twoStepSetup, {}, call);
  }

  @Post('two-step/confirm')
  @Route({
    body: twoStepCodeBodySchema,
    reply: IdentityRpc.twoStepConfirm.reply,
    description: 'Two-step sign-in is on; the ten recovery codes are in this answer only.',
    errors: {
      400: 'VALIDATION_FAILED: the code is missing or not the app’s current one (field code), or there is no set-up to confirm.',
      409: 'CONFLICT: two-step sign-in is on already.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async twoStepConfirm(@RouteBody() body: z.output<typeof twoStepCodeBodySchema>, @CallCtx() call: CallContext): Promise<RecoveryCodes> {
    return this.rpc.call(IdentityRpc.twoStepConfirm, body, call);
  }

  @Post('two-step/disable')
  @Route({
    body: twoStepDisableBodySchema,
    reply: IdentityRpc.twoStepDisable.reply,
    description: 'Two-step sign-in is off; the secret and the recovery codes are destroyed.',
    errors: {
      400: 'VALIDATION_FAILED: the current password or the code missing or wrong (fields currentPassword, code).',
      409: 'CONFLICT: two-step sign-in is not on.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async twoStepDisable(@RouteBody() body: z.output<typeof twoStepDisableBodySchema>, @CallCtx() call: CallContext): Promise<TwoStepStatus> {
    return this.rpc.call(IdentityRpc.twoStepDisable, body, call);
  }

  @Post('two-step/recovery-codes')
  @Route({
    body: twoStepCodeBodySchema,
    reply: IdentityRpc.twoStepRegenerate.reply,
    description: 'Ten new recovery codes, in this answer only; the old ones stop working.',
    errors: {
      400: 'VALIDATION_FAILED: the code is missing or not the app’s current one (field code).',
      409: 'CONFLICT: two-step sign-in is not on.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async twoStepRegenerate(@RouteBody() body: z.output<typeof twoStepCodeBodySchema>, @CallCtx() call: CallContext): Promise<RecoveryCodes> {
    return this.rpc.call(IdentityRpc.twoStepRegenerate, body, call);
  }

  /** The account's signed-in browsers, the caller's marked `current`. */
  @Get('sessions')
  @Route({ reply: IdentityRpc.sessions.reply, description: 'Live sessions, the most recently seen first.' })
  async sessions(@CallCtx() call: CallContext): Promise<AccountSessions> {
    return this.rpc.call(IdentityRpc.sessions, {}, call);
  }

  /** "Sign out everywhere else": every session of the account but this one. */
  @Post('sessions/sign-out-others')
  @Route({ reply: IdentityRpc.endOtherSessions.reply, description: 'How many sessions were signed out.' })
  async endOtherSessions(@CallCtx() call: CallContext): Promise<SessionsEnded> {
    return this.rpc.call(IdentityRpc.endOtherSessions, {}, call);
  }

  @Delete('sessions/:sessionId')
  @ApiParam({ name: 'sessionId', format: 'uuid' })
  @Route({
    reply: IdentityRpc.endSession.reply,
    description: 'That session is signed out at once (its access token is refused by every service).',
    errors: {
      404: 'No live session of the caller’s account with this id.',
    },
  })
  async endSession(@Param('sessionId') sessionId: string, @CallCtx() call: CallContext): Promise<SessionsEnded> {
    // An id that cannot name a session is simply not found, as another account's is.
    if (!isUuid(sessionId)) throw new DomainError('NOT_FOUND', 'No such session.');
    return this.rpc.call(IdentityRpc.endSession, { sessionId: sessionId.toLowerCase() }, call);
  }
}
