import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  VaultMediaRpc, type DeleteEntryReply, type PayloadOf, type PlaybackGrant, type RebuildReply, type Recording, type ReportHashReply, type RequestMeta,
  type ServiceHealthReply, type TimelinePage, type UploadTicket, type VaultStatsContribution,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { pingDatabase } from '@lv/platform/database';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, PublicRpc, RpcAccessToken, RpcHandler, RpcMeta, RpcPayload } from '@lv/platform/nest';
import { MediaService } from './media.service.js';
import { MediaHttpServer } from './http/media-http.server.js';

// Payloads are validated by @RpcPayload() with the schemas declared in contracts (VaultMediaRpc).
// Titles, hashes and sizes are the service's to judge, with the shared messages. No payload names an
// owner: the owner is the caller.

/** vault-media's request-reply API on NATS (commands and queries; bytes go over its HTTP listener). */
@Controller()
export class VaultMediaController {
  constructor(private readonly media: MediaService, private readonly http: MediaHttpServer) {}

  @PublicRpc()
  @MessagePattern(scopedSubject(VaultMediaRpc.health))
  async health(): Promise<ServiceHealthReply> {
    const checks: ServiceHealthReply['checks'] = {};
    try {
      await pingDatabase(this.media.orm.em);
      checks.postgres = { status: 'up' };
    } catch (error) {
      checks.postgres = { status: 'down', detail: (error as Error).message };
    }
    checks.media_http = this.http.listening ? { status: 'up' } : { status: 'down', detail: 'the byte-stream listener is not listening' };
    return { service: 'vault-media', status: Object.values(checks).every((c) => c.status === 'up') ? 'up' : 'down', checks };
  }

  @RpcHandler(VaultMediaRpc.stats)
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.media.stats(caller);
  }

  @RpcHandler(VaultMediaRpc.startUpload)
  startUpload(@RpcPayload() upload: PayloadOf<typeof VaultMediaRpc.startUpload>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<UploadTicket> {
    return this.media.startUpload(caller, upload, meta.requestId);
  }

  @RpcHandler(VaultMediaRpc.listRecordings)
  listRecordings(@RpcPayload() { limit }: PayloadOf<typeof VaultMediaRpc.listRecordings>, @CurrentCaller() caller: Caller): Promise<Recording[]> {
    return this.media.listRecordings(caller, limit);
  }

  @RpcHandler(VaultMediaRpc.timeline)
  timeline(@RpcPayload() page: PayloadOf<typeof VaultMediaRpc.timeline>, @CurrentCaller() caller: Caller, @RpcAccessToken() accessToken: string | undefined): Promise<TimelinePage> {
    return this.media.timeline(caller, page, accessToken);
  }

  @RpcHandler(VaultMediaRpc.deleteEntry)
  deleteEntry(@RpcPayload() { id }: PayloadOf<typeof VaultMediaRpc.deleteEntry>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeleteEntryReply> {
    return this.media.deleteEntry(caller, id, meta.requestId);
  }

  @RpcHandler(VaultMediaRpc.playbackLink)
  playbackLink(@RpcPayload() { id }: PayloadOf<typeof VaultMediaRpc.playbackLink>, @CurrentCaller() caller: Caller): Promise<PlaybackGrant> {
    return this.media.playbackLink(caller, id);
  }

  /**
   * The media-hashing worker's report. It carries no person's token (the worker acts for no one): it
   * is open on the bus, and authorised by the report token vault-media put into that very job.
   */
  @PublicRpc()
  @RpcHandler(VaultMediaRpc.reportHash)
  reportHash(@RpcPayload() report: PayloadOf<typeof VaultMediaRpc.reportHash>): Promise<ReportHashReply> {
    return this.media.reportHash(report);
  }

  @OperatorOnly()
  @RpcHandler(VaultMediaRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.media.rebuildProjections() };
  }
}
