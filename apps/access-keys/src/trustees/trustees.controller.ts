import { Controller } from '@nestjs/common';
import { AccessKeysRpc, type PayloadOf, type RequestMeta, type Trustee, type TrusteeReportNoticeState, type TrusteeView } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, Writers } from '@lv/platform/nest';
import { TrusteesService } from './trustees.service.js';

/** Trustees on NATS: the owner's list, and the trustee's own page (public: the e-mailed link is the credential). */
@Controller()
export class TrusteesController {
  constructor(private readonly trustees: TrusteesService) {}

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.listTrustees)
  list(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Trustee[]> {
    return this.trustees.list(caller, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.addTrustee)
  add(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.addTrustee>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Trustee> {
    return this.trustees.add(caller, body, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.resendTrusteeInvitation)
  resend(@RpcPayload() { id }: PayloadOf<typeof AccessKeysRpc.resendTrusteeInvitation>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Trustee> {
    return this.trustees.resend(caller, id, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.removeTrustee)
  remove(@RpcPayload() { id }: PayloadOf<typeof AccessKeysRpc.removeTrustee>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Trustee> {
    return this.trustees.remove(caller, id, meta);
  }

  /** Public: the link (signed, current, unused) is the trustee's only credential. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.trusteeView)
  view(@RpcPayload() link: PayloadOf<typeof AccessKeysRpc.trusteeView>, @RpcMeta() meta: RequestMeta): Promise<TrusteeView> {
    return this.trustees.view(link, meta);
  }

  @PublicRpc()
  @RpcHandler(AccessKeysRpc.answerTrustee)
  answer(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.answerTrustee>, @RpcMeta() meta: RequestMeta): Promise<TrusteeView> {
    return this.trustees.answer(body, meta);
  }

  /** Public: the link is the credential; only an accepted trustee's current link reports. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.reportOwner)
  report(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.reportOwner>, @RpcMeta() meta: RequestMeta): Promise<TrusteeView> {
    return this.trustees.report(body, meta);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.openTrusteeReport)
  openReport(@CurrentCaller() caller: Caller) {
    return this.trustees.openReport(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.vetoTrusteeReport)
  veto(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta) {
    return this.trustees.veto(caller, meta);
  }

  /** Public: the same answer for any address; limited per client address. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.requestTrusteeLink)
  requestLink(@RpcPayload() { email }: PayloadOf<typeof AccessKeysRpc.requestTrusteeLink>, @RpcMeta() meta: RequestMeta) {
    return this.trustees.requestLink(email, meta);
  }

  /** notifications' trustee-link worker only (deploy/nats allows no one else to publish it): a state, never a link. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.trusteeLinkState)
  linkState(@RpcPayload() { ownerId, trusteeId, linkId }: PayloadOf<typeof AccessKeysRpc.trusteeLinkState>): Promise<{ state: 'current' | 'stale' | 'unknown' }> {
    return this.trustees.linkState(ownerId, trusteeId, linkId);
  }

  /** notifications' report-notice worker only (deploy/nats allows no one else to publish it): the report's state and the words its e-mail needs. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.trusteeReportNoticeState)
  reportNoticeState(@RpcPayload() { ownerId, reportId }: PayloadOf<typeof AccessKeysRpc.trusteeReportNoticeState>): Promise<TrusteeReportNoticeState> {
    return this.trustees.noticeState(ownerId, reportId);
  }
}
