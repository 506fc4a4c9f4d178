import { Controller } from '@nestjs/common';
import {
  BillingRpc, type CheckoutSession, type FaqEntry, type LocalCheckoutSession, type PayloadOf, type RebuildReply, type RequestMeta, type SubscriptionView, type WebhookReply,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, Writers } from '@lv/platform/nest';
import { BillingService } from './billing.service.js';

// Payloads are validated by @RpcPayload() with the schemas declared in contracts (BillingRpc). No
// payload names an owner: the owner is the verified caller, or the provider's signed event.

/** Billing's request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Readers('owner')
  @RpcHandler(BillingRpc.subscription)
  subscription(@CurrentCaller() caller: Caller): Promise<SubscriptionView> {
    return this.billing.subscription(caller);
  }

  @Writers('owner')
  @RpcHandler(BillingRpc.startCheckout)
  startCheckout(@RpcPayload() { plan, promo_code }: PayloadOf<typeof BillingRpc.startCheckout>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<CheckoutSession> {
    return this.billing.startCheckout(caller, plan, meta, promo_code ?? null);
  }

  @Writers('owner')
  @RpcHandler(BillingRpc.cancel)
  cancel(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<SubscriptionView> {
    return this.billing.cancel(caller, meta);
  }

  @Writers('owner')
  @RpcHandler(BillingRpc.changePlan)
  changePlan(@RpcPayload() { plan }: PayloadOf<typeof BillingRpc.changePlan>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<SubscriptionView> {
    return this.billing.changePlan(caller, plan, meta);
  }

  /** Public on purpose: the provider's signature, checked by the service, is the authority. */
  @PublicRpc()
  @RpcHandler(BillingRpc.webhook)
  webhook(@RpcPayload() { body, signature }: PayloadOf<typeof BillingRpc.webhook>, @RpcMeta() meta: RequestMeta): Promise<WebhookReply> {
    return this.billing.receiveWebhook(body, signature, meta);
  }

  @Readers('owner')
  @RpcHandler(BillingRpc.localSession)
  localSession(@RpcPayload() { session_id }: PayloadOf<typeof BillingRpc.localSession>, @CurrentCaller() caller: Caller): Promise<LocalCheckoutSession> {
    return this.billing.localSession(caller, session_id);
  }

  @Writers('owner')
  @RpcHandler(BillingRpc.localPay)
  localPay(@RpcPayload() { session_id }: PayloadOf<typeof BillingRpc.localPay>, @CurrentCaller() caller: Caller): Promise<LocalCheckoutSession> {
    return this.billing.localPay(caller, session_id);
  }

  @Writers('owner')
  @RpcHandler(BillingRpc.localCancel)
  localCancel(@RpcPayload() { session_id }: PayloadOf<typeof BillingRpc.localCancel>, @CurrentCaller() caller: Caller): Promise<LocalCheckoutSession> {
    return this.billing.localCancel(caller, session_id);
  }

  /** Public: the pricing page's FAQ is shown to anyone. */
  @PublicRpc()
  @RpcHandler(BillingRpc.faq)
  faq(): Promise<FaqEntry[]> {
    return this.billing.faq();
  }

  /** Admins (checked by the service on the token's admin claim) and operators. */
  @Readers('owner', 'operator')
  @RpcHandler(BillingRpc.faqAll)
  faqAll(@CurrentCaller() caller: Caller): Promise<FaqEntry[]> {
    return this.billing.faqAll(caller);
  }

  @Writers('owner', 'operator')
  @RpcHandler(BillingRpc.faqSave)
  faqSave(@RpcPayload() entry: PayloadOf<typeof BillingRpc.faqSave>, @CurrentCaller() caller: Caller): Promise<FaqEntry> {
    return this.billing.faqSave(caller, entry);
  }

  @OperatorOnly()
  @RpcHandler(BillingRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.billing.rebuildProjections() };
  }
}
