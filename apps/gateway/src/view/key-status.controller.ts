import { Controller, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { AccessKeysRpc, AccessMessages, ErrorCodes, KeyStatusMessages, keyStatusBodySchema, REDEEM_FAILURES_PER_MINUTE, type KeyStatusReply } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { parseAccessBody } from '../access/access-body.js';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * POST /api/view/key-status (issue 28): a key's landing page asks whose vault the key opens and
 * whether it still works, before the disclaimer. Public on purpose, like redeem (whoever holds the
 * key); access-keys refuses an unknown key with redeem's own code and counts it against the same
 * per-address limit. The key travels in the body, never the address, so it stays out of logs.
 */
@ApiTags('view')
@RouteErrors({
  503: 'access-keys is unavailable.',
})
@Controller('view')
export class KeyStatusController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Public()
  @Post('key-status')
  @Route({
    parse: parseAccessBody,
    body: keyStatusBodySchema,
    reply: AccessKeysRpc.keyStatus.reply,
    description: `active, expired ("${KeyStatusMessages.expired}") or revoked ("${KeyStatusMessages.revoked}"), and the owner's name.`,
    errors: {
      400: `VALIDATION_FAILED: "${AccessMessages.keyEmpty}", "${AccessMessages.keyMalformed}".`,
      401: `INVALID_OR_EXPIRED_KEY: "${ErrorCodes.INVALID_OR_EXPIRED_KEY.message}" (unknown, or another vault's key), counted like a failed redemption.`,
      429: `RATE_LIMITED: more than ${REDEEM_FAILURES_PER_MINUTE} failed checks or redemptions a minute from this address.`,
    },
  })
  async keyStatus(@RouteBody() body: z.output<typeof keyStatusBodySchema>, @CallCtx() call: CallContext): Promise<KeyStatusReply> {
    return this.rpc.call(AccessKeysRpc.keyStatus, body, call);
  }
}
