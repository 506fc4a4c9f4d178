import type { MikroORM } from '@mikro-orm/postgresql';
import { MEDIA_BUCKET } from '@lv/contracts';
import type { RevokedSessions } from '@lv/platform/auth';
import type { ErasureHandler, PerStreamSealing, RebuildReport } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import { reportHash } from './hashing/report-hash.js';
import type { MediaPorts } from './media.ports.js';
import type { MediaLinkSigner } from './playback/media-links.js';
import { openPlayback, playbackLink } from './playback/owner-playback.js';
import type { PlaybackResponse } from './playback/serve-object.js';
import { deleteRecording, eraseRecording, eraseRecordingAgain, retitleRecording } from './recordings/edit-recording.js';
import { adminStorageByDay, exportList, finalMessageTitles, listRecordings, portraitMediaTitles, recordingStats, recordingTitles } from './recordings/recording-queries.js';
import { RECORDING_STREAM_TYPE, recordingStreamId } from './recordings/recording.decider.js';
import { PgRecordingStreams } from './recordings/recording-streams.js';
import { PgRecordings } from './recordings/recordings.repository.js';
import { PgMediaObjects } from './uploads/media-objects.repository.js';
import { receiveUpload } from './uploads/receive-upload.js';
import { resumableUploads } from './uploads/resumable-upload.js';
import { startUpload } from './uploads/start-upload.js';
import { reportTranscode } from './transcoding/report-transcode.js';
import { discardUpload, sweepUploads } from './uploads/upload-cleanup.js';

export interface MediaServiceDeps {
  orm: MikroORM;
  storage: ObjectStorage;
  signer: MediaLinkSigner;
  revokedSessions?: RevokedSessions;
  logger: Logger;
  maxUploadBytes: number;
  uploadStaleSeconds: number;
  /** Default: a day. */
  resumableStaleSeconds?: number;
  bucket?: string;
  now?: () => number;
}

export type { PlaybackResponse };

/**
 * vault-media's recording use cases, wired to Postgres and object storage. Each use case lives in its
 * own file (uploads/, recordings/, playback/, hashing/) and works through the ports of media.ports.ts;
 * this class only builds the repositories and hands each use case its part. Transport-free: the NATS
 * controller, the HTTP listener for bytes, the sweeper task and the tests call these directly. Every
 * read and write is scoped to the verified caller; someone else's recording is "not found", never
 * "forbidden", so ids reveal nothing.
 */
export class MediaService {
  private readonly streams: PgRecordingStreams;

  readonly startUpload;
  readonly receiveUpload;
  /** The tus protocol's HEAD, PATCH and DELETE of an upload (tus-store.ts). */
  readonly resumable;
  readonly discardUpload;
  readonly sweep;
  readonly listRecordings;
  readonly portraitMediaTitles;
  readonly finalMessageTitles;
  readonly titles;
  readonly stats;
  readonly exportList;
  readonly adminStorageByDay;
  readonly deleteEntry;
  readonly retitle;
  readonly playbackLink;
  readonly openPlayback;
  readonly reportHash;
  readonly reportTranscode;
  /** How the erasure journal's replay deletes a recording again that a restore brought back. */
  readonly erasureHandlers: ErasureHandler[];
  /** An erased account's recordings, deleted one by one as their owner would. */
  private readonly eraseForAccount: (streamId: string) => Promise<boolean>;

  constructor(private readonly deps: MediaServiceDeps) {
    this.streams = new PgRecordingStreams(deps.orm);
    const ports: MediaPorts = {
      recordings: new PgRecordings(deps.orm),
      streams: this.streams,
      objects: new PgMediaObjects(() => deps.orm.em.fork()),
      storage: deps.storage,
      signer: deps.signer,
      revokedSessions: deps.revokedSessions,
      logger: deps.logger,
      bucket: deps.bucket ?? MEDIA_BUCKET,
      maxUploadBytes: deps.maxUploadBytes,
      uploadStaleSeconds: deps.uploadStaleSeconds,
      resumableStaleSeconds: deps.resumableStaleSeconds ?? 24 * 3600,
      partSize: deps.storage.partSize,
      now: deps.now ?? Date.now,
    };
    this.startUpload = startUpload(ports);
    this.receiveUpload = receiveUpload(ports);
    this.resumable = resumableUploads(ports);
    this.discardUpload = discardUpload(ports);
    this.sweep = sweepUploads(ports);
    this.listRecordings = listRecordings(ports);
    this.portraitMediaTitles = portraitMediaTitles(ports);
    this.finalMessageTitles = finalMessageTitles(ports);
    this.titles = recordingTitles(ports);
    this.stats = recordingStats(ports);
    this.exportList = exportList(ports);
    this.adminStorageByDay = adminStorageByDay(ports);
    this.deleteEntry = deleteRecording(ports);
    this.retitle = retitleRecording(ports);
    this.playbackLink = playbackLink(ports);
    this.openPlayback = openPlayback(ports);
    this.reportHash = reportHash(ports);
    this.reportTranscode = reportTranscode(ports);
    this.erasureHandlers = [{ streamType: RECORDING_STREAM_TYPE, eraseAgain: eraseRecordingAgain(ports) }];
    this.eraseForAccount = eraseRecording(ports, 'account-erasure');
  }

  /**
   * The owner's account is erased (identity's AccountErased): each recording of his, saved or still
   * uploading, deleted as he would delete it (its key destroyed and journaled, its object removed from
   * the bucket, the sweeper retrying a removal storage refused). Only what is alive is erased, so a
   * second delivery erases nothing. How many were erased.
   */
  async eraseOwner(ownerId: string): Promise<number> {
    const rows = await this.deps.orm.em.fork().execute<{ id: string }[]>(
      `select id::text from recordings where user_id = ?
       union select recording_id::text from media_objects where user_id = ? and state in ('pending', 'uploading')
       order by 1`,
      [ownerId, ownerId],
    );
    let erased = 0;
    for (const { id } of rows) if (await this.eraseForAccount(recordingStreamId(id))) erased++;
    return erased;
  }

  /** The recordings' sealing: the erasure journal's replay destroys their keys again. */
  get sealing(): PerStreamSealing {
    return this.streams.sealing;
  }

  /** For the health check: a signed request to object storage (a wrong key shows as down too). */
  pingStorage(timeoutMs: number): Promise<void> {
    return this.deps.storage.ping(timeoutMs);
  }

  reportTokenFor(recordingId: string): string {
    return this.deps.signer.reportToken(recordingId);
  }

  transcodeTokenFor(recordingId: string): string {
    return this.deps.signer.transcodeToken(recordingId);
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return this.streams.rebuildProjections();
  }
}
