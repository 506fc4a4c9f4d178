import { Controller, Get, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  ACCESS_REQUESTS_PER_HOUR, AccessKeysRpc, AccessMessages, approveAccessRequestBodySchema, createAccessKeyBodySchema, ErrorCodes, listAccessRequestsQuerySchema, PENDING_REQUESTS_PAGE_SIZE, REQUEST_FORM_LOOKUPS_PER_MINUTE, RequestLinkMessages, requestFormPayloadSchema, requestSettingSchema, submitAccessRequestBodySchema, type AccessKeySummary, type AccessRequest, type AccessRequestPage, type IssuedAccessKey, type KeyDraft, type RequestFormInfo, type RequestSetting, type ViewerConsent, type ViewSessionSummary, viewSessionSummarySchema,
} from '@lv/contracts';
import { RpcClient, type CallContext } from '@lv/platform/nest';
import { Public } from '../http/public.decorator.js';
import { Route, RouteBody, RouteErrors, RouteQuery } from '../http/route.js';
import { CallCtx } from '../http/request-context.js';
import { RPC_CLIENT } from '../infra/tokens.js';
import { idParam, parseAccessBody } from './access-body.js';
import { withOpenedItemTitles } from './opened-item-titles.js';

const UNAUTHENTICATED = { 401: 'No valid access token (a viewer token is refused here too).' } as const;

/**
 * Family access, the owner's side (/api/access): connection requests, the request link's switch, access
 * keys and view sessions. Three routes are public on purpose: the request form and its lookup of the
 * link's vault (anyone holding the owner's link), and the consent text a viewer accepts. Everything else takes the owner's access token; access-keys decides whose
 * requests, keys and sessions these are from that token, so nothing here names an owner but the form.
 * Bodies are checked here with the contracts' schemas (and again by access-keys).
 */
@ApiTags('access')
@RouteErrors({
  503: 'access-keys is unavailable.',
})
@Controller('access')
export class AccessController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** Public on purpose: the request form of a family member who has the owner's link; access-keys limits it per client address. */
  @Public()
  @Post('requests')
  @Route({
    parse: parseAccessBody,
    body: submitAccessRequestBodySchema,
    reply: AccessKeysRpc.submitRequest.reply,
    status: 201,
    description: 'Submitted: the owner sees it among the pending requests. The same form sent again with its submission_id (a retry after a lost answer) '
      + `is answered the same and saved once. The page says "${AccessMessages.submitted}"`,
    errors: {
      400: `VALIDATION_FAILED, with the form's words as the message: "${AccessMessages.missingOwner}", "${AccessMessages.emailRequired}", "${AccessMessages.relationshipRequired}", "${AccessMessages.reasonRequired}"...`,
      403: `REQUESTS_CLOSED: the owner turned his request link off ("${RequestLinkMessages.requestsClosed}").`,
      409: `CONFLICT: this submission_id was already sent to this owner with other details ("${AccessMessages.submissionReused}").`,
      429: `RATE_LIMITED: more than ${ACCESS_REQUESTS_PER_HOUR} requests an hour from this address ("${AccessMessages.tooManyRequests}").`,
    },
  })
  async submitRequest(@RouteBody() body: z.output<typeof submitAccessRequestBodySchema>, @CallCtx() call: CallContext): Promise<{ success: true }> {
    return this.rpc.call(AccessKeysRpc.submitRequest, body, call);
  }

  /**
   * Public on purpose: the request page opened from an owner's link asks whether his vault takes
   * requests, and whose it is. access-keys limits it per client address. An id that names no account
   * answers as an open vault without a name: the form accepts a request for any id, so this tells no
   * more about which accounts exist.
   */
  @Public()
  @Get('request-form/:id')
  @ApiParam({ name: 'id', format: 'uuid', description: "The owner's id, from his request link (/request?owner=...)." })
  @Route({
    reply: AccessKeysRpc.requestForm.reply,
    description: `open (false: the page shows "${RequestLinkMessages.requestsClosed}" instead of the form) and the owner's full name (null when none is given).`,
    errors: {
      400: 'VALIDATION_FAILED: the link does not end in an owner id ("This request link is not complete.").',
      429: `RATE_LIMITED: more than ${REQUEST_FORM_LOOKUPS_PER_MINUTE} lookups a minute from this address ("${AccessMessages.tooManyKeyAttempts}").`,
    },
  })
  async requestForm(@Param('id') ownerId: string, @CallCtx() call: CallContext): Promise<RequestFormInfo> {
    return this.rpc.call(AccessKeysRpc.requestForm, parseAccessBody(requestFormPayloadSchema, { user_id: ownerId.toLowerCase() }), call);
  }

  /** Public on purpose: the disclaimer a viewer reads before redeeming a key. */
  @Public()
  @Get('consent')
  @Route({
    reply: AccessKeysRpc.consent.reply,
    description: 'The viewer disclaimer, its version and its SHA-256 (hex); redemption sends the version and the hash back.',
  })
  async consent(@CallCtx() call: CallContext): Promise<ViewerConsent> {
    return this.rpc.call(AccessKeysRpc.consent, {}, call);
  }

  @Get('request-setting')
  @ApiBearerAuth()
  @Route({
    reply: AccessKeysRpc.requestSetting.reply,
    description: 'Whether your request link takes requests (open until you close it).',
    errors: {
      ...UNAUTHENTICATED,
    },
  })
  async requestSetting(@CallCtx() call: CallContext): Promise<RequestSetting> {
    return this.rpc.call(AccessKeysRpc.requestSetting, {}, call);
  }

  @Put('request-setting')
  @ApiBearerAuth()
  @Route({
    parse: parseAccessBody,
    body: requestSettingSchema,
    reply: AccessKeysRpc.saveRequestSetting.reply,
    description: `Saved. Closed: your link shows "${RequestLinkMessages.requestsClosed}" and a request sent anyway is refused (REQUESTS_CLOSED); requests already received stay.`,
    errors: {
      400: 'VALIDATION_FAILED: open is not true or false.',
      ...UNAUTHENTICATED,
    },
  })
  async saveRequestSetting(@RouteBody() body: z.output<typeof requestSettingSchema>, @CallCtx() call: CallContext): Promise<RequestSetting> {
    return this.rpc.call(AccessKeysRpc.saveRequestSetting, body, call);
  }

  @Get('requests')
  @ApiBearerAuth()
  @Route({
    query: listAccessRequestsQuerySchema,
    queryDescriptions: {
      status: 'Only pending requests are listed (the default).',
      limit: `Page size, 1 to ${PENDING_REQUESTS_PAGE_SIZE} (default ${PENDING_REQUESTS_PAGE_SIZE}).`,
    },
    parse: parseAccessBody,
    reply: AccessKeysRpc.listRequests.reply,
    description: 'Your pending connection requests, newest first.',
    errors: {
      400: 'A bad status or limit.',
      ...UNAUTHENTICATED,
    },
  })
  async listRequests(@RouteQuery() query: z.output<typeof listAccessRequestsQuerySchema>, @CallCtx() call: CallContext): Promise<AccessRequestPage> {
    return this.rpc.call(AccessKeysRpc.listRequests, query, call);
  }

  @Post('requests/:id/approve')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    parse: parseAccessBody,
    body: approveAccessRequestBodySchema,
    bodyRequired: false,
    reply: AccessKeysRpc.approveRequest.reply,
    description: 'Approved: a key valid 30 days, shown in clear this once, and its e-mail queued.',
    errors: {
      400: `VALIDATION_FAILED: "${AccessMessages.emailInvalid}" (override_email) or "${AccessMessages.scopesRequired}".`,
      404: 'No such request of yours.',
      409: `ALREADY_DECIDED: "${ErrorCodes.ALREADY_DECIDED.message}"`,
      ...UNAUTHENTICATED,
    },
  })
  async approveRequest(@Param('id') id: string, @RouteBody() choices: z.output<typeof approveAccessRequestBodySchema>, @CallCtx() call: CallContext): Promise<IssuedAccessKey> {
    // Approving as asked (the requester's address, every section) needs no body at all (bodyRequired: false).
    const requestId = idParam(id);
    return this.rpc.call(AccessKeysRpc.approveRequest, { request_id: requestId, ...choices }, call);
  }

  @Post('requests/:id/decline')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: AccessKeysRpc.declineRequest.reply,
    description: 'Declined: no key is issued.',
    errors: {
      404: 'No such request of yours.',
      409: `ALREADY_DECIDED: "${ErrorCodes.ALREADY_DECIDED.message}"`,
      ...UNAUTHENTICATED,
    },
  })
  async declineRequest(@Param('id') id: string, @CallCtx() call: CallContext): Promise<AccessRequest> {
    return this.rpc.call(AccessKeysRpc.declineRequest, { request_id: idParam(id) }, call);
  }

  @Get('keys')
  @ApiBearerAuth()
  @Route({
    reply: AccessKeysRpc.listKeys.reply,
    description: 'Your keys, newest first (never the keys themselves: only their hashes are kept).',
    errors: {
      ...UNAUTHENTICATED,
    },
  })
  async listKeys(@CallCtx() call: CallContext): Promise<AccessKeySummary[]> {
    return this.rpc.call(AccessKeysRpc.listKeys, {}, call);
  }

  @Post('keys/draft')
  @ApiBearerAuth()
  @Route({
    reply: AccessKeysRpc.draftKey.reply,
    status: 201,
    description: '"Generate Access Key": a key made by the server for you, with the draft Save must send back within the hour. Nothing is stored yet.',
    errors: {
      ...UNAUTHENTICATED,
    },
  })
  async draftKey(@CallCtx() call: CallContext): Promise<KeyDraft> {
    return this.rpc.call(AccessKeysRpc.draftKey, {}, call);
  }

  @Post('keys')
  @ApiBearerAuth()
  @Route({
    parse: parseAccessBody,
    body: createAccessKeyBodySchema,
    reply: AccessKeysRpc.createKey.reply,
    status: 201,
    description: 'Saved (as a hash) and its e-mail queued.',
    errors: {
      400: `VALIDATION_FAILED, with the tab's words as the message: "${AccessMessages.noKeyGenerated}", "${AccessMessages.keyDraftInvalid}", "${AccessMessages.missingName}", "${AccessMessages.missingEmail}", "${AccessMessages.keyExpiryInvalid}"...`,
      409: `KEY_TAKEN: "${ErrorCodes.KEY_TAKEN.message}"`,
      ...UNAUTHENTICATED,
    },
  })
  async createKey(@RouteBody() body: z.output<typeof createAccessKeyBodySchema>, @CallCtx() call: CallContext): Promise<IssuedAccessKey> {
    return this.rpc.call(AccessKeysRpc.createKey, body, call);
  }

  @Post('keys/:id/revoke')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: AccessKeysRpc.revokeKey.reply,
    description: 'Revoked at once, with every view session opened with it.',
    errors: {
      404: 'No such key of yours.',
      ...UNAUTHENTICATED,
    },
  })
  async revokeKey(@Param('id') id: string, @CallCtx() call: CallContext): Promise<AccessKeySummary> {
    return this.rpc.call(AccessKeysRpc.revokeKey, { key_id: idParam(id) }, call);
  }

  @Get('sessions')
  @ApiBearerAuth()
  @Route({
    reply: [viewSessionSummarySchema],
    description: 'View sessions of your vault, newest first: the consent given, and who viewed what and when.',
    errors: {
      ...UNAUTHENTICATED,
    },
  })
  async listSessions(@CallCtx() call: CallContext): Promise<ViewSessionSummary[]> {
    return withOpenedItemTitles(this.rpc, await this.rpc.call(AccessKeysRpc.listSessions, {}, call), call);
  }

  @Post('sessions/:id/revoke')
  @ApiBearerAuth()
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: AccessKeysRpc.revokeSession.reply,
    description: 'Ended at once: the viewer’s next request is refused.',
    errors: {
      404: 'No such view session of your vault.',
      ...UNAUTHENTICATED,
    },
  })
  async revokeSession(@Param('id') id: string, @CallCtx() call: CallContext): Promise<ViewSessionSummary> {
    return this.rpc.call(AccessKeysRpc.revokeSession, { session_id: idParam(id) }, call);
  }
}
