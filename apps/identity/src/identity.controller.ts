import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { IdentityRpc, type IssuedSession, type PayloadOf, type RebuildReply, type RequestMeta, type ServiceHealthReply, type SignOutReply, type UserProfile } from '@lv/contracts';
import { AccessTokenVerifier, type Caller } from '@lv/platform/auth';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, PublicRpc, RpcAccessToken, RpcHandler, RpcMeta, RpcPayload } from '@lv/platform/nest';
import { pingDatabase } from '@lv/platform/database';
import { IdentityService } from './identity.service.js';

/** identity's request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class IdentityController {
  constructor(private readonly identity: IdentityService, private readonly verifier: AccessTokenVerifier) {}

  @PublicRpc()
  @MessagePattern(scopedSubject(IdentityRpc.health))
  async health(): Promise<ServiceHealthReply> {
    try {
      await pingDatabase(this.identity.orm.em);
      return { service: 'identity', status: 'up', checks: { postgres: { status: 'up' } } };
    } catch (error) {
      return { service: 'identity', status: 'down', checks: { postgres: { status: 'down', detail: (error as Error).message } } };
    }
  }

  @PublicRpc()
  @RpcHandler(IdentityRpc.signUp)
  signUp(@RpcPayload() credentials: PayloadOf<typeof IdentityRpc.signUp>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession> {
    return this.identity.signUp(credentials, meta);
  }

  @PublicRpc()
  @RpcHandler(IdentityRpc.signIn)
  signIn(@RpcPayload() credentials: PayloadOf<typeof IdentityRpc.signIn>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession> {
    return this.identity.signIn(credentials, meta);
  }

  @PublicRpc()
  @RpcHandler(IdentityRpc.refresh)
  refresh(@RpcPayload() { refreshToken }: PayloadOf<typeof IdentityRpc.refresh>): Promise<IssuedSession> {
    return this.identity.refresh(refreshToken);
  }

  /** Public so an expired access token can still end its session; the refresh token proves it. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.signOut)
  async signOut(@RpcPayload() { refreshToken }: PayloadOf<typeof IdentityRpc.signOut>, @RpcAccessToken() accessToken: string | undefined): Promise<SignOutReply> {
    const caller = accessToken ? await this.verifier.verify(accessToken).catch(() => null) : null;
    return { revoked: await this.identity.signOut(refreshToken, caller) };
  }

  @RpcHandler(IdentityRpc.getMe)
  getMe(@CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.getProfile(caller.userId);
  }

  @RpcHandler(IdentityRpc.updateMe)
  updateMe(@RpcPayload() changes: PayloadOf<typeof IdentityRpc.updateMe>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.updateProfile(caller, changes);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.findUserByEmail)
  findUser(@RpcPayload() { email }: PayloadOf<typeof IdentityRpc.findUserByEmail>): Promise<UserProfile> {
    return this.identity.findByEmail(email);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.setAdmin)
  setAdmin(@RpcPayload() { email, admin }: PayloadOf<typeof IdentityRpc.setAdmin>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.setAdmin(email, admin, caller);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.setTier)
  setTier(@RpcPayload() { email, tier }: PayloadOf<typeof IdentityRpc.setTier>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.setTier(email, tier, caller);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.identity.rebuildProjections() };
  }
}
