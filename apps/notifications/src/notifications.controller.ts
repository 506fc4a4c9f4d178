import { Controller } from '@nestjs/common';
import { NotificationsRpc, type PayloadOf, type RebuildReply } from '@lv/contracts';
import { OperatorOnly, RpcHandler, RpcPayload } from '@lv/platform/nest';
import { rebuildProjections } from '@lv/platform/event-store';
import { AccountEmailsService } from './account-emails/account-emails.service.js';
import { AccessRequestNoticesService } from './access-request-notices/access-request-notices.service.js';
import { KeyEmailsService } from './key-emails/key-emails.service.js';
import { InactivityWarningsService } from './inactivity-warnings/inactivity-warnings.service.js';
import { TrusteeLinksService } from './trustee-notices/trustee-links.service.js';
import { TrusteeNoticesService } from './trustee-notices/trustee-notices.service.js';
import { TrusteeReportNoticesService } from './trustee-report-notices/trustee-report-notices.service.js';

/** notifications' request-reply API on NATS: operators' commands only (the work comes as BullMQ jobs). */
@Controller()
export class NotificationsController {
  constructor(
    private readonly keyEmails: KeyEmailsService,
    private readonly trusteeNotices: TrusteeNoticesService,
    private readonly inactivityWarnings: InactivityWarningsService,
    private readonly requestNotices: AccessRequestNoticesService,
    private readonly accountEmails: AccountEmailsService,
    private readonly trusteeLinks: TrusteeLinksService,
    private readonly reportNotices: TrusteeReportNoticesService,
  ) {}

  @OperatorOnly()
  @RpcHandler(NotificationsRpc.resendKeyEmail)
  resendKeyEmail(@RpcPayload() { key_id }: PayloadOf<typeof NotificationsRpc.resendKeyEmail>) {
    return this.keyEmails.resend(key_id);
  }

  @OperatorOnly()
  @RpcHandler(NotificationsRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    const em = this.keyEmails.orm.em;
    const notices = this.trusteeNotices.store;
    const warnings = this.inactivityWarnings.store;
    const requestNotices = this.requestNotices.store;
    return {
      projections: [
        ...(await this.keyEmails.rebuildProjections()),
        ...(await rebuildProjections(em, notices, notices.inlineProjections)),
        ...(await rebuildProjections(em, warnings, warnings.inlineProjections)),
        ...(await rebuildProjections(em, requestNotices, requestNotices.inlineProjections)),
        ...(await rebuildProjections(em, this.accountEmails.store, this.accountEmails.store.inlineProjections)),
        ...(await rebuildProjections(em, this.trusteeLinks.store, this.trusteeLinks.store.inlineProjections)),
        ...(await rebuildProjections(em, this.reportNotices.store, this.reportNotices.store.inlineProjections)),
      ],
    };
  }
}
