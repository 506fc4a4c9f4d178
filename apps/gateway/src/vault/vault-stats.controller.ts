import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { VaultStats } from '@lv/contracts';
import type { CallContext } from '@lv/platform/nest';
import { ErrorBodyDto, VaultStatsDto } from '../http/api-models.js';
import { CallCtx } from '../http/request-context.js';
import { VaultStatsService } from './vault-stats.service.js';

@ApiTags('vault')
@ApiBearerAuth()
@Controller('vault')
export class VaultStatsController {
  constructor(private readonly stats: VaultStatsService) {}

  @Get('stats')
  @ApiOkResponse({ type: VaultStatsDto, description: 'The vault home numbers; a service that does not answer counts as 0.' })
  @ApiResponse({ status: 401, type: ErrorBodyDto })
  async getStats(@CallCtx() call: CallContext, @Req() request: FastifyRequest): Promise<VaultStats> {
    return this.stats.statsFor(call, request.log);
  }
}
