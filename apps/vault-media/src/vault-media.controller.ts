import { Controller } from '@nestjs/common';
import {
  VaultMediaRpc, type DeleteEntryReply, type FinalEntries, type PayloadOf, type PlaybackGrant, type ErasureReplayReply, type RebuildReply, type Recording, type ReportHashReply, type ReportTranscodeReply, type RequestMeta,
  type TitlesReply, type UploadTicket, type VaultStatsContribution, type ExportList, type StorageByDay, type ViewerMediaGrant,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { ErasureJournalKeeper } from '@lv/platform/event-store';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcAccessToken, RpcHandler, RpcMeta, RpcPayload, viewerOf, Writers } from '@lv/platform/nest';
import { MediaService } from './media.service.js';
import { MusicLibrary } from './music/music-library.js';
import { ViewerPlayback } from './playback/viewer-playback.js';

// Payloads are validated by @RpcPayload() with the schemas declared in contracts (VaultMediaRpc).
// Titles, hashes and sizes are the service's to judge, with the shared messages. No payload names an
// owner: the owner is the caller.

/** vault-media's request-reply API on NATS (commands and queries; bytes go over its HTTP listener). */
@Controller()
export class VaultMediaController {
  constructor(private readonly media: MediaService, private readonly music: MusicLibrary, private readonly viewerPlayback: ViewerPlayback, private readonly erasures: ErasureJournalKeeper) {}

  @Readers('owner')
  @RpcHandler(VaultMediaRpc.stats)
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.media.stats(caller);
  }

  @Writers('owner')
  @RpcHandler(VaultMediaRpc.startUpload)
  startUpload(@RpcPayload() upload: PayloadOf<typeof VaultMediaRpc.startUpload>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<UploadTicket> {
    return this.media.startUpload(caller, upload, meta.requestId);
  }

  @Readers('owner')
  @RpcHandler(VaultMediaRpc.exportList)
  exportList(@RpcPayload() { after }: PayloadOf<typeof VaultMediaRpc.exportList>, @CurrentCaller() caller: Caller): Promise<ExportList> {
    return this.media.exportList(caller, after);
  }

  @Readers('admin')
  @RpcHandler(VaultMediaRpc.adminStorageByDay)
  adminStorageByDay(): Promise<StorageByDay> {
    return this.media.adminStorageByDay();
  }

  @Readers('owner')
  @RpcHandler(VaultMediaRpc.listRecordings)
  listRecordings(@RpcPayload() { limit, collection }: PayloadOf<typeof VaultMediaRpc.listRecordings>, @CurrentCaller() caller: Caller): Promise<Recording[]> {
    return this.media.listRecordings(caller, limit, collection);
  }

  /** Titles of the owner's Who I Am photo and personal media: the owner, or a key holder of the "Who I Am" section. */
  @Readers('owner', viewerOf('who-i-am'))
  @RpcHandler(VaultMediaRpc.portraitMediaTitles)
  portraitMediaTitles(@CurrentCaller() caller: Caller): Promise<FinalEntries> {
    return this.media.portraitMediaTitles(caller);
  }

  @Writers('owner')
  @RpcHandler(VaultMediaRpc.retitle)
  retitle(@RpcPayload() { id, title }: PayloadOf<typeof VaultMediaRpc.retitle>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Recording> {
    return this.media.retitle(caller, id, title, meta.requestId);
  }

  /** Titles of the owner's final messages: the owner, or a key holder of the "If I'm Not There" section. */
  @Readers('owner', viewerOf('if-im-not-there'))
  @RpcHandler(VaultMediaRpc.finalMessageTitles)
  finalMessageTitles(@CurrentCaller() caller: Caller): Promise<FinalEntries> {
    return this.media.finalMessageTitles(caller);
  }

  @Writers('owner')
  @RpcHandler(VaultMediaRpc.deleteEntry)
  deleteEntry(@RpcPayload() { id }: PayloadOf<typeof VaultMediaRpc.deleteEntry>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeleteEntryReply> {
    return this.media.deleteEntry(caller, id, meta.requestId);
  }

  @Readers('owner')
  @RpcHandler(VaultMediaRpc.playbackLink)
  playbackLink(@RpcPayload() { id }: PayloadOf<typeof VaultMediaRpc.playbackLink>, @CurrentCaller() caller: Caller): Promise<PlaybackGrant> {
    return this.media.playbackLink(caller, id);
  }

  /**
   * A family viewer's link to one item: recordings with 'timeline', Who I Am media with 'who-i-am',
   * final messages with 'if-im-not-there' (while open). The declaration admits viewers only (owners
   * play through playbackLink); the service checks the item's own section and vault again.
   */
  @Readers(viewerOf('timeline'), viewerOf('who-i-am'), viewerOf('if-im-not-there'))
  @RpcHandler(VaultMediaRpc.viewerLink)
  viewerLink(@RpcPayload() { id, poster }: PayloadOf<typeof VaultMediaRpc.viewerLink>, @CurrentCaller() caller: Caller, @RpcAccessToken() token: string | undefined, @RpcMeta() meta: RequestMeta): Promise<ViewerMediaGrant> {
    return poster ? this.viewerPlayback.posterLink(caller, id, token, meta.requestId) : this.viewerPlayback.link(caller, id, token, meta.requestId);
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

  /** The media-transcoding worker's report: open on the bus like report-hash's, authorised by the job's own token. */
  @PublicRpc()
  @RpcHandler(VaultMediaRpc.reportTranscode)
  reportTranscode(@RpcPayload() report: PayloadOf<typeof VaultMediaRpc.reportTranscode>): Promise<ReportTranscodeReply> {
    return this.media.reportTranscode(report);
  }

  @OperatorOnly()
  @RpcHandler(VaultMediaRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: [...(await this.media.rebuildProjections()), ...(await this.music.rebuildProjections())] };
  }

  /** The operators' erasures:replay: what the erasure journal holds of this service, erased again (idempotent). */
  @OperatorOnly()
  @RpcHandler(VaultMediaRpc.replayErasures)
  replayErasures(): Promise<ErasureReplayReply> {
    return this.erasures.replayNow();
  }

  /** The timeline's batch title lookup, with the reader's own token: only the caller's items answer. */
  @Readers('owner', viewerOf('timeline'))
  @RpcHandler(VaultMediaRpc.titles)
  titles(@RpcPayload() { ids }: PayloadOf<typeof VaultMediaRpc.titles>, @CurrentCaller() caller: Caller): Promise<TitlesReply> {
    return this.media.titles(caller, ids);
  }
}
