import { Controller } from '@nestjs/common';
import {
  AccessKeysRpc, type AccessKeySummary, type AccessRequest, type AccessRequestPage, type IssuedAccessKey, type KeyDraft, type OpenedViewSession, type PayloadOf,
  type ErasureReplayReply, type RebuildReply, type RequestFormInfo, type RequestMeta, type RequestNoticeState, type RequestSetting, type ViewerConsent, type ViewerTokenGrant, type ViewSessionSummary,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { ErasureJournalKeeper } from '@lv/platform/event-store';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, viewerOf, Writers } from '@lv/platform/nest';
import { AccessKeysService } from './access-keys.service.js';

// Payloads are validated by @RpcPayload() with the contracts' schemas (AccessKeysRpc). No payload
// names an owner except the public request form's (which owner the request is for): owners are the
// verified caller. Public handlers are limited per client address inside the service.

/** access-keys' request-reply API on NATS. */
@Controller()
export class AccessKeysController {
  constructor(private readonly access: AccessKeysService, private readonly erasures: ErasureJournalKeeper) {}

  @PublicRpc()
  @RpcHandler(AccessKeysRpc.submitRequest)
  submitRequest(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.submitRequest>, @RpcMeta() meta: RequestMeta): Promise<{ success: true }> {
    return this.access.submitRequest(body, meta);
  }

  /** The request page opened from an owner's link (public like the form; limited per client address in the service). */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.requestForm)
  requestForm(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.requestForm>, @RpcMeta() meta: RequestMeta): Promise<RequestFormInfo> {
    return this.access.requestForm(body, meta);
  }

  @PublicRpc()
  @RpcHandler(AccessKeysRpc.consent)
  consent(): ViewerConsent {
    return this.access.consent();
  }

  @PublicRpc()
  @RpcHandler(AccessKeysRpc.redeem)
  redeem(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.redeem>, @RpcMeta() meta: RequestMeta): Promise<OpenedViewSession> {
    return this.access.redeem(body, meta);
  }

  @PublicRpc()
  @RpcHandler(AccessKeysRpc.viewToken)
  viewToken(@RpcPayload() { session }: PayloadOf<typeof AccessKeysRpc.viewToken>, @RpcMeta() meta: RequestMeta): Promise<ViewerTokenGrant> {
    return this.access.viewToken(session, meta);
  }

  @PublicRpc()
  @RpcHandler(AccessKeysRpc.closeSession)
  closeSession(@RpcPayload() { session }: PayloadOf<typeof AccessKeysRpc.closeSession>, @RpcMeta() meta: RequestMeta): Promise<{ closed: boolean }> {
    return this.access.closeSession(session, meta);
  }

  /** notifications' worker only (deploy/nats allows no one else to publish it); answers a state, never a key. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.keyMailState)
  keyMailState(@RpcPayload() { key_id }: PayloadOf<typeof AccessKeysRpc.keyMailState>): Promise<{ state: 'active' | 'expired' | 'revoked' | 'unknown' }> {
    return this.access.keyMailState(key_id);
  }

  /** notifications' worker only (deploy/nats allows no one else to publish it): a request's state, and who asked while it is pending. */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.requestNoticeState)
  requestNoticeState(@RpcPayload() { owner_id, request_id }: PayloadOf<typeof AccessKeysRpc.requestNoticeState>): Promise<RequestNoticeState> {
    return this.access.requestNoticeState(owner_id, request_id);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.requestSetting)
  requestSetting(@CurrentCaller() caller: Caller): Promise<RequestSetting> {
    return this.access.requestSetting(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.saveRequestSetting)
  saveRequestSetting(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.saveRequestSetting>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<RequestSetting> {
    return this.access.saveRequestSetting(caller, body, meta);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.listRequests)
  listRequests(@RpcPayload() query: PayloadOf<typeof AccessKeysRpc.listRequests>, @CurrentCaller() caller: Caller): Promise<AccessRequestPage> {
    return this.access.listRequests(caller, query);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.approveRequest)
  approveRequest(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.approveRequest>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<IssuedAccessKey> {
    return this.access.approveRequest(caller, body, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.declineRequest)
  declineRequest(@RpcPayload() { request_id }: PayloadOf<typeof AccessKeysRpc.declineRequest>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<AccessRequest> {
    return this.access.declineRequest(caller, request_id, meta);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.listKeys)
  listKeys(@CurrentCaller() caller: Caller): Promise<AccessKeySummary[]> {
    return this.access.listKeys(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.draftKey)
  draftKey(@CurrentCaller() caller: Caller): KeyDraft {
    return this.access.draftKey(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.createKey)
  createKey(@RpcPayload() body: PayloadOf<typeof AccessKeysRpc.createKey>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<IssuedAccessKey> {
    return this.access.createKey(caller, body, meta);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.revokeKey)
  revokeKey(@RpcPayload() { key_id }: PayloadOf<typeof AccessKeysRpc.revokeKey>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<AccessKeySummary> {
    return this.access.revokeKey(caller, key_id, meta);
  }

  @Readers('owner')
  @RpcHandler(AccessKeysRpc.listSessions)
  listSessions(@CurrentCaller() caller: Caller): Promise<ViewSessionSummary[]> {
    return this.access.listSessions(caller);
  }

  @Writers('owner')
  @RpcHandler(AccessKeysRpc.revokeSession)
  revokeSession(@RpcPayload() { session_id }: PayloadOf<typeof AccessKeysRpc.revokeSession>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<ViewSessionSummary> {
    return this.access.revokeSession(caller, session_id, meta);
  }

  /** Any viewer, for a section of its own session (the service checks the scope and that the session is live). */
  @Readers(viewerOf('timeline'), viewerOf('letters'), viewerOf('court-journal'), viewerOf('who-i-am'), viewerOf('if-im-not-there'))
  @RpcHandler(AccessKeysRpc.recordView)
  recordView(@RpcPayload() { section, item }: PayloadOf<typeof AccessKeysRpc.recordView>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<{ recorded: true }> {
    return this.access.recordView(caller, section, item, meta);
  }

  @OperatorOnly()
  @RpcHandler(AccessKeysRpc.listPendingForOwner)
  listPendingForOwner(@RpcPayload() { owner_id }: PayloadOf<typeof AccessKeysRpc.listPendingForOwner>): Promise<AccessRequestPage> {
    return this.access.pendingOf(owner_id);
  }

  @OperatorOnly()
  @RpcHandler(AccessKeysRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.access.rebuildProjections() };
  }

  /** The operators' erasures:replay: removed trustees (erased accounts) of the erasure journal, erased again (idempotent). */
  @OperatorOnly()
  @RpcHandler(AccessKeysRpc.replayErasures)
  replayErasures(): Promise<ErasureReplayReply> {
    return this.erasures.replayNow();
  }
}
