import { Controller, Delete, Get, Inject, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  changeEmailBodySchema, changePasswordBodySchema, IdentityRpc, isUuid, type AccountSessions, type SessionsEnded, notificationPreferencesBodySchema, updateProfileBodySchema, type ChangePasswordReply, type NotificationPreferencesView, type PayloadInput, type UserProfile, type VerifyEmailReply,
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
