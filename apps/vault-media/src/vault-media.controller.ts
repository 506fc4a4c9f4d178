import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { TITLES_BATCH_MAX, type TitlesReply } from '@lv/contracts';
import {
  MEDIA_TYPES, VaultMediaRpc, type DeleteEntryReply, type PlaybackGrant, type RebuildReply, type Recording, type ReportHashReply,
  type RpcRequest, type UploadTicket, type VaultStatsContribution,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, parsePayload, PublicRpc, Readers, viewerOf, Writers } from '@lv/platform/nest';
import { MediaService } from './media.service.js';
import { MediaHttpServer } from './http/media-http.server.js';

// Payloads are checked here too (services do not trust their callers). Titles, hashes and sizes are
// the service's to judge, with the shared messages. No payload names an owner: the owner is the caller.
const startUpload = z.object({ type: z.enum(MEDIA_TYPES), title: z.string().max(1000), sha256: z.string().max(128), size: z.number() });
const listRecordings = z.object({ limit: z.number().int().min(1).max(100).optional() });
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

  @Readers('owner')
  @MessagePattern(scopedSubject(VaultMediaRpc.stats))
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.media.stats(caller);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(VaultMediaRpc.startUpload))
  startUpload(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<UploadTicket> {
    return this.media.startUpload(caller, parsePayload(startUpload, message.payload), message.meta?.requestId);
  }

  @Readers('owner')
  @MessagePattern(scopedSubject(VaultMediaRpc.listRecordings))
  listRecordings(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<Recording[]> {
    return this.media.listRecordings(caller, parsePayload(listRecordings, message.payload ?? {}).limit);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(VaultMediaRpc.deleteEntry))
  deleteEntry(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<DeleteEntryReply> {
    return this.media.deleteEntry(caller, parsePayload(byId, message.payload).id, message.meta?.requestId);
  }

  @Readers('owner')
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

  /** The timeline's batch title lookup, with the reader's own token: only the caller's items answer. */
  @Readers('owner', viewerOf('timeline'))
  @MessagePattern(scopedSubject(VaultMediaRpc.titles))
  titles(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<TitlesReply> {
    return this.media.titles(caller, parsePayload(titlesRequest, message.payload).ids);
  }
}

// Ids are bounded here; which of them name the caller's items is the service's to decide.
const titlesRequest = z.object({ ids: z.array(z.string().max(64)).max(TITLES_BATCH_MAX) });
