import { Controller, Get, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { AccessKeysRpc, isUuid, rejectDeliveryBodySchema, type DeliveryReview, type DeliveryReviewSummary, type DeliveryView } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx, CurrentCaller } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

/** An owner id from the path, or NOT_FOUND (nothing to review under anything else). */
function ownerIdOf(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND');
  return id.toLowerCase();
}

const NOTHING_WAITS = { 409: 'CONFLICT: this delivery is not waiting for verification (decided already, cancelled, or none).' } as const;

/**
 * The admin dashboard's review queue of vault deliveries waiting for legal verification (issue 31).
 * The gateway turns away a token without the admin claim before any service is asked; access-keys
 * checks the claim again and records every opening and decision with the admin's id.
 */
@ApiTags('admin')
@ApiBearerAuth()
@RouteErrors({
  401: 'No valid access token.',
  403: '"Access denied": not an admin.',
})
@Controller('admin/delivery-reviews')
export class DeliveryReviewsController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Route({ reply: AccessKeysRpc.listDeliveryReviews.reply, description: 'Deliveries waiting for legal verification, oldest first: the owner, the trigger, who reported and when.' })
  list(@CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<DeliveryReviewSummary[]> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    return this.rpc.call(AccessKeysRpc.listDeliveryReviews, {}, call);
  }

  @Get(':id')
  @ApiParam({ name: 'id', format: 'uuid', description: 'The owner’s id.' })
  @Route({
    reply: AccessKeysRpc.openDeliveryReview.reply,
    description: "One review: the owner's trustees, the report's documents (metadata only) and the review's log. Opening it is recorded with the admin's id.",
    errors: { 404: 'NOT_FOUND: not an owner id.', ...NOTHING_WAITS },
  })
  open(@Param('id') ownerId: string, @CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<DeliveryReview> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    return this.rpc.call(AccessKeysRpc.openDeliveryReview, { owner_id: ownerIdOf(ownerId) }, call);
  }

  @Post(':id/approve')
  @ApiParam({ name: 'id', format: 'uuid', description: 'The owner’s id.' })
  @Route({
    reply: AccessKeysRpc.approveDeliveryReview.reply,
    description: 'Verified: the delivery goes ahead (released at once, or when its timing or the veto window says). Recorded with the admin’s id.',
    errors: { 404: 'NOT_FOUND: not an owner id.', ...NOTHING_WAITS },
  })
  approve(@Param('id') ownerId: string, @CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<DeliveryView> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    return this.rpc.call(AccessKeysRpc.approveDeliveryReview, { owner_id: ownerIdOf(ownerId) }, call);
  }

  @Post(':id/reject')
  @ApiParam({ name: 'id', format: 'uuid', description: 'The owner’s id.' })
  @Route({
    body: rejectDeliveryBodySchema,
    reply: AccessKeysRpc.rejectDeliveryReview.reply,
    description: 'Rejected: the delivery ends (nothing is released), with the reason and the admin’s id recorded.',
    errors: { 400: 'VALIDATION_FAILED: no reason, or one too long.', 404: 'NOT_FOUND: not an owner id.', ...NOTHING_WAITS },
  })
  reject(@Param('id') ownerId: string, @RouteBody() body: z.output<typeof rejectDeliveryBodySchema>, @CurrentCaller() caller: UserCaller, @CallCtx() call: CallContext): Promise<DeliveryView> {
    if (!caller.isAdmin) throw new DomainError('FORBIDDEN');
    return this.rpc.call(AccessKeysRpc.rejectDeliveryReview, { owner_id: ownerIdOf(ownerId), reason: body.reason }, call);
  }
}
