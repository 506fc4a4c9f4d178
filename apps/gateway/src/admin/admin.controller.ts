import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Redis } from 'ioredis';
import { adminBackupsSchema, adminUsersQuerySchema, IdentityRpc, VaultMediaRpc, type AdminBackups, type AdminOverview, type StorageByDay } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { backupOverdue, readBackupStatus } from '@lv/platform/backup';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { parseBody } from '../http/body.js';
import { Route, RouteErrors } from '../http/route.js';
import { CallCtx, CurrentCaller } from '../http/request-context.js';
import { REDIS, RPC_CLIENT } from '../infra/tokens.js';

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
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

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

  @Get('backups')
  @Route({
    reply: adminBackupsSchema,
    description: 'The scheduled backup: its interval, the last run (when, size, duration, result and error code) and the last success, and whether a backup is overdue (no success within 1.5 intervals). `status` is null when no scheduled backup is configured.',
  })
  async backups(@CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<AdminBackups> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    // The record is ops data the worker keeps in Redis: no service checks the caller here, so identity
    // confirms the token's admin claim still holds (as /api/metrics does).
    const profile = await this.rpc.call(IdentityRpc.getMe, {}, call);
    if (!profile.ai_admin) throw new DomainError('FORBIDDEN');
    const status = await readBackupStatus(this.redis, queuePrefix());
    return { status, overdue: status ? backupOverdue(status, Date.now()) : false };
  }
}
