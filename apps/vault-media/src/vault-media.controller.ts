import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import {
  MEDIA_TYPES, TIMELINE_PAGE_MAX, VaultMediaRpc, type DeleteEntryReply, type PlaybackGrant, type RebuildReply, type Recording, type ReportHashReply,
  type RpcRequest, type ServiceHealthReply, type TimelinePage, type UploadTicket, type VaultStatsContribution,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { pingDatabase } from '@lv/platform/database';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, parsePayload, PublicRpc } from '@lv/platform/nest';
import { MediaService } from './media.service.js';
import { MediaHttpServer } from './http/media-http.server.js';

// Payloads are checked here too (services do not trust their callers). Titles, hashes and sizes are
// the service's to judge, with the shared messages. No payload names an owner: the owner is the caller.
const startUpload = z.object({ type: z.enum(MEDIA_TYPES), title: z.string().max(1000), sha256: z.string().max(128), size: z.number() });
const listRecordings = z.object({ limit: z.number().int().min(1).max(100).optional() });
const timeline = z.object({ limit: z.number().int().min(1).max(TIMELINE_PAGE_MAX).optional(), before: z.string().max(200).optional() });
const byId = z.object({ id: z.string().max(64) });
const reportHash = z.object({
  recordingId: z.string().max(64),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  size: z.number().int().min(0).nullable(),
  reportToken: z.string().max(128),
});

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
    // The gateway holds no storage keys: it learns about object storage from this check.
    try {
      await this.media.pingStorage(1500);
      checks.storage = { status: 'up' };
    } catch (error) {
      checks.storage = { status: 'down', detail: (error as Error).message };
    }
    return { service: 'vault-media', status: Object.values(checks).every((c) => c.status === 'up') ? 'up' : 'down', checks };
  }

  @MessagePattern(scopedSubject(VaultMediaRpc.stats))
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.media.stats(caller);
  }

  @MessagePattern(scopedSubject(VaultMediaRpc.startUpload))
  startUpload(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<UploadTicket> {
    return this.media.startUpload(caller, parsePayload(startUpload, message.payload), message.meta?.requestId);
  }

  @MessagePattern(scopedSubject(VaultMediaRpc.listRecordings))
  listRecordings(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<Recording[]> {
    return this.media.listRecordings(caller, parsePayload(listRecordings, message.payload ?? {}).limit);
  }

  @MessagePattern(scopedSubject(VaultMediaRpc.timeline))
  timeline(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<TimelinePage> {
    return this.media.timeline(caller, parsePayload(timeline, message.payload ?? {}), message.auth?.accessToken);
  }

  @MessagePattern(scopedSubject(VaultMediaRpc.deleteEntry))
  deleteEntry(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<DeleteEntryReply> {
    return this.media.deleteEntry(caller, parsePayload(byId, message.payload).id, message.meta?.requestId);
  }

  @MessagePattern(scopedSubject(VaultMediaRpc.playbackLink))
  playbackLink(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<PlaybackGrant> {
    return this.media.playbackLink(caller, parsePayload(byId, message.payload).id);
  }

  /**
   * The media-hashing worker's report. It carries no person's token (the worker acts for no one): it
   * is open on the bus, and authorised by the report token vault-media put into that very job.
   */
  @PublicRpc()
  @MessagePattern(scopedSubject(VaultMediaRpc.reportHash))
  reportHash(@Payload() message: RpcRequest): Promise<ReportHashReply> {
    return this.media.reportHash(parsePayload(reportHash, message.payload));
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(VaultMediaRpc.rebuildProjections))
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.media.rebuildProjections() };
  }
}
