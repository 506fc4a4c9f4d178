import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { adminUsersQuerySchema, IdentityRpc, VaultMediaRpc, type AdminOverview, type StorageByDay } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { parseBody } from '../http/body.js';
import { Route, RouteErrors } from '../http/route.js';
import { CallCtx, CurrentCaller } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/**
 * The admin dashboard (/admin). The gateway turns away a token without the admin claim; identity and
 * vault-media check the caller again themselves (identity against its own record of the flag).
 */
@ApiTags('admin')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
  403: '"Access denied": not an admin.',
})
@Controller('admin')
export class AdminController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('users')
  @ApiQuery({ name: 'q', required: false, description: 'A piece of an e-mail or a full name, any case.' })
  @Route({ reply: IdentityRpc.adminOverview.reply, description: 'Counters over every account, the users (newest first, at most 500) and sign-ups per day.' })
  async users(@Query() query: Record<string, unknown>, @CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<AdminOverview> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    const { q } = parseBody(adminUsersQuerySchema, query);
    return this.rpc.call(IdentityRpc.adminOverview, q ? { q } : {}, call);
  }

  @Get('storage')
  @Route({ reply: VaultMediaRpc.adminStorageByDay.reply, description: 'Bytes kept in vault-media per UTC day they were saved, with the running total.' })
  async storage(@CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<StorageByDay> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    return this.rpc.call(VaultMediaRpc.adminStorageByDay, {}, call);
  }
}
