import { Controller } from '@nestjs/common';
import { AccessKeysRpc, type KeyStatusReply, type PayloadOf, type RequestMeta } from '@lv/contracts';
import { PublicRpc, RpcHandler, RpcMeta, RpcPayload } from '@lv/platform/nest';
import { KeyStatusService } from './key-status.service.js';

/** A key's landing page on NATS. */
@Controller()
export class KeyStatusController {
  constructor(private readonly keyStatus: KeyStatusService) {}

  /** Public like redeem (whoever holds the key), and limited per address like redeem (key-status.service.ts). */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.keyStatus)
  check(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.keyStatus>, @RpcMeta() meta: RequestMeta): Promise<KeyStatusReply> {
    return this.keyStatus.check(body, meta);
  }
}
