import { Controller, Get, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  BillingRpc, changePlanBodySchema, isUuid, saveFaqBodySchema, startCheckoutBodySchema, type CheckoutSession, type FaqEntry, type LocalCheckoutSession, type SubscriptionView,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

const UNAUTHENTICATED = { 401: 'No valid access token.' } as const;
const LOCAL_SESSION = /^cs_local_[0-9a-f]{32}$/;

function localSessionId(id: string): string {
  if (!LOCAL_SESSION.test(id)) throw new DomainError('NOT_FOUND');
  return id;
}

/**
 * Plans and billing (/api/billing): the caller's subscription, the provider's hosted checkout and
 * cancelling at the period end; the local development provider's hosted page. billing decides whose
 * subscription it is from the caller's token. The provider's webhook is a Fastify route of its own
 * (billing-webhook.route.ts): it needs the body's exact bytes.
 */
@ApiTags('billing')
@ApiBearerAuth()
@RouteErrors({
  ...UNAUTHENTICATED,
  503: 'billing is unavailable.',
})
@Controller('billing')
export class BillingController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('subscription')
  @Route({ reply: BillingRpc.subscription.reply, description: 'Your plan, its status and the next billing date (or when access ends after a cancellation).' })
  subscription(@CallCtx() call: CallContext): Promise<SubscriptionView> {
    return this.rpc.call(BillingRpc.subscription, {}, call);
  }

  @Post('checkout')
  @Route({
    body: startCheckoutBodySchema,
    reply: BillingRpc.startCheckout.reply,
    status: 201,
    description: 'The provider’s hosted checkout page for the plan: send the browser to `url`.',
    errors: {
      400: 'VALIDATION_FAILED: a plan other than essentials, pro or legacy.',
      409: 'CONFLICT: a plan is already active.',
    },
  })
  checkout(@RouteBody() body: z.output<typeof startCheckoutBodySchema>, @CallCtx() call: CallContext): Promise<CheckoutSession> {
    return this.rpc.call(BillingRpc.startCheckout, body, call);
  }

  @Post('cancel')
  @Route({
    reply: BillingRpc.cancel.reply,
    description: 'Cancelled at the period end: the plan stays active until then.',
    errors: {
      409: 'CONFLICT: no active subscription to cancel.',
    },
  })
  cancel(@CallCtx() call: CallContext): Promise<SubscriptionView> {
    return this.rpc.call(BillingRpc.cancel, {}, call);
  }

  @Post('change-plan')
  @Route({
    body: changePlanBodySchema,
    reply: BillingRpc.changePlan.reply,
    description: 'The provider moved the live subscription to the plan (prorated); the tier follows its confirmation.',
    errors: {
      400: 'VALIDATION_FAILED: a plan other than essentials, pro or legacy.',
      409: 'CONFLICT: no active subscription, already on that plan, or a cancellation is pending.',
    },
  })
  changePlan(@RouteBody() body: z.output<typeof changePlanBodySchema>, @CallCtx() call: CallContext): Promise<SubscriptionView> {
    return this.rpc.call(BillingRpc.changePlan, body, call);
  }

  @Get('local/sessions/:id')
  @ApiParam({ name: 'id', description: 'A local checkout session (cs_local_…).' })
  @Route({
    reply: BillingRpc.localSession.reply,
    description: 'The local development provider’s checkout session (yours only).',
    errors: {
      404: 'No such session of yours, or the provider is Stripe.',
    },
  })
  localSession(@Param('id') id: string, @CallCtx() call: CallContext): Promise<LocalCheckoutSession> {
    return this.rpc.call(BillingRpc.localSession, { session_id: localSessionId(id) }, call);
  }

  @Post('local/sessions/:id/pay')
  @ApiParam({ name: 'id' })
  @Route({ reply: BillingRpc.localPay.reply, description: 'Paid: the provider’s signed events are on their way to the webhook route.' })
  localPay(@Param('id') id: string, @CallCtx() call: CallContext): Promise<LocalCheckoutSession> {
    return this.rpc.call(BillingRpc.localPay, { session_id: localSessionId(id) }, call);
  }

  @Post('local/sessions/:id/cancel')
  @ApiParam({ name: 'id' })
  @Route({ reply: BillingRpc.localCancel.reply, description: 'The checkout was abandoned; nothing was charged.' })
  localCancel(@Param('id') id: string, @CallCtx() call: CallContext): Promise<LocalCheckoutSession> {
    return this.rpc.call(BillingRpc.localCancel, { session_id: localSessionId(id) }, call);
  }
}

/**
 * The FAQ (spec 02: faq entries, active only, by display order, on the pricing page): public to read;
 * admins list every entry and add or edit one under /api/admin/faq (billing checks the admin claim).
 */
@ApiTags('billing')
@RouteErrors({
  503: 'billing is unavailable.',
})
@Controller()
export class FaqController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** Public on purpose: the pricing page's FAQ is shown to visitors before they sign up. */
  @Public()
  @Get('faq')
  @Route({ reply: BillingRpc.faq.reply, description: 'Active entries, by display order.' })
  faq(@CallCtx() call: CallContext): Promise<FaqEntry[]> {
    return this.rpc.call(BillingRpc.faq, {}, call);
  }

  @Get('admin/faq')
  @ApiBearerAuth()
  @Route({
    reply: BillingRpc.faqAll.reply,
    description: 'Every entry, inactive ones too (admins).',
    errors: {
      ...UNAUTHENTICATED,
      403: 'FORBIDDEN: not an admin.',
    },
  })
  faqAll(@CallCtx() call: CallContext): Promise<FaqEntry[]> {
    return this.rpc.call(BillingRpc.faqAll, {}, call);
  }

  @Post('admin/faq')
  @ApiBearerAuth()
  @Route({
    body: saveFaqBodySchema,
    reply: BillingRpc.faqSave.reply,
    status: 201,
    description: 'Added (admins).',
    errors: {
      400: 'VALIDATION_FAILED: an empty question or answer, or one too long.',
      ...UNAUTHENTICATED,
      403: 'FORBIDDEN: not an admin.',
    },
  })
  addFaq(@RouteBody() body: z.output<typeof saveFaqBodySchema>, @CallCtx() call: CallContext): Promise<FaqEntry> {
    const { id: _ignored, ...entry } = body;
    return this.rpc.call(BillingRpc.faqSave, entry, call);
  }

  @Put('admin/faq/:id')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    body: saveFaqBodySchema,
    reply: BillingRpc.faqSave.reply,
    description: 'Edited, deactivated or moved (admins).',
    errors: {
      404: 'No such entry.',
      ...UNAUTHENTICATED,
      403: 'FORBIDDEN: not an admin.',
    },
  })
  editFaq(@Param('id') id: string, @RouteBody() body: z.output<typeof saveFaqBodySchema>, @CallCtx() call: CallContext): Promise<FaqEntry> {
    if (!isUuid(id)) throw new DomainError('NOT_FOUND');
    return this.rpc.call(BillingRpc.faqSave, { ...body, id }, call);
  }
}
