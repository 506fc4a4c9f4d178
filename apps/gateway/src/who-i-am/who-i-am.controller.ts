import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { LettersRpc, savePortraitBodySchema, type Portrait } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { ErrorBodyDto, PortraitDto, SavePortraitDto } from '../http/api-models.js';
import { parseBody } from '../http/body.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * Who I Am (/api/who-i-am): the owner's portrait in his own words, kept by the letters service and
 * sealed at rest. No request names a user: the letters service reads and writes the verified
 * caller's own portrait only.
 */
@ApiTags('who-i-am')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorBodyDto, description: 'No valid access token.' })
@ApiResponse({ status: 503, type: ErrorBodyDto, description: 'The letters service is unavailable.' })
@Controller('who-i-am')
export class WhoIAmController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @ApiOkResponse({ type: PortraitDto, description: 'The caller’s portrait (every field empty and updated_at null when none is saved).' })
  async get(@CallCtx() call: CallContext): Promise<Portrait> {
    return this.rpc.call(LettersRpc.portraitGet, {}, call);
  }

  @Put()
  @ApiBody({ type: SavePortraitDto })
  @ApiOkResponse({ type: PortraitDto, description: 'Saved as a whole: texts trimmed, empty core values ignored.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'VALIDATION_FAILED: a trait the page does not offer, a field that is not text, or one over its limit.' })
  async save(@Body() body: unknown, @CallCtx() call: CallContext): Promise<Portrait> {
    return this.rpc.call(LettersRpc.portraitSave, parseBody(savePortraitBodySchema, body), call);
  }
}
