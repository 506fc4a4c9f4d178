import { Controller } from '@nestjs/common';
import { AccessKeysRpc, type DeliveryHistory, type DeliveryReview, type DeliveryReviewSummary, type DeliveryView, type PayloadOf, type RequestMeta } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, OperatorOnly, Readers, RpcHandler, RpcMeta, RpcPayload, Writers } from '@lv/platform/nest';
import { DeliveryReviewsService } from './delivery-reviews.service.js';

/**
 * The review queue on NATS. The admin dashboard's subjects: read by admins (the guard checks the
 * token's admin claim), decided through @Writers('owner') with the service requiring the admin claim
 * (a write admits no 'admin' reader), as billing's FAQ edits do. `delivery:show` is the ops CLI's.
 */
@Controller()
export class DeliveryReviewsController {
  constructor(private readonly reviews: DeliveryReviewsService) {}

  @Readers('admin', 'operator')
  @RpcHandler(AccessKeysRpc.listDeliveryReviews)
  list(@CurrentCaller() caller: Caller): Promise<DeliveryReviewSummary[]> {
    return this.reviews.list(caller);
  }

  /** Recorded as opened by the reviewer (an event on the owner's delivery stream), hence a write. */
  @Writers('owner', 'operator')
  @RpcHandler(AccessKeysRpc.openDeliveryReview)
  open(@RpcPayload() { owner_id }: PayloadOf<typeof AccessKeysRpc.openDeliveryReview>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliveryReview> {
    return this.reviews.open(caller, owner_id, meta);
  }

  @Writers('owner', 'operator')
  @RpcHandler(AccessKeysRpc.approveDeliveryReview)
  approve(@RpcPayload() { owner_id }: PayloadOf<typeof AccessKeysRpc.approveDeliveryReview>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliveryView> {
    return this.reviews.approve(caller, owner_id, meta);
  }

  @Writers('owner', 'operator')
  @RpcHandler(AccessKeysRpc.rejectDeliveryReview)
  reject(@RpcPayload() { owner_id, reason }: PayloadOf<typeof AccessKeysRpc.rejectDeliveryReview>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeliveryView> {
    return this.reviews.reject(caller, owner_id, reason, meta);
  }

  @OperatorOnly()
  @RpcHandler(AccessKeysRpc.deliveryHistory)
  history(@RpcPayload() { owner_id }: PayloadOf<typeof AccessKeysRpc.deliveryHistory>): Promise<DeliveryHistory> {
    return this.reviews.history(owner_id);
  }
}
