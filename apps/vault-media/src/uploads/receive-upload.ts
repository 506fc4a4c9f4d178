import { isUuid, MediaMessages, type Recording } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { EventMetadata } from '@lv/platform/event-store';
import { userActor, type MediaPorts } from '../media.ports.js';
import { removeRecording } from '../recordings/edit-recording.js';
import { AlreadyTaken } from '../recordings/recording-streams.js';
import { NO_LONGER_OPEN, putBodyOutcome } from '../recordings/recording.decider.js';
import { toRecording, type RecordingRow } from '../recordings/recordings.repository.js';
import { discardUpload } from './upload-cleanup.js';
import { UploadInspector } from './upload-inspector.js';

/**
 * Heartbeat of a running upload: the sweeper leaves an upload alone while this keeps moving. It beats
 * at least four times per MEDIA_UPLOAD_STALE_SECONDS while the client sends bytes or the server itself
 * is busy (storing a part, completing the object, recording it): a slow storage on a loaded machine is
 * never taken for a dead client. Only a client that sends nothing lets the upload go stale.
 */
const HEARTBEAT_MS = 5000;

interface ClientActivity {
  /** The server waits for the client's next bytes (nothing to do until they come). */
  waiting: boolean;
  /** Chunks received so far (a beat is due when it moved). */
  chunks: number;
}

/** The request body, noting whether the server is waiting for the client or working on what came. */
function watchClient(body: AsyncIterable<Uint8Array | string>) {
  const activity: ClientActivity = { waiting: false, chunks: 0 };
  async function* chunks() {
    const source = body[Symbol.asyncIterator]();
    try {
      for (;;) {
        activity.waiting = true;
        const next = await source.next();
        activity.waiting = false;
        if (next.done) return;
        activity.chunks += 1;
        yield next.value;
      }
    } finally {
      activity.waiting = false;
      await source.return?.();
    }
  }
  return { chunks: chunks(), activity };
}

function startHeartbeat(ports: Pick<ReceivePorts, 'objects' | 'logger' | 'uploadStaleSeconds'>, uploadId: string, bytes: () => number, activity: ClientActivity) {
  const beatEveryMs = Math.min(HEARTBEAT_MS, (ports.uploadStaleSeconds * 1000) / 4);
  let seenChunks = 0;
  let beating = false;
  const timer = setInterval(() => {
    const clientSent = activity.chunks !== seenChunks;
    if (beating || (activity.waiting && !clientSent)) return;
    seenChunks = activity.chunks;
    beating = true;
    ports.objects.heartbeat(uploadId, bytes())
      .catch((err: unknown) => ports.logger.warn({ err, recordingId: uploadId }, 'upload heartbeat failed; the next one retries'))
      .finally(() => (beating = false));
  }, beatEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

type ReceivePorts = Pick<MediaPorts, 'recordings' | 'streams' | 'objects' | 'storage' | 'logger' | 'bucket' | 'maxUploadBytes' | 'uploadStaleSeconds' | 'now'>;

/**
 * Streams an upload's body into object storage: header check before storage is touched, the size
 * limit counted as bytes arrive, SHA-256 computed on the way, parts of PART_SIZE so memory stays
 * flat. Only when the object is complete is RecordingSaved appended (with the recordings row and
 * the timeline entry, in one transaction): no entry ever points at a missing object. Whatever goes
 * wrong, the upload is closed and its object (or parts) removed.
 */
export function receiveUpload(ports: ReceivePorts) {
  const discard = discardUpload(ports);
  const replacePhotos = replaceOlderPhotos(ports);
  return async (caller: Caller, uploadId: string, body: AsyncIterable<Uint8Array | string>, options: { contentLength?: number; correlationId?: string } = {}): Promise<Recording> => {
    if (!isUuid(uploadId)) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const ownerId = ownerOf(caller).userId;
    const state = await ports.streams.load(uploadId);
    if (putBodyOutcome(state, ownerId) === 'answer-saved') return answerSaved(ports, uploadId, body);
    if (!(await ports.objects.claimForUpload(uploadId))) throw new DomainError('CONFLICT', MediaMessages.uploadInProgress);

    const metadata: EventMetadata = { actor: userActor(ownerId), correlationId: options.correlationId };
    let heartbeat: { stop(): void } | undefined;
    try {
      if (options.contentLength !== undefined && options.contentLength > ports.maxUploadBytes) {
        throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(ports.maxUploadBytes));
      }
      const inspector = new UploadInspector({ maxBytes: ports.maxUploadBytes, declaredSize: state.declaredSize!, contentType: state.contentType! });
      const body$ = watchClient(body);
      heartbeat = startHeartbeat(ports, uploadId, () => inspector.bytes, body$.activity);
      await ports.storage.upload(ports.bucket, state.objectKey!, inspector.pipe(body$.chunks), {
        contentType: state.contentType!,
        metadata: { owner: ownerId, recording: uploadId },
        onMultipartStarted: (multipartId) => ports.objects.recordMultipartUpload(uploadId, multipartId),
      }).catch(async (err: unknown) => {
        // The sweeper closed the upload while its body was still coming (the client had stalled past
        // MEDIA_UPLOAD_STALE_SECONDS) and aborted its multipart upload: storage refuses the rest. The
        // client was too late; the server did nothing wrong.
        if ((await ports.streams.load(uploadId)).status === 'abandoned') throw new DomainError('UPLOAD_INCOMPLETE', NO_LONGER_OPEN);
        throw err;
      });
      const sha256 = inspector.digest();
      try {
        await ports.streams.execute(uploadId, { type: 'CompleteUpload', recordingId: uploadId, ownerId, size: inspector.bytes, sha256, now: new Date(ports.now()).toISOString() }, metadata,
          (objects) => objects.markStored(uploadId, inspector.bytes));
      } catch (err) {
        // Two uploads of the same recording raced past the early check: the second one loses here.
        if (err instanceof AlreadyTaken) throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);
        throw err;
      }
    } catch (err) {
      heartbeat?.stop();
      const reason = err instanceof DomainError ? `${err.code}: ${err.message}` : `upload failed: ${(err as Error)?.message ?? String(err)}`;
      await discard(uploadId, reason, { objectMayExist: true }).catch((e: unknown) => ports.logger.error({ err: e, recordingId: uploadId }, 'could not close a failed upload; the sweeper will'));
      throw err;
    } finally {
      heartbeat?.stop();
    }
    const row = await ports.recordings.find(uploadId);
    if (!row) throw new Error(`recording ${uploadId} saved but not in the read model`);
    if (row.collection === 'who-i-am-photo') await replacePhotos(row, options.correlationId);
    return toRecording(row);
  };
}

/**
 * The same PUT sent again after it saved the recording (its answer was lost): the body is read to its
 * end and dropped (the client is sending it; cutting it off would lose the answer again), and the
 * saved recording answered as the first PUT answered it.
 */
async function answerSaved(ports: Pick<ReceivePorts, 'recordings' | 'maxUploadBytes'>, uploadId: string, body: AsyncIterable<Uint8Array | string>): Promise<Recording> {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > ports.maxUploadBytes) throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(ports.maxUploadBytes));
  }
  const row = await ports.recordings.find(uploadId);
  if (!row) throw new Error(`recording ${uploadId} saved but not in the read model`);
  return toRecording(row);
}

/**
 * The profile photo is one picture: once a new one is saved, the ones before it go (object and all).
 * Only after the new one is complete, so the owner is never left without a photo by a failed upload.
 */
function replaceOlderPhotos(ports: ReceivePorts) {
  const remove = removeRecording(ports);
  return async (saved: RecordingRow, correlationId?: string): Promise<void> => {
    const photos = await ports.recordings.listCollections(saved.user_id, ['who-i-am-photo'], 100);
    for (const older of photos.filter((p) => p.id !== saved.id)) {
      await remove(saved.user_id, older.id, correlationId).catch((err: unknown) => ports.logger.warn({ err, recordingId: older.id }, 'could not remove a replaced profile photo'));
    }
  };
}
