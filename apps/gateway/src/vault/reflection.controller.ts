import { Controller, Get, Inject, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { LettersRpc, saveReflectionBodySchema, type Reflection } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * The vault home's "Thoughts & Feelings" reflection (/api/vault/reflection), kept by the letters
 * service with its text encrypted at rest. No request names a user: the letters service reads and
 * writes the reflection of the verified caller only.
 */
@ApiTags('vault')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
  503: 'The letters service is unavailable.',
})
@Controller('vault/reflection')
export class ReflectionController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({ reply: LettersRpc.reflectionGet.reply, description: 'The caller’s reflection ("" and null when none is saved).' })
  async get(@CallCtx() call: CallContext): Promise<Reflection> {
    return this.rpc.call(LettersRpc.reflectionGet, {}, call);
  }

  @Put()
  @Route({
    body: saveReflectionBodySchema,
    reply: LettersRpc.reflectionSave.reply,
    description: 'Saved (trimmed); a blank text cleared it.',
    errors: {
      400: 'VALIDATION_FAILED: not text, or longer than 20,000 characters once trimmed.',
    },
  })
  async save(@RouteBody() body: z.output<typeof saveReflectionBodySchema>, @CallCtx() call: CallContext): Promise<Reflection> {
    const { text } = body;
    return this.rpc.call(LettersRpc.reflectionSave, { text }, call);
  }
}
