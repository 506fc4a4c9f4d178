import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HealthReport } from '@lv/contracts';
import { HealthReportDto } from '../http/api-models.js';
import { Public } from '../http/public.decorator.js';
import { callContextOf } from '../http/request-context.js';
import { HealthService } from './health.service.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Public (load balancers and the dev orchestrator poll it); reveals states, never secrets. */
  @Public()
  @Get()
  @ApiOkResponse({ type: HealthReportDto, description: 'Every check is up.' })
  @ApiResponse({ status: 503, type: HealthReportDto, description: 'At least one check is down.' })
  async check(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.health.report(callContextOf(request).meta);
    reply.status(report.status === 'up' ? 200 : 503);
    return report;
  }
}
