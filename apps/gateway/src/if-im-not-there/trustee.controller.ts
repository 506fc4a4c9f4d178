import { Body, Controller, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  AccessKeysRpc, ErrorCodes, TRUSTEE_REPORT_LABELS, trusteeAnswerBodySchema, trusteeReportBodySchema, trusteeLinkBodySchema, trusteeLinkRequestBodySchema, TrusteeMessages, type TrusteeView,
} from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { parseAccessBody } from '../access/access-body.js';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';

const LINK_INVALID = `TRUSTEE_LINK_INVALID: "${ErrorCodes.TRUSTEE_LINK_INVALID.message}"`;

/** A link that does not even parse gets the same answer as a forged, expired or used one. */
function linkBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new DomainError('TRUSTEE_LINK_INVALID');
  return parsed.data;
}

/** A report: a link that does not parse is a bad link; then the report's own fields get their messages. */
function parseReportBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  linkBody(trusteeLinkBodySchema, body);
  return parseAccessBody(schema, body);
}

/**
 * A trustee's page (/api/trustee), public on purpose: a trustee has no account, and the e-mailed link
 * is their credential (signed by access-keys for one trustee of one owner, valid 14 days, used once
 * by an answer, ended by removal). It shows only what the role needs, never the vault.
 */
@ApiTags('trustee')
@RouteErrors({ 503: 'access-keys is unavailable.' })
@Controller('trustee')
export class TrusteeController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Public()
  @Post('view')
  @Route({
    body: trusteeLinkBodySchema,
    reply: AccessKeysRpc.trusteeView.reply,
    description: 'Who named the trustee, as what, and their answer so far.',
    errors: { 400: LINK_INVALID },
  })
  async view(@Body() body: unknown, @CallCtx() call: CallContext): Promise<TrusteeView> {
    return this.rpc.call(AccessKeysRpc.trusteeView, linkBody(trusteeLinkBodySchema, body), call);
  }

  @Public()
  @Post('answer')
  @Route({
    body: trusteeAnswerBodySchema,
    reply: AccessKeysRpc.answerTrustee.reply,
    description: 'Accepted or declined; the invitation link is used up.',
    errors: { 400: LINK_INVALID },
  })
  async answer(@Body() body: unknown, @CallCtx() call: CallContext): Promise<TrusteeView> {
    return this.rpc.call(AccessKeysRpc.answerTrustee, linkBody(trusteeAnswerBodySchema, body), call);
  }

  @Public()
  @Post('report')
  @Route({
    parse: parseReportBody,
    body: trusteeReportBodySchema,
    reply: AccessKeysRpc.reportOwner.reply,
    description: `An accepted trustee reports that the owner ${TRUSTEE_REPORT_LABELS.died} or ${TRUSTEE_REPORT_LABELS.incapacitated}; nothing is released before the owner's veto window (at least 72 hours) ends.`,
    errors: {
      400: `${LINK_INVALID}, VALIDATION_FAILED: "${TrusteeMessages.reportInvalid}" or "${TrusteeMessages.noteTooLong}"`,
      403: `TRUSTEE_NOT_ACCEPTED: "${ErrorCodes.TRUSTEE_NOT_ACCEPTED.message}", TRUSTEE_REPORT_BLOCKED: "${ErrorCodes.TRUSTEE_REPORT_BLOCKED.message}"`,
    },
  })
  async report(@RouteBody() body: z.output<typeof trusteeReportBodySchema>, @CallCtx() call: CallContext): Promise<TrusteeView> {
    return this.rpc.call(AccessKeysRpc.reportOwner, body, call);
  }

  @Public()
  @Post('link')
  @Route({
    parse: parseAccessBody,
    body: trusteeLinkRequestBodySchema,
    reply: AccessKeysRpc.requestTrusteeLink.reply,
    description: `"${TrusteeMessages.linkRequested}": the same answer whether or not the address is a trustee's.`,
    errors: {
      400: `VALIDATION_FAILED: "${TrusteeMessages.emailInvalid}"`,
      429: `RATE_LIMITED: "${TrusteeMessages.tooManyLinkRequests}"`,
    },
  })
  async requestLink(@RouteBody() body: z.output<typeof trusteeLinkRequestBodySchema>, @CallCtx() call: CallContext) {
    return this.rpc.call(AccessKeysRpc.requestTrusteeLink, body, call);
  }
}
