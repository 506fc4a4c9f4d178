import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { healthReportSchema, type HealthReport } from '@lv/contracts';
import { AccessTokenVerifier } from '@lv/platform/auth';
import { Public } from '../http/public.decorator.js';
import { Route } from '../http/route.js';
import { bearerToken, callContextOf } from '../http/request-context.js';
import { ACCESS_TOKEN_VERIFIER } from '../infra/tokens.js';
import { HealthService } from './health.service.js';

/** What an anonymous caller learns: up or down, nothing about what or why. */
export type PublicHealth = Pick<HealthReport, 'status'>;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
  ) {}

  /**
   * Public (load balancers and the dev orchestrator poll it), so it says only `{ status }`: check
   * names, latencies and error texts describe the internals. An admin's Bearer token gets every check.
   */
  @Public()
  @Get()
  @Route({
    reply: healthReportSchema,
    description: 'Every check is up. Anonymous callers get `{ status }` only; an admin (Bearer token) gets every check with its detail.',
    otherReplies: { 503: { reply: healthReportSchema, description: 'At least one check is down (the same two shapes).' } },
  })
  async check(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport | PublicHealth> {
    const report = await this.health.report(callContextOf(request).meta);
    reply.status(report.status === 'up' ? 200 : 503);
    return (await this.isOperator(request)) ? report : { status: report.status };
  }

  /** An admin's valid access token; anything else (none, invalid, expired, not admin) is anonymous, never an error. */
  private async isOperator(request: FastifyRequest): Promise<boolean> {
    const token = bearerToken(request.headers.authorization);
    if (!token) return false;
    try {
      const caller = await this.verifier.verify(token);
      return caller.kind === 'user' && caller.isAdmin;
    } catch {
      return false;
    }
  }
}
