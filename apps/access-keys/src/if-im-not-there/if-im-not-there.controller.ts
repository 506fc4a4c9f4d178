import { Controller } from '@nestjs/common';
import {
  AccessKeysRpc, type ContactKeyReply, type DeliverySettings, type EmergencyContact, type FinalEntries, type PayloadOf, type RequestMeta,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, Readers, RpcHandler, RpcMeta, RpcPayload, viewerOf, Writers } from '@lv/platform/nest';
import { IfImNotThereService } from './if-im-not-there.service.js';

/** If I'm Not There on NATS: the owner's contacts, their keys and the delivery settings; the viewer's tab. */
@Controller()
export class IfImNotThereController {
  constructor(private readonly ifImNotThere: IfImNotThereService) {}

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
  finalEntries(@CurrentCaller() caller: Caller): Promise<FinalEntries> {
    return this.ifImNotThere.finalEntries(caller);
  }
}
