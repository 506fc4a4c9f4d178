import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  acceptedContentTypes, canUseFeature, extensionOf, FINAL_MESSAGES_MAX, isMediaCollection, isStoredMediaType, isUuid, MEDIA_BUCKET, MEDIA_CONTENT_TYPES, mediaObjectKey, MediaMessages, RECORDINGS_LIST_LIMIT, SHA256_HEX, validateRecordingTitle,
  type DeleteEntryReply, type GatedFeature, type MediaCollection, type MediaType, type StoredMediaType, type PlaybackGrant, type Recording, type ReportHashPayload, type ReportHashReply,
  type StartUploadRequest, type UploadTicket, type VaultStatsContribution,
  EXPORT_LIST_PAGE, type ExportList, type StorageByDay, type TitlesReply,
} from '@lv/contracts';
import { ownerOf, vaultOwnerId, type AccountCaller, type Caller, type RevokedSessions } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { aggregateStream, EventStore, handleCommand, PerStreamSealing, rebuildProjections, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import type { ObjectStorage } from '@lv/platform/storage';
import type { MediaLinkSigner } from './playback/media-links.js';
import { serveObject, type PlaybackResponse } from './playback/serve-object.js';
import { vaultMediaPublishPolicy } from './recordings/publish-policy.js';
import { RecordingKeys, recordingSealing } from './recordings/recording-sealing.js';
import { RECORDING_STREAM_TYPE, recordingDecider, recordingStreamId, type RecordingCommand, type RecordingState } from './recordings/recording.decider.js';
import { findRecording, findRecordingByHash, listCollections, listForExport, listRecordings, recordingStats, storageByDay, recordingsProjection, toRecording, type RecordingRow, findRecordingTitles } from './recordings/recordings.projection.js';
import { MediaObjects, type MediaObjectRow } from './uploads/media-objects.repository.js';
import { UploadInspector } from './uploads/upload-inspector.js';

/** The body's content types the upload endpoint takes (the recording's own type is what is stored). */
export const UPLOAD_CONTENT_TYPES = ['video/webm', 'audio/webm', 'application/octet-stream'];
/**
 * Heartbeat of a running upload: the sweeper leaves an upload alone while this keeps moving. It beats
 * at least four times per MEDIA_UPLOAD_STALE_SECONDS, so a live upload is never taken for a dead one.
 */
const HEARTBEAT_MS = 5000;
const NO_LONGER_OPEN = 'This upload is no longer open. Please save the recording again.';
/** A removal another request is doing right now is left to it for this long before the sweeper retries it. */
const REMOVAL_GRACE_MS = 30_000;

export interface MediaServiceDeps {
  orm: MikroORM;
  storage: ObjectStorage;
  signer: MediaLinkSigner;
  revokedSessions?: RevokedSessions;
  logger: Logger;
  maxUploadBytes: number;
  uploadStaleSeconds: number;
  bucket?: string;
  now?: () => number;
}

export type { PlaybackResponse };


const callerProfile = (caller: AccountCaller) => ({ subscription_tier: caller.tier, ai_admin: caller.isAdmin });

/**
 * vault-media's use cases. Transport-free: the NATS controller, the HTTP listener for bytes and the
 * tests call these directly. Every read and write is scoped to the verified caller; someone else's
 * recording is "not found", never "forbidden", so ids reveal nothing.
 */
export class MediaService {
  /** Recording streams, each title sealed under its recording's own key (shredded with the recording). */
  readonly store = new EventStore({
    publish: vaultMediaPublishPolicy,
    inlineProjections: [recordingsProjection],
    sealing: new PerStreamSealing([recordingSealing(new RecordingKeys())]),
  });
  readonly bucket: string;
  private readonly objects = new MediaObjects();
  private readonly now: () => number;

  constructor(private readonly deps: MediaServiceDeps) {
    this.bucket = deps.bucket ?? MEDIA_BUCKET;
    this.now = deps.now ?? Date.now;
  }

  get orm(): MikroORM {
    return this.deps.orm;
  }

  /** For the health check: a signed request to object storage (a wrong key shows as down too). */
  pingStorage(timeoutMs: number): Promise<void> {
    return this.deps.storage.ping(timeoutMs);
  }

  get maxUploadBytes(): number {
    return this.deps.maxUploadBytes;
  }

  private get em(): EntityManager {
    return this.deps.orm.em.fork();
  }

  private requireFeature(caller: Caller, feature: GatedFeature, message: string = MediaMessages.upgradeRequired): void {
    // A viewer reads under the owner's view session, which access-keys grants only for what the owner's plan includes.
    if (caller.kind === 'viewer') return;
    if (!canUseFeature(callerProfile(caller), feature)) throw new DomainError('UPGRADE_REQUIRED', message);
  }

  // --- Uploads ---------------------------------------------------------------------------------

  /**
   * Opens an upload: checks the title, the feature gate (audio), the size and, before a single byte
   * is sent, whether this owner already has a recording with this hash (409 "Duplicate: ...").
   */
  async startUpload(caller: Caller, request: StartUploadRequest, correlationId?: string): Promise<UploadTicket> {
    const fields: Record<string, string> = {};
    const collection = request.collection ?? 'vault';
    if (!isMediaCollection(collection)) fields.collection = 'Choose where the recording belongs.';
    const recorded = collection === 'vault' || collection === 'final-messages';
    if (!isStoredMediaType(request.type) || (recorded && request.type === 'image')) fields.type = 'Choose video or audio.';
    const { title, error } = validateRecordingTitle(request.title);
    if (error) fields.title = error;
    const sha256 = typeof request.sha256 === 'string' ? request.sha256.toLowerCase() : '';
    if (!SHA256_HEX.test(sha256)) fields.sha256 = 'A SHA-256 of the recording (64 hex digits) is required.';
    if (!Number.isSafeInteger(request.size) || request.size <= 0) fields.size = 'The recording is empty.';
    if (Object.keys(fields).length) {
      throw validationError(fields, fields.title === MediaMessages.missingInfo ? MediaMessages.missingInfo : (fields.title ?? Object.values(fields)[0]));
    }
    const type = request.type as StoredMediaType;
    // A recording is WebM of its type; a Who I Am file is one of the formats its kind takes (checked again on its first bytes).
    const contentType = recorded ? MEDIA_CONTENT_TYPES[type as MediaType] : (request.contentType ?? '').toLowerCase();
    if (!acceptedContentTypes(collection, type).includes(contentType)) {
      const message = collection === 'who-i-am-photo' ? MediaMessages.photoMustBeImage : MediaMessages.unsupportedFile;
      throw new DomainError('UNSUPPORTED_MEDIA', message);
    }
    if (collection === 'final-messages') this.requireFeature(caller, 'final-messages', MediaMessages.finalMessagesPlanRequired);
    if (type === 'audio' && recorded) this.requireFeature(caller, 'audio-uploads');
    if (request.size > this.deps.maxUploadBytes) throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(this.deps.maxUploadBytes));
    if (await findRecordingByHash(this.em, ownerOf(caller).userId, collection, sha256)) throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);

    const recordingId = randomUUID();
    // The key is the original app's ({userId}/{type}_{timestamp}.webm) and is never reused: the
    // unique key of media_objects refuses a second upload to it, so nothing is ever overwritten.
    for (let timestamp = this.now(), attempt = 0; ; timestamp++, attempt++) {
      const objectKey = mediaObjectKey(ownerOf(caller).userId, type, timestamp, extensionOf(contentType));
      try {
        await this.execute(recordingId, {
          type: 'StartUpload', recordingId, ownerId: ownerOf(caller).userId, mediaType: type, collection, title, bucket: this.bucket, objectKey, contentType,
          clientSha256: sha256, declaredSize: request.size, now: new Date(this.now()).toISOString(),
        }, { actor: { kind: 'user', id: ownerOf(caller).userId }, correlationId }, async (em) => {
          await this.objects.insertPending(em, { recordingId, userId: ownerOf(caller).userId, bucket: this.bucket, objectKey });
        });
        return { uploadId: recordingId, uploadUrl: `/api/media/uploads/${recordingId}`, objectKey, contentType, maxBytes: this.deps.maxUploadBytes };
      } catch (err) {
        if (!(err instanceof UniqueConstraintViolationException) || attempt >= 20) throw err;
      }
    }
  }

  /**
   * Streams an upload's body into object storage: header check before storage is touched, the size
   * limit counted as bytes arrive, SHA-256 computed on the way, parts of PART_SIZE so memory stays
   * flat. Only when the object is complete is RecordingSaved appended (with the recordings row and
   * the timeline entry, in one transaction): no entry ever points at a missing object. Whatever goes
   * wrong, the upload is closed and its object (or parts) removed.
   */
  async receiveUpload(caller: Caller, uploadId: string, body: AsyncIterable<Uint8Array | string>, options: { contentLength?: number; correlationId?: string } = {}): Promise<Recording> {
    if (!isUuid(uploadId)) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const state = await this.loadState(uploadId);
    if (state.status === 'new' || state.ownerId !== ownerOf(caller).userId) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    if (state.status === 'saved') throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);
    if (state.status !== 'uploading') throw new DomainError('UPLOAD_INCOMPLETE', NO_LONGER_OPEN);
    if (!(await this.objects.claimForUpload(this.em, uploadId))) throw new DomainError('CONFLICT', MediaMessages.uploadInProgress);

    const metadata: EventMetadata = { actor: { kind: 'user', id: ownerOf(caller).userId }, correlationId: options.correlationId };
    try {
      if (options.contentLength !== undefined && options.contentLength > this.deps.maxUploadBytes) {
        throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(this.deps.maxUploadBytes));
      }
      const beatEveryMs = Math.min(HEARTBEAT_MS, (this.deps.uploadStaleSeconds * 1000) / 4);
      let lastBeat = this.now();
      const inspector = new UploadInspector({ maxBytes: this.deps.maxUploadBytes, declaredSize: state.declaredSize!, contentType: state.contentType! }, async (bytes) => {
        if (this.now() - lastBeat < beatEveryMs) return;
        lastBeat = this.now();
        await this.objects.heartbeat(this.em, uploadId, bytes);
      });
      await this.deps.storage.upload(this.bucket, state.objectKey!, inspector.pipe(body), {
        contentType: state.contentType!,
        metadata: { owner: ownerOf(caller).userId, recording: uploadId },
        onMultipartStarted: async (multipartId) => {
          await this.objects.recordMultipartUpload(this.em, uploadId, multipartId);
        },
      }).catch(async (err: unknown) => {
        // The sweeper closed the upload while its body was still coming (the client had stalled past
        // MEDIA_UPLOAD_STALE_SECONDS) and aborted its multipart upload: storage refuses the rest. The
        // client was too late; the server did nothing wrong.
        if ((await this.loadState(uploadId)).status === 'abandoned') throw new DomainError('UPLOAD_INCOMPLETE', NO_LONGER_OPEN);
        throw err;
      });
      const sha256 = inspector.digest();
      try {
        await this.execute(uploadId, { type: 'CompleteUpload', recordingId: uploadId, ownerId: ownerOf(caller).userId, size: inspector.bytes, sha256, now: new Date(this.now()).toISOString() }, metadata, async (em) => {
          await this.objects.markStored(em, uploadId, inspector.bytes);
        });
      } catch (err) {
        // Two uploads of the same recording raced past the early check: the second one loses here.
        if (err instanceof UniqueConstraintViolationException) throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);
        throw err;
      }
    } catch (err) {
      const reason = err instanceof DomainError ? `${err.code}: ${err.message}` : `upload failed: ${(err as Error)?.message ?? String(err)}`;
      await this.discardUpload(uploadId, reason, { objectMayExist: true }).catch((e: unknown) => this.deps.logger.error({ err: e, recordingId: uploadId }, 'could not close a failed upload; the sweeper will'));
      throw err;
    }
    const row = await findRecording(this.em, uploadId);
    if (!row) throw new Error(`recording ${uploadId} saved but not in the read model`);
    if (row.collection === 'who-i-am-photo') await this.replacePhotos(row, options.correlationId);
    return toRecording(row);
  }

  /**
   * Closes an open upload (RecordingUploadAbandoned) and removes whatever reached storage. Only an
   * upload that was still open is touched: a recording saved in the meantime keeps its object.
   */
  async discardUpload(recordingId: string, reason: string, options: { objectMayExist?: boolean } = {}): Promise<boolean> {
    await this.execute(recordingId, { type: 'AbandonUpload', recordingId, reason, now: new Date(this.now()).toISOString() }, { actor: { kind: 'system', id: 'vault-media' } }, async (em) => {
      await this.objects.markRemoving(em, recordingId, { onlyOpenUpload: true });
    });
    const row = await this.objects.find(this.em, recordingId);
    if (row?.state === 'removing') {
      await this.removeObject(row);
      return true;
    }
    // The request that wrote the object failed after a sweeper had already closed its upload (the
    // client had stalled past MEDIA_UPLOAD_STALE_SECONDS, then finished): its late object goes too.
    if (options.objectMayExist && row && row.state === 'removed') await this.deps.storage.removeObject(row.bucket, row.object_key);
    return false;
  }

  private async removeObject(row: Pick<MediaObjectRow, 'recording_id' | 'bucket' | 'object_key' | 'multipart_upload_id'>): Promise<void> {
    if (row.multipart_upload_id) {
      await this.deps.storage.abortMultipartUpload(row.bucket, row.object_key, row.multipart_upload_id);
    }
    await this.deps.storage.removeObject(row.bucket, row.object_key);
    await this.objects.markRemoved(this.em, row.recording_id);
  }

  /**
   * Cleans up after processes that died: uploads with no progress for MEDIA_UPLOAD_STALE_SECONDS are
   * abandoned (their multipart upload aborted, any object removed), and removals that did not finish
   * are retried. Replicas may sweep at once: rows are claimed with SKIP LOCKED.
   */
  async sweep(): Promise<{ abandoned: number; removed: number }> {
    const staleBefore = new Date(this.now() - this.deps.uploadStaleSeconds * 1000).toISOString();
    const stale = await this.objects.claimStaleUploads(this.em, staleBefore);
    let abandoned = 0;
    for (const row of stale) {
      try {
        if (await this.discardUpload(row.recording_id, `upload stalled: no data for ${this.deps.uploadStaleSeconds} s (the uploading process died or the client went away)`)) abandoned++;
      } catch (err) {
        this.deps.logger.warn({ err, recordingId: row.recording_id }, 'sweeper: could not abandon a stale upload; will retry');
      }
    }
    const removals = await this.objects.claimUnfinishedRemovals(this.em, new Date(this.now() - REMOVAL_GRACE_MS).toISOString());
    let removed = 0;
    for (const row of removals) {
      try {
        await this.removeObject(row);
        removed++;
      } catch (err) {
        this.deps.logger.warn({ err, recordingId: row.recording_id, key: row.object_key }, 'sweeper: could not remove an object; will retry');
      }
    }
    if (abandoned || removed) this.deps.logger.info({ abandoned, removed }, 'sweeper cleaned up after dead uploads');
    return { abandoned, removed };
  }

  // --- Reads -----------------------------------------------------------------------------------

  async listRecordings(caller: Caller, limit = RECORDINGS_LIST_LIMIT, collection: MediaCollection = 'vault'): Promise<Recording[]> {
    const rows = await listRecordings(this.em, ownerOf(caller).userId, Math.min(Math.max(limit, 1), 100), collection);
    return rows.map(toRecording);
  }

  /**
   * The profile photo is one picture: once a new one is saved, the ones before it go (object and all).
   * Only after the new one is complete, so the owner is never left without a photo by a failed upload.
   */
  private async replacePhotos(saved: RecordingRow, correlationId?: string): Promise<void> {
    const photos = await listCollections(this.em, saved.user_id, ['who-i-am-photo'], 100);
    for (const older of photos.filter((p) => p.id !== saved.id)) {
      await this.remove(saved.user_id, older.id, correlationId).catch((err: unknown) => this.deps.logger.warn({ err, recordingId: older.id }, 'could not remove a replaced profile photo'));
    }
  }

  /**
   * The Who I Am tab's media for a viewer (a key holder of "Who I Am", or the owner): the profile
   * photo and personal media by title and time, never the files.
   */
  async portraitMediaTitles(caller: Caller): Promise<{ id: string; title: string; created_at: string }[]> {
    const rows = await listCollections(this.em, vaultOwnerId(caller), ['who-i-am-photo', 'who-i-am'], FINAL_MESSAGES_MAX);
    return rows.map((row) => ({ id: row.id, title: row.collection === 'who-i-am-photo' ? 'Profile photo' : row.title, created_at: new Date(row.created_at).toISOString() }));
  }

  /**
   * The owner's final messages by title, for the viewer's "If I'm Not There" tab (a key holder of that
   * section, or the owner): titles and times only, never the recordings themselves.
   */
  async finalMessageTitles(caller: Caller): Promise<{ id: string; title: string; created_at: string }[]> {
    const rows = await listRecordings(this.em, vaultOwnerId(caller), FINAL_MESSAGES_MAX, 'final-messages');
    return rows.map((row) => ({ id: row.id, title: row.title, created_at: new Date(row.created_at).toISOString() }));
  }

  /** "Export Vault Data": the caller's own items, every collection, EXPORT_LIST_PAGE at a time (oldest first). */
  async exportList(caller: Caller, after: string | undefined): Promise<ExportList> {
    const cursor = after ? parseExportCursor(after) : null;
    const rows = await listForExport(this.em, ownerOf(caller).userId, cursor, EXPORT_LIST_PAGE + 1);
    const page = rows.slice(0, EXPORT_LIST_PAGE);
    const last = page[page.length - 1];
    return { items: page.map(toRecording), nextCursor: rows.length > EXPORT_LIST_PAGE && last ? `${new Date(last.created_at).toISOString()}|${last.id}` : null };
  }

  /** The admin dashboard's storage chart (the guard admitted only an admin token). */
  async adminStorageByDay(): Promise<StorageByDay> {
    let total = 0;
    const days = (await storageByDay(this.em)).map((day) => ({ ...day, totalBytes: (total += day.bytes) }));
    return { days };
  }

  async stats(caller: Caller): Promise<VaultStatsContribution> {
    const { count, days } = await recordingStats(this.em, ownerOf(caller).userId);
    return { videosSaved: count, activeDays: days };
  }

  // --- Delete ----------------------------------------------------------------------------------

  /**
   * Deletes one of the caller's recordings (the timeline's delete): the recording goes, then the
   * object. The timeline service drops its entry when it reads RecordingDeleted.
   */
  async deleteEntry(caller: Caller, id: string, correlationId?: string): Promise<DeleteEntryReply> {
    const recording = await this.ownItem(caller, id);
    await this.remove(ownerOf(caller).userId, recording.id, correlationId);
    return { id: recording.id, deleted: true };
  }

  /** A new title for one of the caller's items (Who I Am's personal media: "Could not update image title" when it fails). */
  async retitle(caller: Caller, id: string, newTitle: string, correlationId?: string): Promise<Recording> {
    const { title, error } = validateRecordingTitle(newTitle);
    if (error) throw validationError({ title: error }, error);
    const recording = await this.ownItem(caller, id);
    await this.execute(recording.id, { type: 'RetitleRecording', recordingId: recording.id, ownerId: ownerOf(caller).userId, title, now: new Date(this.now()).toISOString() }, { actor: { kind: 'user', id: ownerOf(caller).userId }, correlationId });
    return toRecording((await findRecording(this.em, recording.id))!);
  }

  /** The caller's item by id; someone else's, or none, is "not found" (ids reveal nothing). */
  private async ownItem(caller: Caller, id: string): Promise<RecordingRow> {
    if (!isUuid(id)) throw validationError({ id: MediaMessages.invalidEntryId }, MediaMessages.invalidEntryId);
    const recording = await findRecording(this.em, id.toLowerCase());
    if (!recording || recording.user_id !== ownerOf(caller).userId) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    return recording;
  }

  /** RecordingDeleted, then the object (retried by the sweeper if storage is down). */
  private async remove(ownerId: string, id: string, correlationId?: string): Promise<void> {
    await this.execute(id, { type: 'DeleteRecording', recordingId: id, ownerId, now: new Date(this.now()).toISOString() }, { actor: { kind: 'user', id: ownerId }, correlationId }, async (em) => {
      await this.objects.markRemoving(em, id);
    });
    const row = await this.objects.find(this.em, id);
    if (row?.state === 'removing') {
      await this.removeObject(row).catch((err: unknown) => this.deps.logger.warn({ err, recordingId: id }, 'object removal failed after delete; the sweeper will retry'));
    }
  }


  // --- Playback --------------------------------------------------------------------------------

  /** A signed link (3600 s) for the owner's recording, and the binding that ties it to them. */
  async playbackLink(caller: Caller, recordingId: string): Promise<PlaybackGrant> {
    if (!isUuid(recordingId)) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const row = await findRecording(this.em, recordingId);
    if (!row || row.user_id !== ownerOf(caller).userId) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const link = this.deps.signer.signLink(ownerOf(caller).userId, recordingId);
    return { ...link, binding: this.deps.signer.signBinding(ownerOf(caller).userId, ownerOf(caller).sessionId) };
  }

  /**
   * Serves a signed link: 403 for an expired, altered or foreign link (or a signed-out session), 404
   * when the recording is gone, 206 for a Range, 416 for a range past the end.
   */
  async openPlayback(recordingId: string, query: Record<string, unknown>, binding: string | undefined, rangeHeader: string | undefined, head = false): Promise<PlaybackResponse> {
    const grant = this.deps.signer.authorise(recordingId, query, binding);
    if (typeof grant === 'string') throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    if (this.deps.revokedSessions && (await this.deps.revokedSessions.isRevoked(grant.sessionId))) throw new DomainError('FORBIDDEN', MediaMessages.linkInvalid);
    const row = await findRecording(this.em, recordingId);
    if (!row || row.user_id !== grant.userId) throw new DomainError('NOT_FOUND', MediaMessages.fileNotFound);
    return serveObject(this.deps.storage, { bucket: row.bucket, objectKey: row.object_key, contentType: row.content_type, size: Number(row.size) }, rangeHeader, head);
  }

  // --- Hashing ---------------------------------------------------------------------------------

  /** Records the media-hashing job's result: verified, or a mismatch the owner is told about. */
  async reportHash(payload: ReportHashPayload): Promise<ReportHashReply> {
    if (!isUuid(payload.recordingId) || !this.deps.signer.verifyReportToken(payload.recordingId, payload.reportToken)) throw new DomainError('FORBIDDEN');
    const result = await this.execute(payload.recordingId, { type: 'RecordHashResult', recordingId: payload.recordingId, sha256: payload.sha256, now: new Date(this.now()).toISOString() }, { actor: { kind: 'system', id: 'media-hashing' } });
    if (result.state.status !== 'saved') return { recordingId: payload.recordingId, integrity: 'ignored' };
    if (result.events.some((e) => e.type === 'RecordingHashMismatch')) {
      this.deps.logger.error({ recordingId: payload.recordingId, ownerId: result.state.ownerId, expected: result.state.sha256, actual: payload.sha256 }, 'stored recording does not match its hash: marked for the owner');
    }
    return { recordingId: payload.recordingId, integrity: result.state.integrity };
  }

  reportTokenFor(recordingId: string): string {
    return this.deps.signer.reportToken(recordingId);
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, [recordingsProjection]);
  }

  private async loadState(recordingId: string): Promise<RecordingState> {
    return (await aggregateStream(this.em, this.store, recordingDecider, recordingStreamId(recordingId))).state;
  }

  private execute(recordingId: string, command: RecordingCommand, metadata: EventMetadata, alsoInTransaction?: (em: EntityManager) => Promise<void>) {
    return handleCommand(this.deps.orm.em, this.store, recordingDecider, command, { streamId: recordingStreamId(recordingId), streamType: RECORDING_STREAM_TYPE, metadata, alsoInTransaction });
  }

  /** The timeline's batch lookup: titles of the caller's own recordings among `ids` (malformed, unknown and others' ids omitted). */
  async titles(caller: Caller, ids: readonly string[]): Promise<TitlesReply> {
    const wanted = [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
    return { titles: await findRecordingTitles(this.em, vaultOwnerId(caller), wanted) };
  }
}

function parseExportCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = cursor.split('|');
  if (!createdAt || !id || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) throw validationError({ after: 'Not a cursor of this list.' });
  return { createdAt, id };
}
