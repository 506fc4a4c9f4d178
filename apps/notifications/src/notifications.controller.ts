import { Controller } from '@nestjs/common';
import { NotificationsRpc, type PayloadOf, type RebuildReply } from '@lv/contracts';
import { OperatorOnly, RpcHandler, RpcPayload } from '@lv/platform/nest';
import { KeyEmailsService } from './key-emails/key-emails.service.js';

/** notifications' request-reply API on NATS: operators' commands only (the work comes as BullMQ jobs). */
@Controller()
export class NotificationsController {
  constructor(private readonly keyEmails: KeyEmailsService) {}

  @OperatorOnly()
  @RpcHandler(NotificationsRpc.resendKeyEmail)
  resendKeyEmail(@RpcPayload() { key_id }: PayloadOf<typeof NotificationsRpc.resendKeyEmail>) {
    return this.keyEmails.resend(key_id);
  }

  @OperatorOnly()
  @RpcHandler(NotificationsRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.keyEmails.rebuildProjections() };
  }
}
