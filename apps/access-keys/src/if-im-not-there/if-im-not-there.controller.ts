import { Controller } from '@nestjs/common';
import {
  AccessKeysRpc, type ContactKeyReply, type DeliveryCheck, type DeliverySettings, type DeliveryView, type EmergencyContact, type FinalAccess, type FinalEntries, type PayloadOf, type RequestMeta,
} from '@lv/contracts';
import { ownerOf, vaultOwnerId, type Caller } from '@lv/platform/auth';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, viewerOf, Writers } from '@lv/platform/nest';
import { DeliveryService } from './delivery.service.js';
import { IfImNotThereService } from './if-im-not-there.service.js';
import { InactivityService } from './inactivity.service.js';

/** If I'm Not There on NATS: the owner's contacts, their keys and the delivery settings; the viewer's tab. */
@Controller()
export class IfImNotThereController {
  constructor(
    private readonly ifImNotThere: IfImNotThereService,
    private readonly delivery: DeliveryService,
    private readonly inactivity: InactivityService,
  ) {}

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.listContacts)
  listContacts(@CurrentCaller() caller: Caller): Promise<EmergencyContact[]> {
    return this.ifImNotThere.listContacts(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.addContact)
  addContact(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.addContact>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<EmergencyContact> {
    return this.ifImNotThere.addContact(caller, body, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.removeContact)
  removeContact(@RpcPayload() { id }: PayloadOf<typeof AccessKeysRpc.removeContact>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<{ id: string; removed: true }> {
    return this.ifImNotThere.removeContact(caller, id, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.setContactKey)
  setContactKey(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.setContactKey>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<ContactKeyReply> {
    return this.ifImNotThere.setContactKey(caller, body, meta);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.deliverySettings)
  deliverySettings(@CurrentCaller() caller: Caller): Promise<DeliverySettings> {
    return this.ifImNotThere.deliverySettings(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.saveDeliverySettings)
  saveDeliverySettings(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.saveDeliverySettings>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliverySettings> {
    return this.ifImNotThere.saveDeliverySettings(caller, body, meta);
  }

  @Readers('owner', viewerOf('if-im-not-there'))
  @RpcHandler(AccessKeysRpc.finalEntries)
  async finalEntries(@CurrentCaller() caller: Caller): Promise<FinalEntries> {
    return this.ifImNotThere.finalEntries(caller, await this.released(caller));
  }

  @Readers('owner', viewerOf('if-im-not-there'))
  @RpcHandler(AccessKeysRpc.finalAccess)
  async finalAccess(@CurrentCaller() caller: Caller): Promise<FinalAccess> {
    return this.ifImNotThere.finalAccess(caller, await this.released(caller));
  }

  /** Whether the vault the caller reads has been released (the delivery's last step). */
  private async released(caller: Caller): Promise<boolean> {
    return (await this.delivery.view(vaultOwnerId(caller))).status === 'released';
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.delivery)
  deliveryView(@CurrentCaller() caller: Caller): Promise<DeliveryView> {
    return this.delivery.view(ownerOf(caller).userId);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.deliveryChecks)
  deliveryChecks(@CurrentCaller() caller: Caller): Promise<DeliveryCheck[]> {
    return this.delivery.checks(ownerOf(caller).userId);
  }

  /** "I'm still here": the owner stops a delivery before it happens, and checks in (the inactivity watch counts from now). */
  @Writers('owner')
  @RpcHandler(AccessKeysRpc.cancelDelivery)
  async cancelDelivery(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliveryView> {
    const owner = ownerOf(caller);
    await this.inactivity.checkInByButton(owner.userId, meta);
    return this.delivery.cancel(owner.userId, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId });
  }

  /** A trustee's report, confirmed by an operator (ops CLI): starts the delivery the owner's settings describe. */
  @OperatorOnly()
  @RpcHandler(AccessKeysRpc.reportAbsence)
  reportAbsence(@RpcPayload() { owner_id, owner_email }: PayloadOf<typeof AccessKeysRpc.reportAbsence>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliveryView> {
    return this.delivery.trigger(owner_id, owner_email, 'trustee-report', { actor: { kind: 'operator', id: operatorId(caller) }, correlationId: meta.requestId });
  }

  /** notifications' trustee-notice worker only (deploy/nats allows no one else to publish it): has a delivery step committed? */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.trusteeNoticeState)
  trusteeNoticeState(@RpcPayload() { owner_id, release_id }: PayloadOf<typeof AccessKeysRpc.trusteeNoticeState>): Promise<{ state: 'started' | 'released' | 'cancelled' | 'unknown' }> {
    return this.delivery.noticeState(owner_id, release_id);
  }

  /** An operator has checked the legal documents (ops CLI): recorded with the operator's id. */
  @OperatorOnly()
  @RpcHandler(AccessKeysRpc.verifyDelivery)
  verifyDelivery(@RpcPayload() { owner_id, owner_email }: PayloadOf<typeof AccessKeysRpc.verifyDelivery>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliveryView> {
    const operator = operatorId(caller);
    return this.delivery.verify(owner_id, owner_email, { actor: { kind: 'operator', id: operator }, correlationId: meta.requestId }, operator);
  }
}

const operatorId = (caller: Caller) => (caller.kind === 'operator' ? caller.userId : 'unknown');
