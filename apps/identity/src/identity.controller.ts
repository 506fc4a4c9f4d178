import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import {
  IdentityRpc, SUBSCRIPTION_TIERS, type Credentials, type IssuedSession, type RebuildReply, type RpcRequest,
  type SignOutReply, type UpdateProfileRequest, type UserProfile,
} from '@lv/contracts';
import { AccessTokenVerifier, ownerOf, type Caller } from '@lv/platform/auth';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, parsePayload, PublicRpc, Readers, Writers } from '@lv/platform/nest';
import { IdentityService } from './identity.service.js';

const credentials = z.object({ email: z.string(), password: z.string() });
const refresh = z.object({ refreshToken: z.string().min(1).max(200) });
const signOut = z.object({ refreshToken: z.string().max(200).optional() });
const updateProfile = z.object({ full_name: z.string().max(500).nullable().optional(), avatar_url: z.string().max(2000).nullable().optional() }).strict();
const byEmail = z.object({ email: z.string().min(3).max(254) });
const setAdmin = byEmail.extend({ admin: z.boolean() });
const setTier = byEmail.extend({ tier: z.enum(SUBSCRIPTION_TIERS) });

/** identity's request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class IdentityController {
  constructor(private readonly identity: IdentityService, private readonly verifier: AccessTokenVerifier) {}

  @PublicRpc()
  @MessagePattern(scopedSubject(IdentityRpc.signUp))
  signUp(@Payload() message: RpcRequest<Credentials>): Promise<IssuedSession> {
    return this.identity.signUp(parsePayload(credentials, message.payload), message.meta);
  }

  @PublicRpc()
  @MessagePattern(scopedSubject(IdentityRpc.signIn))
  signIn(@Payload() message: RpcRequest<Credentials>): Promise<IssuedSession> {
    return this.identity.signIn(parsePayload(credentials, message.payload), message.meta);
  }

  @PublicRpc()
  @MessagePattern(scopedSubject(IdentityRpc.refresh))
  refresh(@Payload() message: RpcRequest): Promise<IssuedSession> {
    return this.identity.refresh(parsePayload(refresh, message.payload).refreshToken);
  }

  /** Public so an expired access token can still end its session; the refresh token proves it. */
  @PublicRpc()
  @MessagePattern(scopedSubject(IdentityRpc.signOut))
  async signOut(@Payload() message: RpcRequest): Promise<SignOutReply> {
    const { refreshToken } = parsePayload(signOut, message.payload);
    const caller = message.auth?.accessToken ? await this.verifier.verify(message.auth.accessToken).catch(() => null) : null;
    return { revoked: await this.identity.signOut(refreshToken, caller) };
  }

  @Readers('owner')
  @MessagePattern(scopedSubject(IdentityRpc.getMe))
  getMe(@CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.getProfile(ownerOf(caller).userId);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(IdentityRpc.updateMe))
  updateMe(@Payload() message: RpcRequest<UpdateProfileRequest>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.updateProfile(caller, parsePayload(updateProfile, message.payload));
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(IdentityRpc.findUserByEmail))
  findUser(@Payload() message: RpcRequest): Promise<UserProfile> {
    return this.identity.findByEmail(parsePayload(byEmail, message.payload).email);
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(IdentityRpc.setAdmin))
  setAdmin(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    const { email, admin } = parsePayload(setAdmin, message.payload);
    return this.identity.setAdmin(email, admin, caller);
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(IdentityRpc.setTier))
  setTier(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    const { email, tier } = parsePayload(setTier, message.payload);
    return this.identity.setTier(email, tier, caller);
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(IdentityRpc.rebuildProjections))
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.identity.rebuildProjections() };
  }
}
