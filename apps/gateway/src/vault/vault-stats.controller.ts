import { Controller, Get, Req } from '@nestjs/common';
import { vaultStatsSchema, type VaultStats } from '@lv/contracts';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { CallContext } from '@lv/platform/nest';
import { CallCtx } from '../http/request-context.js';
import { Route } from '../http/route.js';
import { VaultStatsService } from './vault-stats.service.js';

@ApiTags('vault')
@ApiBearerAuth()
@Controller('vault')
export class VaultStatsController {
  constructor(private readonly stats: VaultStatsService) {}

  @Get('stats')
  @Route({
    reply: vaultStatsSchema,
    description: 'The vault home numbers; a service that does not answer counts as 0.',
    errors: {
      401: '',
    },
  })
  async getStats(@CallCtx() call: CallContext, @Req() request: FastifyRequest): Promise<VaultStats> {
    return this.stats.statsFor(call, request.log);
  }
}
