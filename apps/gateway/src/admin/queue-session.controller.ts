import { Controller, Delete, Inject, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { IdentityRpc } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { Public } from '../http/public.decorator.js';
import { Route } from '../http/route.js';
import { CallCtx, CurrentCaller } from '../http/request-context.js';
import { GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { ADMIN_COOKIE, adminCookieOptions, clearedAdminCookieOptions, tokenExpiresAt } from './admin-access.js';

/** Opens (and closes) a browser session for the BullMQ dashboard at /api/admin/queues. */
@ApiTags('admin')
@Controller('admin/queue-session')
export class QueueSessionController {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @ApiBearerAuth()
  @Route({
    status: 204,
    description: 'Sets the short-lived httpOnly lv_admin cookie for /api/admin/queues.',
    errors: {
      403: 'The caller is not an admin.',
    },
  })
  async open(@CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    // The token's admin claim was true when it was issued; identity confirms it still is.
    const profile = await this.rpc.call(IdentityRpc.getMe, {}, call);
    if (!profile.ai_admin) throw new DomainError('FORBIDDEN');
    const expiresAt = tokenExpiresAt(call.accessToken!);
    if (!expiresAt) throw new DomainError('UNAUTHENTICATED');
    reply.setCookie(ADMIN_COOKIE, call.accessToken!, adminCookieOptions(expiresAt, this.config.COOKIE_SECURE));
  }

  @Public()
  @Delete()
  @Route({ status: 204, description: 'Clears the lv_admin cookie.' })
  close(@Res({ passthrough: true }) reply: FastifyReply): void {
    reply.clearCookie(ADMIN_COOKIE, clearedAdminCookieOptions(this.config.COOKIE_SECURE));
  }
}
