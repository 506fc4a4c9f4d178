import { Controller } from '@nestjs/common';
import { VaultMediaRpc, type LibraryTrack, type MusicTrack, type MusicUploadTicket, type PayloadOf, type PlaybackGrant } from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { CurrentCaller, OperatorOnly, Readers, RpcHandler, RpcPayload } from '@lv/platform/nest';
import { MusicLibrary } from './music-library.js';

/** The Parent Circle's music library on NATS: members list and play (Pro, Legacy, admins: checked by MusicLibrary); operators add and remove. */
@Controller()
export class MusicController {
  constructor(private readonly music: MusicLibrary) {}

  @Readers('owner')
  @RpcHandler(VaultMediaRpc.musicTracks)
  tracks(@CurrentCaller() caller: Caller): Promise<MusicTrack[]> {
    return this.music.tracks(caller);
  }

  /** Minting a link changes nothing stored: a read, for the member himself only. */
  @Readers('owner')
  @RpcHandler(VaultMediaRpc.musicPlaybackLink)
  playbackLink(@RpcPayload() { id }: PayloadOf<typeof VaultMediaRpc.musicPlaybackLink>, @CurrentCaller() caller: Caller): Promise<PlaybackGrant> {
    return this.music.playbackLink(caller, id);
  }

  @OperatorOnly()
  @RpcHandler(VaultMediaRpc.musicStartUpload)
  startUpload(@RpcPayload() upload: PayloadOf<typeof VaultMediaRpc.musicStartUpload>, @CurrentCaller() caller: Caller): Promise<MusicUploadTicket> {
    return this.music.startUpload(caller, upload);
  }

  @OperatorOnly()
  @RpcHandler(VaultMediaRpc.musicLibrary)
  library(@CurrentCaller() caller: Caller): Promise<LibraryTrack[]> {
    return this.music.library(caller);
  }

  @OperatorOnly()
  @RpcHandler(VaultMediaRpc.musicRemove)
  remove(@RpcPayload() { track }: PayloadOf<typeof VaultMediaRpc.musicRemove>, @CurrentCaller() caller: Caller): Promise<{ id: string; fileName: string; removed: true }> {
    return this.music.remove(caller, track);
  }
}

