import { Controller } from '@nestjs/common';
import { AccessKeysRpc, type CheckInReply, type InactivityWatch, type PayloadOf, type RequestMeta } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, Writers } from '@lv/platform/nest';
import { InactivityService } from './inactivity.service.js';

/** The owner's inactivity watch on NATS, the public check-in link, and notifications' warning question. */
@Controller()
export class InactivityController {
  constructor(private readonly inactivity: InactivityService) {}

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.inactivity)
  view(@CurrentCaller() caller: Caller): Promise<InactivityWatch> {
    return this.inactivity.view(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.saveInactivity)
  save(@RpcPayload() { period_days }: PayloadOf<typeof AccessKeysRpc.saveInactivity>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<InactivityWatch> {
    return this.inactivity.save(caller, period_days, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.pauseInactivity)
  pause(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<InactivityWatch> {
    return this.inactivity.pause(caller, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.resumeInactivity)
  resume(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<InactivityWatch> {
    return this.inactivity.resume(caller, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.testInactivityWarning)
  testWarning(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<InactivityWatch> {
    return this.inactivity.testWarning(caller, meta);
  }

  /** Public on purpose: the link in a warning e-mail is the credential (signed for one owner and warning, expiring, used once). */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.checkInByLink)
  checkInByLink(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.checkInByLink>, @RpcMeta() meta: RequestMeta): Promise<CheckInReply> {
    return this.inactivity.checkInByLink(body, meta);
  }

  /** notifications' warning worker only (deploy/nats allows no one else to publish it): answers a state, nothing else. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.inactivityWarningState)
  warningState(@RpcPayload() { owner_id, warning_id }: PayloadOf<typeof AccessKeysRpc.inactivityWarningState>): Promise<{ state: 'current' | 'stale' | 'unknown' }> {
    return this.inactivity.warningState(owner_id, warning_id);
  }
}
