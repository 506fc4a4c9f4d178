import { Controller, Get, Inject, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { LettersRpc, savePortraitBodySchema, type Portrait } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * Who I Am (/api/who-i-am): the owner's portrait in his own words, kept by the letters service and
 * sealed at rest. No request names a user: the letters service reads and writes the verified
 * caller's own portrait only.
 */
@ApiTags('who-i-am')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
  503: 'The letters service is unavailable.',
})
@Controller('who-i-am')
export class WhoIAmController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({ reply: LettersRpc.portraitGet.reply, description: 'The caller’s portrait (every field empty and updated_at null when none is saved).' })
  async get(@CallCtx() call: CallContext): Promise<Portrait> {
    return this.rpc.call(LettersRpc.portraitGet, {}, call);
  }

  @Put()
  @Route({
    body: savePortraitBodySchema,
    reply: LettersRpc.portraitSave.reply,
    description: 'Saved as a whole: texts trimmed, empty core values ignored.',
    errors: {
      400: 'VALIDATION_FAILED: a trait the page does not offer, a field that is not text, or one over its limit.',
    },
  })
  async save(@RouteBody() body: z.output<typeof savePortraitBodySchema>, @CallCtx() call: CallContext): Promise<Portrait> {
    return this.rpc.call(LettersRpc.portraitSave, body, call);
  }
}
