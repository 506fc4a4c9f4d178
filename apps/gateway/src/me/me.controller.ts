import { Body, Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdentityRpc, updateProfileBodySchema, type PayloadInput, type UserProfile } from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { ErrorBodyDto, UpdateProfileDto, UserProfileDto } from '../http/api-models.js';
import { parseBody } from '../http/body.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/** The signed-in user's own profile. Whose profile is decided by identity from the verified token, never by the request. */
@ApiTags('me')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorBodyDto, description: 'No valid access token.' })
@Controller('me')
export class MeController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @ApiOkResponse({ type: UserProfileDto })
  async getMe(@CallCtx() call: CallContext): Promise<UserProfile> {
    return this.rpc.call(IdentityRpc.getMe, {}, call);
  }

  @Patch()
  @ApiBody({ type: UpdateProfileDto })
  @ApiOkResponse({ type: UserProfileDto })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: 'VALIDATION_FAILED with per-field messages.' })
  async updateMe(@Body() body: unknown, @CallCtx() call: CallContext): Promise<UserProfile> {
    const changes = parseBody(updateProfileBodySchema, body);
    const request: PayloadInput<typeof IdentityRpc.updateMe> = {};
    if (changes.full_name !== undefined) request.full_name = changes.full_name;
    if (changes.avatar_url !== undefined) request.avatar_url = changes.avatar_url;
    return this.rpc.call(IdentityRpc.updateMe, request, call);
  }
}
