import { Controller, Delete, Get, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  addPasskeyBodySchema, IdentityRpc, isUuid, PasskeyMessages, passkeyAssertionBodySchema, renamePasskeyBodySchema,
  type PasskeyCeremony, type PasskeyList, type PasskeyView, type SessionView,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/** A path id that cannot name a passkey is not found, as another account's is. */
function passkeyId(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', PasskeyMessages.notFound);
  return id.toLowerCase();
}

/**
 * /api/me/passkeys and sudo mode with a passkey: the caller's own passkeys (WebAuthn). The gateway
 * relays; identity checks the caller, sudo mode, each challenge and each signature.
 */
@ApiTags('me')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
})
@Controller('me')
export class PasskeysController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('passkeys')
  @Route({ reply: IdentityRpc.passkeys.reply, description: 'The caller’s passkeys: name, when added, when last used.' })
  async list(@CallCtx() call: CallContext): Promise<PasskeyList> {
    return this.rpc.call(IdentityRpc.passkeys, {}, call);
  }

  /** Options for navigator.credentials.create(): a discoverable, user-verified passkey for this site. */
  @Post('passkeys/options')
  @Route({
    reply: IdentityRpc.passkeyRegistrationOptions.reply,
    description: 'A single-use challenge (5 minutes) and the options for the browser; send its answer to POST /api/me/passkeys.',
    errors: {
      403: 'SUDO_REQUIRED: confirm who you are first (POST /api/me/confirm-identity).',
      409: 'CONFLICT: the account holds the most passkeys it may (20).',
    },
  })
  async registrationOptions(@CallCtx() call: CallContext): Promise<PasskeyCeremony> {
    return this.rpc.call(IdentityRpc.passkeyRegistrationOptions, {}, call);
  }

  @Post('passkeys')
  @Route({
    body: addPasskeyBodySchema,
    reply: IdentityRpc.addPasskey.reply,
    status: 201,
    description: 'The passkey is added: it signs in without a password, and is a second step after the password when two-step sign-in is on.',
    errors: {
      400: 'VALIDATION_FAILED: the name (field name), or an answer that is not a WebAuthn credential; PASSKEY_INVALID: a used, lapsed or another session’s challenge, another site’s answer, or a passkey added already.',
      403: 'SUDO_REQUIRED',
      409: 'CONFLICT: the account holds the most passkeys it may (20).',
    },
  })
  async add(@RouteBody() body: z.output<typeof addPasskeyBodySchema>, @CallCtx() call: CallContext): Promise<PasskeyView> {
    return this.rpc.call(IdentityRpc.addPasskey, body, call);
  }

  @Patch('passkeys/:passkeyId')
  @ApiParam({ name: 'passkeyId', format: 'uuid' })
  @Route({
    body: renamePasskeyBodySchema,
    reply: IdentityRpc.renamePasskey.reply,
    errors: {
      400: 'VALIDATION_FAILED: the name (field name).',
      404: 'No passkey of the caller’s with this id.',
    },
  })
  async rename(@Param('passkeyId') id: string, @RouteBody() body: z.output<typeof renamePasskeyBodySchema>, @CallCtx() call: CallContext): Promise<PasskeyView> {
    return this.rpc.call(IdentityRpc.renamePasskey, { passkeyId: passkeyId(id), name: body.name }, call);
  }

  @Delete('passkeys/:passkeyId')
  @ApiParam({ name: 'passkeyId', format: 'uuid' })
  @Route({
    reply: IdentityRpc.removePasskey.reply,
    description: 'The passkey signs in no more; the reply is the passkeys left.',
    errors: {
      403: 'SUDO_REQUIRED: confirm who you are first.',
      404: 'No passkey of the caller’s with this id.',
    },
  })
  async remove(@Param('passkeyId') id: string, @CallCtx() call: CallContext): Promise<PasskeyList> {
    return this.rpc.call(IdentityRpc.removePasskey, { passkeyId: passkeyId(id) }, call);
  }

  /** Sudo mode with a passkey instead of the password: the options first. */
  @Post('confirm-identity/passkey/options')
  @Route({
    reply: IdentityRpc.confirmIdentityPasskeyOptions.reply,
    description: 'A single-use challenge bound to this session, for one of the caller’s passkeys; send its answer to POST /api/me/confirm-identity/passkey.',
    errors: {
      404: 'The account has no passkey: confirm with the password.',
    },
  })
  async confirmOptions(@CallCtx() call: CallContext): Promise<PasskeyCeremony> {
    return this.rpc.call(IdentityRpc.confirmIdentityPasskeyOptions, {}, call);
  }

  @Post('confirm-identity/passkey')
  @Route({
    body: passkeyAssertionBodySchema,
    reply: IdentityRpc.confirmIdentityPasskey.reply,
    description: 'As POST /api/me/confirm-identity: the session has proved who it is now, and the new access token says so.',
    errors: {
      400: 'VALIDATION_FAILED: an answer that is not a WebAuthn credential; PASSKEY_INVALID: not a passkey of the caller’s, a used or lapsed challenge, another site’s answer.',
      429: 'RATE_LIMITED (counted like passwords), with Retry-After.',
    },
  })
  async confirm(@RouteBody() body: z.output<typeof passkeyAssertionBodySchema>, @CallCtx() call: CallContext): Promise<SessionView> {
    return this.rpc.call(IdentityRpc.confirmIdentityPasskey, body, call);
  }
}
