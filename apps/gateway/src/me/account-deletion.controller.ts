import { Controller, Delete, Get, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { accountDeletionBodySchema, emailChangeLinkBodySchema, IdentityRpc, type AccountDeletionStatus } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * Deleting the caller's own account (Settings, danger zone). Whose account is decided by identity from
 * the verified token, never by the request: no route here names a user.
 */
@ApiTags('me')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
})
@Controller('me/account-deletion')
export class AccountDeletionController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({ reply: IdentityRpc.accountDeletionStatus.reply, description: 'Whether the caller’s account is scheduled for deletion, and when it is erased.' })
  async status(@CallCtx() call: CallContext): Promise<AccountDeletionStatus> {
    return this.rpc.call(IdentityRpc.accountDeletionStatus, {}, call);
  }

  @Post()
  @Route({
    body: accountDeletionBodySchema,
    reply: IdentityRpc.requestAccountDeletion.reply,
    description: 'The account is scheduled for deletion 7 days ahead; its address is e-mailed the date and a link that keeps it. Until then nothing is erased and the owner can keep it from Settings.',
    errors: {
      400: 'VALIDATION_FAILED: the word DELETE not typed (field confirmation).',
      403: 'SUDO_REQUIRED: the password was last given more than 10 minutes ago (POST /api/me/confirm-identity, then retry).',
      409: 'CONFLICT: the account is already scheduled for deletion.',
    },
  })
  async request(@RouteBody() body: z.output<typeof accountDeletionBodySchema>, @CallCtx() call: CallContext): Promise<AccountDeletionStatus> {
    return this.rpc.call(IdentityRpc.requestAccountDeletion, body, call);
  }

  @Delete()
  @Route({
    reply: IdentityRpc.cancelAccountDeletion.reply,
    description: '"Keep my account": the scheduled deletion is cancelled and its e-mailed link stops working.',
    errors: {
      409: 'CONFLICT: the account is not scheduled for deletion.',
    },
  })
  async cancel(@CallCtx() call: CallContext): Promise<AccountDeletionStatus> {
    return this.rpc.call(IdentityRpc.cancelAccountDeletion, {}, call);
  }
}

/** The "keep my account" link e-mailed when the deletion was asked for: public, its token is the proof. */
@ApiTags('auth')
@RouteErrors({
  503: 'Identity is unavailable.',
  403: 'CROSS_SITE_REFUSED: sent from another site (Origin, Sec-Fetch-Site).',
  415: 'JSON_REQUIRED: a body that is not application/json.',
})
@Controller('auth')
export class KeepAccountController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Public()
  @Post('keep-account')
  @Route({
    body: emailChangeLinkBodySchema,
    reply: IdentityRpc.keepAccountByLink.reply,
    description: 'The account’s scheduled deletion is cancelled. The link works once, until the deletion is due.',
    errors: {
      400: 'ACCOUNT_DELETION_LINK_INVALID (used, expired, altered, of a deletion kept since or another account’s: one answer for all), or VALIDATION_FAILED: no token.',
    },
  })
  async keepAccount(@RouteBody() body: z.output<typeof emailChangeLinkBodySchema>, @CallCtx() call: CallContext): Promise<AccountDeletionStatus> {
    return this.rpc.call(IdentityRpc.keepAccountByLink, body, { meta: call.meta });
  }
}
