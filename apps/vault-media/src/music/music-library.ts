import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  allowsFeature, CommunityMessages, isUuid, MediaMessages, MUSIC_AUDIO_TYPES, MUSIC_BUCKET, MUSIC_MAX_BYTES, musicCategoryOf, musicExtensionOf, musicTitleOf,
  type LibraryTrack, type MusicTrack, type MusicUploadTicket, type PlaybackGrant, type StartMusicUploadPayload,
} from '@lv/contracts';
import { operatorOf, requireFeature, type Caller, type RevokedSessions } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { EventStore, handleCommand, rebuildProjections, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import type { MediaLinkSigner } from '../playback/media-links.js';
import { serveObject, type PlaybackResponse } from '../playback/serve-object.js';
import { UploadInspector } from '../uploads/upload-inspector.js';
import { MUSIC_TRACK_STREAM_TYPE, musicTrackDecider, musicTrackStreamId, type MusicTrackCommand } from './music-track.decider.js';
import {
  findAddedTrackByName, findMusicTrack, listAddedTracks, markMusicObjectRemoved, musicTracksProjection, recordMusicMultipart, staleMusicUploads, toLibraryTrack,
  toMusicTrack, touchMusicUpload, unfinishedMusicRemovals, type MusicTrackRow,
} from './music-tracks.projection.js';

const HEARTBEAT_MS = 5000;
/** A removal another request is doing right now is left to it for this long before the sweeper retries it. */
const REMOVAL_GRACE_MS = 30_000;

export interface MusicLibraryDeps {
  orm: MikroORM;
  storage: ObjectStorage;
  signer: MediaLinkSigner;
  revokedSessions?: RevokedSessions;
  logger: Logger;
  uploadStaleSeconds: number;
  now?: () => number;
}

/**
 * The Parent Circle's music library (spec 02: the playlist, bucket parent-music-library). Members on
 * Pro or Legacy (and admins) list it and play a track through a short-lived link bound to them;
 * operators add tracks (music:add: the file's bytes over this service's byte listener, checked by
 * their magic bytes, counted and hashed on the way) and remove them. A fresh install has none.
 */
export class MusicLibrary {
  /** Track streams; nothing is published (no other service needs the library). */
  readonly store = new EventStore({ publish: () => null, inlineProjections: [musicTracksProjection] });
  private readonly now: () => number;

  constructor(private readonly deps: MusicLibraryDeps) {
    this.now = deps.now ?? Date.now;
  }

  private get em(): EntityManager {
    return this.deps.orm.em.fork();
  }

  /** The playlist: up to 100 tracks, title and category from each file's name (spec 9). Empty on a fresh install. */
  async tracks(caller: Caller): Promise<MusicTrack[]> {
    requireFeature(caller, allowsFeature('community'), CommunityMessages.upgrade);
    return (await listAddedTracks(this.em)).map(toMusicTrack);
  }

  /** A link (3600 s) to play one track, bound to the member and his session like a recording's. */
  async playbackLink(caller: Caller, trackId: string): Promise<PlaybackGrant> {
    const member = requireFeature(caller, allowsFeature('community'), CommunityMessages.upgrade);
    const row = await this.addedTrack(trackId);
    const link = this.deps.signer.signMusicLink(member.userId, row.id);
    return { ...link, binding: this.deps.signer.signBinding(member.userId, member.sessionId) };
  }

  /** Serves a track's signed link: 403 for an expired, altered or foreign link (or a signed-out session), 404 once removed. */
  async openPlayback(trackId: string, query: Record<string, unknown>, binding: string | undefined, rangeHeader: string | undefined, head = false): Promise<PlaybackResponse> {
    const grant = this.deps.signer.authoriseMusic(trackId, query, binding);
    if (typeof grant === 'string') throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    if (this.deps.revokedSessions && (await this.deps.revokedSessions.isRevoked(grant.sessionId))) throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    const row = await findMusicTrack(this.em, trackId.toLowerCase());
    if (!row || row.status !== 'added') throw new DomainError('NOT_FOUND', MediaMessages.fileNotFound);
    return serveObject(this.deps.storage, { bucket: MUSIC_BUCKET, objectKey: row.object_key, contentType: row.content_type, size: Number(row.size) }, rangeHeader, head);
  }

  // --- Operators -------------------------------------------------------------------------------

  /**
   * music:add, first step: the file's name gives its type (mp3, wav, m4a), category and title (or the
   * operator's --title); a name already in the library is refused before a byte is sent.
   */
  async startUpload(caller: Caller, request: StartMusicUploadPayload): Promise<MusicUploadTicket> {
    const operator = operatorOf(caller);
    const fileName = basename(request.fileName.replaceAll('\\', '/')).trim();
    const extension = musicExtensionOf(fileName);
    if (!extension) throw new DomainError('UNSUPPORTED_MEDIA', CommunityMessages.notAudioFile);
    if (request.size > MUSIC_MAX_BYTES) throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(MUSIC_MAX_BYTES));
    const trackId = randomUUID();
    const contentType = MUSIC_AUDIO_TYPES[extension];
    const command: MusicTrackCommand = {
      type: 'StartTrackUpload', trackId, fileName, title: request.title ?? musicTitleOf(fileName), category: musicCategoryOf(fileName), contentType,
      objectKey: `tracks/${trackId}.${extension}`, declaredSize: request.size, sha256: request.sha256.toLowerCase(), operatorId: operator.userId, now: this.isoNow(),
    };
    try {
      await this.execute(command, { actor: { kind: 'operator', id: operator.userId } });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw new DomainError('CONFLICT', CommunityMessages.duplicateTrack(fileName));
      throw err;
    }
    return { trackId, uploadPath: `/music-uploads/${trackId}`, contentType, maxBytes: MUSIC_MAX_BYTES };
  }

  /**
   * music:add, second step: the bytes. They pass only if they start like the announced audio (MP3's ID3
   * or frame sync, WAV's RIFF/WAVE, M4A's ftyp), up to the announced size, and must hash to the announced
   * SHA-256; only then is the track added. Whatever goes wrong, the upload is closed and its object removed.
   */
  async receiveUpload(caller: Caller, trackId: string, body: AsyncIterable<Uint8Array | string>, contentLength?: number): Promise<MusicTrack> {
    const operator = operatorOf(caller);
    if (!isUuid(trackId)) throw new DomainError('NOT_FOUND', CommunityMessages.trackNotFound);
    const row = await findMusicTrack(this.em, trackId.toLowerCase());
    if (!row) throw new DomainError('NOT_FOUND', CommunityMessages.trackNotFound);
    if (row.status !== 'uploading') throw new DomainError('UPLOAD_INCOMPLETE', 'This upload is no longer open. Add the track again.');
    try {
      if (contentLength !== undefined && contentLength > Number(row.declared_size)) throw new DomainError('UPLOAD_INCOMPLETE');
      let lastBeat = this.now();
      const inspector = new UploadInspector({ maxBytes: MUSIC_MAX_BYTES, declaredSize: Number(row.declared_size), contentType: row.content_type }, async () => {
        if (this.now() - lastBeat < HEARTBEAT_MS) return;
        lastBeat = this.now();
        await touchMusicUpload(this.em, row.id);
      });
      await this.deps.storage.upload(MUSIC_BUCKET, row.object_key, inspector.pipe(body), {
        contentType: row.content_type,
        metadata: { track: row.id },
        onMultipartStarted: (multipartId) => recordMusicMultipart(this.em, row.id, multipartId),
      });
      await this.execute({ type: 'CompleteTrackUpload', trackId: row.id, size: inspector.bytes, sha256: inspector.digest(), now: this.isoNow() }, { actor: { kind: 'operator', id: operator.userId } });
    } catch (err) {
      const reason = err instanceof DomainError ? `${err.code}: ${err.message}` : `upload failed: ${(err as Error)?.message ?? String(err)}`;
      await this.abandon(row.id, reason).catch((e: unknown) => this.deps.logger.error({ err: e, trackId: row.id }, 'could not close a failed music upload; the sweeper will'));
      if (err instanceof DomainError && err.code === 'UNSUPPORTED_MEDIA') throw new DomainError('UNSUPPORTED_MEDIA', CommunityMessages.notTheAudioFormat);
      throw err;
    }
    return toMusicTrack((await findMusicTrack(this.em, row.id))!);
  }

  /** music:list: every track in the library with where and how it is kept. */
  async library(caller: Caller): Promise<LibraryTrack[]> {
    operatorOf(caller);
    return (await listAddedTracks(this.em, 10_000)).map(toLibraryTrack);
  }

  /** music:remove <id | file name>: the track leaves the playlist at once, then its object goes (retried by the sweeper). */
  async remove(caller: Caller, track: string): Promise<{ id: string; fileName: string; removed: true }> {
    const operator = operatorOf(caller);
    const row = isUuid(track) ? await findMusicTrack(this.em, track.toLowerCase()) : await findAddedTrackByName(this.em, track);
    if (!row || row.status !== 'added') throw new DomainError('NOT_FOUND', CommunityMessages.trackNotFound);
    await this.execute({ type: 'RemoveTrack', trackId: row.id, operatorId: operator.userId, now: this.isoNow() }, { actor: { kind: 'operator', id: operator.userId } });
    await this.removeObject(row).catch((err: unknown) => this.deps.logger.warn({ err, trackId: row.id }, 'music object removal failed; the sweeper will retry'));
    return { id: row.id, fileName: row.file_name, removed: true };
  }

  /** Uploads whose process died are abandoned, and objects still to remove are removed. */
  async sweep(staleSeconds = this.deps.uploadStaleSeconds): Promise<{ abandoned: number; removed: number }> {
    let abandoned = 0;
    for (const row of await staleMusicUploads(this.em, new Date(this.now() - staleSeconds * 1000).toISOString())) {
      await this.abandon(row.id, `upload stalled: no data for ${staleSeconds} s`).then(() => abandoned++, (err: unknown) => this.deps.logger.warn({ err, trackId: row.id }, 'music sweeper: could not abandon an upload; will retry'));
    }
    let removed = 0;
    for (const row of await unfinishedMusicRemovals(this.em, new Date(this.now() - REMOVAL_GRACE_MS).toISOString())) {
      await this.removeObject(row).then(() => removed++, (err: unknown) => this.deps.logger.warn({ err, trackId: row.id }, 'music sweeper: could not remove an object; will retry'));
    }
    return { abandoned, removed };
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, [musicTracksProjection]);
  }

  private async abandon(trackId: string, reason: string): Promise<void> {
    await this.execute({ type: 'AbandonTrackUpload', trackId, reason, now: this.isoNow() }, { actor: { kind: 'system', id: 'vault-media' } });
    const row = await findMusicTrack(this.em, trackId);
    if (row?.status === 'removing') await this.removeObject(row);
  }

  private async removeObject(row: MusicTrackRow): Promise<void> {
    if (row.multipart_upload_id) await this.deps.storage.abortMultipartUpload(MUSIC_BUCKET, row.object_key, row.multipart_upload_id);
    await this.deps.storage.removeObject(MUSIC_BUCKET, row.object_key);
    await markMusicObjectRemoved(this.em, row.id);
  }

  private async addedTrack(trackId: string): Promise<MusicTrackRow> {
    const row = isUuid(trackId) ? await findMusicTrack(this.em, trackId.toLowerCase()) : null;
    if (!row || row.status !== 'added') throw new DomainError('NOT_FOUND', CommunityMessages.trackNotFound);
    return row;
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  private execute(command: MusicTrackCommand, metadata: EventMetadata) {
    return handleCommand(this.deps.orm.em, this.store, musicTrackDecider, command, { streamId: musicTrackStreamId(command.trackId), streamType: MUSIC_TRACK_STREAM_TYPE, metadata });
  }
}
