import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessKeysRpc, AccessMessages, ErrorCodes, KeyStatusMessages, keyStatusBodySchema, REDEEM_FAILURES_PER_MINUTE, type KeyStatusReply } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { parseAccessBody } from '../access/access-body.js';
import { ErrorBodyDto, KeyStatusDto, KeyStatusReplyDto } from '../http/api-models.js';
import { Public } from '../http/public.decorator.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * POST /api/view/key-status (issue 28): a key's landing page asks whose vault the key opens and
 * whether it still works, before the disclaimer. Public on purpose, like redeem (whoever holds the
 * key); access-keys refuses an unknown key with redeem's own code and counts it against the same
 * per-address limit. The key travels in the body, never the address, so it stays out of logs.
 */
@ApiTags('view')
@ApiResponse({ status: 503, type: ErrorBodyDto, description: 'access-keys is unavailable.' })
@Controller('view')
export class KeyStatusController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Public()
  @Post('key-status')
  @HttpCode(200)
  @ApiBody({ type: KeyStatusDto })
  @ApiOkResponse({ type: KeyStatusReplyDto, description: `active, expired ("${KeyStatusMessages.expired}") or revoked ("${KeyStatusMessages.revoked}"), and the owner's name.` })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: `VALIDATION_FAILED: "${AccessMessages.keyEmpty}", "${AccessMessages.keyMalformed}".` })
  @ApiResponse({ status: 401, type: ErrorBodyDto, description: `INVALID_OR_EXPIRED_KEY: "${ErrorCodes.INVALID_OR_EXPIRED_KEY.message}" (unknown, or another vault's key), counted like a failed redemption.` })
  @ApiResponse({ status: 429, type: ErrorBodyDto, description: `RATE_LIMITED: more than ${REDEEM_FAILURES_PER_MINUTE} failed checks or redemptions a minute from this address.` })
  async keyStatus(@Body() body: unknown, @CallCtx() call: CallContext): Promise<KeyStatusReply> {
    return this.rpc.call(AccessKeysRpc.keyStatus, parseAccessBody(keyStatusBodySchema, body), call);
  }
}
