import { Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  AccessKeysRpc, AccessMessages, ErrorCodes, REDEEM_FAILURES_PER_MINUTE, VIEW_SECTIONS, viewSessionBodySchema, type Letter, type OpenedViewSession, type ViewerEntry,
  type ViewerTokenGrant, redeemKeyBodySchema, openedViewSessionSchema, viewerTokenGrantSchema, letterSchema, viewerEntrySchema,
} from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { parseAccessBody, parseRedeemBody } from '../access/access-body.js';
import { ViewerEntriesService } from '../access/viewer-entries.service.js';
import { Public } from '../http/public.decorator.js';
import { CallCtx, CurrentViewer } from '../http/request-context.js';
import { Route, RouteBody, RouteErrors } from '../http/route.js';
import { ViewerRoute } from '../http/viewer-route.decorator.js';
import type { GatewayConfig } from '../config.js';
import { GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { clearViewCookie, setViewCookie } from './view-cookie.js';
import { viewSessionViewSchema, type ViewSessionView } from './view-session-view.schema.js';

const VIEWER_UNAUTHENTICATED = { 401: 'UNAUTHENTICATED or SESSION_EXPIRED (expired or revoked view session); an owner’s access token is refused here.' } as const;
const TOO_MANY_ATTEMPTS = { 429: `RATE_LIMITED: more than ${REDEEM_FAILURES_PER_MINUTE} failures a minute from this address ("${AccessMessages.tooManyKeyAttempts}").` } as const;

/**
 * /api/view/*: what a family viewer reads, with a viewer token (never an owner's access token), and
 * the three public steps that lead there: redeeming a key, exchanging the view session for a viewer
 * token, and closing it. Those three are public on purpose (whoever holds the key or the session
 * secret); access-keys limits failures per client address.
 */
@ApiTags('view')
@RouteErrors({
  503: 'access-keys (or the service read) is unavailable.',
})
@ViewerRoute()
@Controller('view')
export class ViewController {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly entries: ViewerEntriesService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Public()
  @Post('redeem')
  @Route({
    body: redeemKeyBodySchema,
    parse: parseRedeemBody,
    reply: openedViewSessionSchema,
    status: 201,
    description: 'A 30-day view session, its secret and a first viewer token; the consent is recorded with it. Sets the httpOnly lv_view cookie (the token, under /api/view) that media and document links need.',
    errors: {
      400: `CONSENT_REQUIRED: "${ErrorCodes.CONSENT_REQUIRED.message}"; VALIDATION_FAILED: "${AccessMessages.keyEmpty}", "${AccessMessages.keyMalformed}".`,
      401: `INVALID_OR_EXPIRED_KEY: "${ErrorCodes.INVALID_OR_EXPIRED_KEY.message}" (unknown, expired, revoked or another vault’s key alike).`,
      ...TOO_MANY_ATTEMPTS,
    },
  })
  async redeem(@RouteBody() body: z.output<typeof redeemKeyBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<OpenedViewSession> {
    const opened = await this.rpc.call(AccessKeysRpc.redeem, body, call);
    // The lv_view cookie (view-cookie.ts): what media elements present to the byte routes.
    setViewCookie(reply, opened, this.config.COOKIE_SECURE);
    return opened;
  }

  @Public()
  @Post('token')
  @Route({
    parse: parseAccessBody,
    body: viewSessionBodySchema,
    reply: viewerTokenGrantSchema,
    description: 'A fresh viewer token (15 minutes, never past the session’s end nor the key’s expiry); the lv_view cookie follows it.',
    errors: {
      400: `VALIDATION_FAILED: "${AccessMessages.noViewSession}" or "${AccessMessages.viewExpired}" (not a session secret).`,
      401: `VIEW_SESSION_ENDED: "${ErrorCodes.VIEW_SESSION_ENDED.message}"`,
      ...TOO_MANY_ATTEMPTS,
    },
  })
  async token(@RouteBody() body: z.output<typeof viewSessionBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<ViewerTokenGrant> {
    const grant = await this.rpc.call(AccessKeysRpc.viewToken, body, call);
    setViewCookie(reply, grant, this.config.COOKIE_SECURE);
    return grant;
  }

  @Public()
  @Post('close')
  @Route({
    parse: parseAccessBody,
    body: viewSessionBodySchema,
    status: 204,
    description: 'Clear access: the session ends on the server too (also when it had already ended); the lv_view cookie is cleared.',
    errors: {
      400: `VALIDATION_FAILED: "${AccessMessages.noViewSession}" or "${AccessMessages.viewExpired}" (not a session secret).`,
    },
  })
  async close(@RouteBody() body: z.output<typeof viewSessionBodySchema>, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.rpc.call(AccessKeysRpc.closeSession, body, call);
    clearViewCookie(reply, this.config.COOKIE_SECURE);
  }

  @Get('session')
  @ApiBearerAuth()
  @Route({
    reply: viewSessionViewSchema,
    description: 'Which vault the viewer reads, and what it may read there.',
    errors: {
      ...VIEWER_UNAUTHENTICATED,
    },
  })
  session(@CurrentViewer() viewer: ViewerCaller): ViewSessionView {
    return { vaultOwnerId: viewer.vaultOwnerId, viewSessionId: viewer.viewSessionId, scopes: viewer.scopes, expiresAt: viewer.expiresAt };
  }

  @Get('letter')
  @ApiBearerAuth()
  @Route({
    reply: letterSchema,
    description: 'The one letter a milestone key opens, once it has been released to its recipient. The view is recorded first.',
    errors: {
      ...VIEWER_UNAUTHENTICATED,
      404: 'This key opens no single letter (or the letter is gone).',
    },
  })
  async letter(@CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<Letter> {
    return this.entries.releasedLetter(viewer, call);
  }

  @Get('entries/:section')
  @ApiBearerAuth()
  @ApiParam({ name: 'section', enum: VIEW_SECTIONS })
  @Route({
    reply: [viewerEntrySchema],
    description: 'The section’s entries, newest first: id, created time and one headline field. The view is recorded first.',
    errors: {
      ...VIEWER_UNAUTHENTICATED,
      403: `FORBIDDEN: "${AccessMessages.sectionNotShared}"`,
      404: 'No such section.',
    },
  })
  async sectionEntries(@Param('section') section: string, @CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<ViewerEntry[]> {
    return this.entries.list(viewer, section, call);
  }
}
