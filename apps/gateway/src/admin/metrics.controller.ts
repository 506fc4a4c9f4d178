import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { IdentityRpc } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { METRICS_CONTENT_TYPE, renderMetrics } from '@lv/platform/observability';
import { CallCtx, CurrentCaller } from '../http/request-context.js';
import { Route } from '../http/route.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * The gateway's Prometheus metrics on its public port, for admins only (an admin looking from a
 * browser or curl with his token). Prometheus scrapes every process, the gateway included, on the
 * internal ops listener (OPS_HTTP_PORT), which no Service or Ingress exposes: a scraper cannot hold
 * an access token that expires in minutes, and route and status counts are not for the public.
 */
@ApiTags('admin')
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @ApiBearerAuth()
  @ApiProduces('text/plain')
  @Header('content-type', METRICS_CONTENT_TYPE)
  @Route({
    reply: z.string(),
    description: 'The gateway process\'s metrics in the Prometheus text format.',
    errors: {
      403: 'The caller is not an admin.',
    },
  })
  async metrics(@CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<string> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    // The token's admin claim was true when it was issued; identity confirms it still is.
    const profile = await this.rpc.call(IdentityRpc.getMe, {}, call);
    if (!profile.ai_admin) throw new DomainError('FORBIDDEN');
    return renderMetrics();
  }
}
