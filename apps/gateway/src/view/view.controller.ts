import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AccessKeysRpc, AccessMessages, ErrorCodes, REDEEM_FAILURES_PER_MINUTE, VIEW_SECTIONS, viewSessionBodySchema, type Letter, type OpenedViewSession, type ViewerEntry,
  type ViewerTokenGrant,
} from '@lv/contracts';
import { type ViewerCaller, type ViewerScope, VIEWER_SCOPES } from '@lv/platform/auth';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { parseAccessBody, parseRedeemBody } from '../access/access-body.js';
import { ViewerEntriesService } from '../access/viewer-entries.service.js';
import { ErrorBodyDto, LetterDto, OpenedViewSessionDto, RedeemKeyDto, ViewerEntryDto, ViewerTokenGrantDto, ViewSessionSecretDto } from '../http/api-models.js';
import { Public } from '../http/public.decorator.js';
import { CallCtx, CurrentViewer } from '../http/request-context.js';
import { ViewerRoute } from '../http/viewer-route.decorator.js';
import type { GatewayConfig } from '../config.js';
import { GATEWAY_CONFIG, RPC_CLIENT } from '../infra/tokens.js';
import { clearViewCookie, setViewCookie } from './view-cookie.js';

/** What a viewer's client learns about its own view session. */
export interface ViewSessionView {
  vaultOwnerId: string;
  viewSessionId: string;
  scopes: ViewerScope[];
  /** Epoch milliseconds after which the viewer token is refused. */
  expiresAt: number;
}

class ViewSessionDto implements ViewSessionView {
  @ApiProperty({ format: 'uuid' }) vaultOwnerId!: string;
  @ApiProperty() viewSessionId!: string;
  @ApiProperty({ enum: VIEWER_SCOPES, isArray: true }) scopes!: ViewerScope[];
  @ApiProperty({ description: 'Epoch milliseconds' }) expiresAt!: number;
}

const VIEWER_UNAUTHENTICATED = { status: 401, type: ErrorBodyDto, description: 'UNAUTHENTICATED or SESSION_EXPIRED (expired or revoked view session); an owner’s access token is refused here.' } as const;
const TOO_MANY_ATTEMPTS = { status: 429, type: ErrorBodyDto, description: `RATE_LIMITED: more than ${REDEEM_FAILURES_PER_MINUTE} failures a minute from this address ("${AccessMessages.tooManyKeyAttempts}").` } as const;

/**
 * /api/view/*: what a family viewer reads, with a viewer token (never an owner's access token), and
 * the three public steps that lead there: redeeming a key, exchanging the view session for a viewer
 * token, and closing it. Those three are public on purpose (whoever holds the key or the session
 * secret); access-keys limits failures per client address.
 */
@ApiTags('view')
@ApiResponse({ status: 503, type: ErrorBodyDto, description: 'access-keys (or the service read) is unavailable.' })
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
  @HttpCode(201)
  @ApiBody({ type: RedeemKeyDto })
  @ApiCreatedResponse({ type: OpenedViewSessionDto, description: 'A 30-day view session, its secret and a first viewer token; the consent is recorded with it. Sets the httpOnly lv_view cookie (the token, under /api/view) that media and document links need.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: `CONSENT_REQUIRED: "${ErrorCodes.CONSENT_REQUIRED.message}"; VALIDATION_FAILED: "${AccessMessages.keyEmpty}", "${AccessMessages.keyMalformed}".` })
  @ApiResponse({ status: 401, type: ErrorBodyDto, description: `INVALID_OR_EXPIRED_KEY: "${ErrorCodes.INVALID_OR_EXPIRED_KEY.message}" (unknown, expired, revoked or another vault’s key alike).` })
  @ApiResponse(TOO_MANY_ATTEMPTS)
  async redeem(@Body() body: unknown, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<OpenedViewSession> {
    const opened = await this.rpc.call(AccessKeysRpc.redeem, parseRedeemBody(body), call);
    // The lv_view cookie (view-cookie.ts): what media elements present to the byte routes.
    setViewCookie(reply, opened, this.config.COOKIE_SECURE);
    return opened;
  }

  @Public()
  @Post('token')
  @HttpCode(200)
  @ApiBody({ type: ViewSessionSecretDto })
  @ApiOkResponse({ type: ViewerTokenGrantDto, description: 'A fresh viewer token (15 minutes, never past the session’s end nor the key’s expiry); the lv_view cookie follows it.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: `VALIDATION_FAILED: "${AccessMessages.noViewSession}" or "${AccessMessages.viewExpired}" (not a session secret).` })
  @ApiResponse({ status: 401, type: ErrorBodyDto, description: `VIEW_SESSION_ENDED: "${ErrorCodes.VIEW_SESSION_ENDED.message}"` })
  @ApiResponse(TOO_MANY_ATTEMPTS)
  async token(@Body() body: unknown, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<ViewerTokenGrant> {
    const grant = await this.rpc.call(AccessKeysRpc.viewToken, parseAccessBody(viewSessionBodySchema, body), call);
    setViewCookie(reply, grant, this.config.COOKIE_SECURE);
    return grant;
  }

  @Public()
  @Post('close')
  @HttpCode(204)
  @ApiBody({ type: ViewSessionSecretDto })
  @ApiNoContentResponse({ description: 'Clear access: the session ends on the server too (also when it had already ended); the lv_view cookie is cleared.' })
  @ApiResponse({ status: 400, type: ErrorBodyDto, description: `VALIDATION_FAILED: "${AccessMessages.noViewSession}" or "${AccessMessages.viewExpired}" (not a session secret).` })
  async close(@Body() body: unknown, @CallCtx() call: CallContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.rpc.call(AccessKeysRpc.closeSession, parseAccessBody(viewSessionBodySchema, body), call);
    clearViewCookie(reply, this.config.COOKIE_SECURE);
  }

  @Get('session')
  @ApiBearerAuth()
  @ApiOkResponse({ type: ViewSessionDto, description: 'Which vault the viewer reads, and what it may read there.' })
  @ApiResponse(VIEWER_UNAUTHENTICATED)
  session(@CurrentViewer() viewer: ViewerCaller): ViewSessionView {
    return { vaultOwnerId: viewer.vaultOwnerId, viewSessionId: viewer.viewSessionId, scopes: viewer.scopes, expiresAt: viewer.expiresAt };
  }

  @Get('letter')
  @ApiBearerAuth()
  @ApiOkResponse({ type: LetterDto, description: 'The one letter a milestone key opens, once it has been released to its recipient. The view is recorded first.' })
  @ApiResponse(VIEWER_UNAUTHENTICATED)
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'This key opens no single letter (or the letter is gone).' })
  async letter(@CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<Letter> {
    return this.entries.releasedLetter(viewer, call);
  }

  @Get('entries/:section')
  @ApiBearerAuth()
  @ApiParam({ name: 'section', enum: VIEW_SECTIONS })
  @ApiOkResponse({ type: ViewerEntryDto, isArray: true, description: 'The section’s entries, newest first: id, created time and one headline field. The view is recorded first.' })
  @ApiResponse(VIEWER_UNAUTHENTICATED)
  @ApiResponse({ status: 403, type: ErrorBodyDto, description: `FORBIDDEN: "${AccessMessages.sectionNotShared}"` })
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: 'No such section.' })
  async sectionEntries(@Param('section') section: string, @CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<ViewerEntry[]> {
    return this.entries.list(viewer, section, call);
  }
}
