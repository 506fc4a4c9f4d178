import { createHash, type Hash } from 'node:crypto';
import { isUuid, MediaMessages, type Recording } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { MIN_PART_SIZE, type UploadedPart } from '@lv/platform/storage';
import { userActor, type MediaPorts } from '../media.ports.js';
import { AlreadyTaken } from '../recordings/recording-streams.js';
import { requireOpenUpload } from '../recordings/recording.decider.js';
import { toRecording } from '../recordings/recordings.repository.js';
import { matchesFormat } from './media-formats.js';
import type { ResumableProgress } from './media-objects.repository.js';
import { discardUpload } from './upload-cleanup.js';
import { notTheFormat } from './upload-inspector.js';

type ResumablePorts = Pick<MediaPorts, 'recordings' | 'streams' | 'objects' | 'storage' | 'logger' | 'maxUploadBytes' | 'partSize' | 'now'>;

/** Where an upload stands for its owner: how many bytes the server holds of how many, and the recording once saved. */
export interface ResumableStatus {
  size: number;
  offset: number;
  recording?: Recording;
}

/**
 * The running SHA-256 of each upload this process is receiving, and how many bytes it covers (the
 * bytes stored). Bounded: the oldest is dropped past the limit (its upload then hashes by reading back).
 */
type LiveHashes = Map<string, { hash: Hash; bytes: number }>;
const LIVE_HASHES_MAX = 10_000;

/** The first bytes a format's signature needs (the longest, WebP's and WAV's, ends at byte 12). */
const HEAD_BYTES = 64;

/**
 * Uploads that survive a dropped connection (the tus protocol's HEAD, PATCH and DELETE, see
 * tus-store.ts): the body comes in pieces over many requests, each going on from the last byte the
 * server holds. What the single PUT (receive-upload.ts) promises holds here too:
 *
 * - only the owner of an open upload may add to it; the format is checked on the first bytes before
 *   anything is stored, the size against what the upload announced;
 * - memory stays at one part per request: bytes go to storage as parts of a multipart upload;
 * - the SHA-256 is computed on the way, over the parts as they are stored, and kept in this process
 *   between requests (Node's hash state cannot be saved). A request that finds none for where the
 *   upload stands (another replica took the earlier ones, or the process restarted) goes on without,
 *   and the completed object is read back once to hash it: correct always, fast in the usual case;
 * - what the server holds is whole parts only: a request cut short keeps the bytes it can store as a
 *   part (at least MIN_PART_SIZE) and the client sends the rest again; nothing is stored twice;
 * - RecordingSaved is appended only when the object is complete and its hash is the one announced.
 */
export function resumableUploads(ports: ResumablePorts) {
  const discard = discardUpload(ports);
  const liveHashes: LiveHashes = new Map();

  async function openUploadOf(caller: Caller, uploadId: string) {
    if (!isUuid(uploadId)) throw new DomainError('NOT_FOUND', MediaMessages.notFound);
    const ownerId = ownerOf(caller).userId;
    const state = await ports.streams.load(uploadId);
    return { ownerId, state };
  }

  async function status(caller: Caller, uploadId: string): Promise<ResumableStatus> {
    const { ownerId, state } = await openUploadOf(caller, uploadId);
    if (state.status === 'saved' && state.ownerId === ownerId) {
      const row = await ports.recordings.find(uploadId);
      if (row) return { size: state.declaredSize!, offset: state.declaredSize!, recording: toRecording(row) };
    }
    requireOpenUpload(state, ownerId);
    const progress = await ports.objects.resumableProgress(uploadId);
    // A single PUT that is sending this upload right now: it holds nothing a resume could go on from.
    return { size: state.declaredSize!, offset: progress?.resumable ? progress.bytesReceived : 0 };
  }

  /**
   * Adds `body` to the upload from `offset` (which must be where the server stands). Resolves to the
   * new offset, and the recording when this request completed it.
   */
  async function append(caller: Caller, uploadId: string, offset: number, body: AsyncIterable<Uint8Array | string>, correlationId?: string): Promise<ResumableStatus> {
    const { ownerId, state } = await openUploadOf(caller, uploadId);
    requireOpenUpload(state, ownerId);
    if (!(await ports.objects.claimForResumable(uploadId))) throw new DomainError('CONFLICT', MediaMessages.uploadInProgress);
    const progress = await ports.objects.resumableProgress(uploadId);
    if (!progress || progress.bytesReceived !== offset) throw new DomainError('CONFLICT', MediaMessages.uploadInProgress);
    const size = state.declaredSize!;
    const writer = PartWriter.resume(ports, liveHashes, uploadId, state.bucket!, state.objectKey!, state.contentType!, ownerId, progress);

    try {
      let cut = false;
      const source = body[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<Uint8Array | string>;
        try {
          next = await source.next();
        } catch {
          // The client went away mid-request: what came so far is kept (whole parts), the rest it sends again.
          cut = true;
          break;
        }
        if (next.done) break;
        const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        if (writer.offset + writer.buffered + chunk.length > size) throw new DomainError('UPLOAD_INCOMPLETE');
        await writer.add(chunk);
      }
      if (!cut && writer.offset + writer.buffered === size) {
        const sha256 = await writer.complete();
        try {
          await ports.streams.execute(uploadId, { type: 'CompleteUpload', recordingId: uploadId, ownerId, size, sha256, now: new Date(ports.now()).toISOString() },
            { actor: userActor(ownerId), correlationId }, (objects) => objects.markStored(uploadId, size));
        } catch (err) {
          if (err instanceof AlreadyTaken) throw new DomainError('DUPLICATE_MEDIA', MediaMessages.duplicate);
          throw err;
        }
        const row = await ports.recordings.find(uploadId);
        if (!row) throw new Error(`recording ${uploadId} saved but not in the read model`);
        return { size, offset: size, recording: toRecording(row) };
      }
      await writer.keepWhatCanBeStored();
      return { size, offset: writer.offset };
    } catch (err) {
      // Another request of the same upload moved it on (a second replica): that one goes on; this one stops.
      if (err instanceof DomainError && err.code === 'CONFLICT') throw err;
      const reason = err instanceof DomainError ? `${err.code}: ${err.message}` : `upload failed: ${(err as Error)?.message ?? String(err)}`;
      // A refused body (format, size, hash) ends the upload; storage or database trouble does not: the client tries again.
      if (err instanceof DomainError) {
        liveHashes.delete(uploadId);
        await discard(uploadId, reason, { objectMayExist: true }).catch((e: unknown) => ports.logger.error({ err: e, recordingId: uploadId }, 'could not close a refused upload; the sweeper will'));
      }
      throw err;
    } finally {
      await writer.release();
    }
  }


  /** The owner gives the upload up (tus termination): it is closed and what reached storage removed. */
  async function cancel(caller: Caller, uploadId: string): Promise<void> {
    const { ownerId, state } = await openUploadOf(caller, uploadId);
    requireOpenUpload(state, ownerId);
    liveHashes.delete(uploadId);
    await discard(uploadId, 'the owner cancelled the upload', { objectMayExist: true });
  }

  return { status, append, cancel };
}

export type ResumableUploads = ReturnType<typeof resumableUploads>;

/**
 * One request's bytes on their way to storage: a buffer of one part, sent as a part when full while
 * the next part fills a second buffer (so the client's bytes keep coming during storage's answer);
 * parts are stored one after the other, the parts list saved after each, compare-and-set on the offset.
 */
class PartWriter {
  private part: Buffer | undefined;
  /** The other buffer: the part being sent to storage while `part` fills (free again once it is stored). */
  private sendingBuffer: Buffer | undefined;
  private filled = 0;
  /** The part on its way to storage, and its size. */
  private sending: Promise<void> | null = null;
  private sendingBytes = 0;

  private constructor(
    private readonly ports: ResumablePorts,
    private readonly liveHashes: LiveHashes,
    private readonly uploadId: string,
    private readonly bucket: string,
    private readonly key: string,
    private readonly contentType: string,
    private readonly ownerId: string,
    private multipartId: string | null,
    private readonly parts: UploadedPart[],
    /** Null when this process has no hash of the bytes stored so far: the object is read back at the end. */
    private readonly hasher: Hash | null,
    /** Bytes in storage (whole parts). */
    public offset: number,
  ) {}

  static resume(ports: ResumablePorts, liveHashes: LiveHashes, uploadId: string, bucket: string, key: string, contentType: string, ownerId: string, progress: ResumableProgress): PartWriter {
    const live = liveHashes.get(uploadId);
    const hasher = progress.bytesReceived === 0 ? createHash('sha256') : live && live.bytes === progress.bytesReceived ? live.hash : null;
    return new PartWriter(ports, liveHashes, uploadId, bucket, key, contentType, ownerId, progress.multipartUploadId, [...progress.parts], hasher, progress.bytesReceived);
  }

  /** Bytes received and not yet stored (buffered, or on their way to storage). */
  get buffered(): number {
    return this.filled + this.sendingBytes;
  }

  async add(chunk: Uint8Array): Promise<void> {
    const partSize = this.ports.partSize;
    for (let from = 0; from < chunk.length; ) {
      const buffer = (this.part ??= this.takeBuffer());
      const take = Math.min(chunk.length - from, partSize - this.filled);
      buffer.set(chunk.subarray(from, from + take), this.filled);
      this.filled += take;
      from += take;
      if (this.filled === partSize) await this.send();
    }
  }

  /** After a request that ended early: the bytes buffered become a part if storage takes one that small. */
  async keepWhatCanBeStored(): Promise<void> {
    await this.settle();
    if (this.filled >= MIN_PART_SIZE) {
      await this.send();
      await this.settle();
    }
  }

  /** The last part, the object completed; the SHA-256 of all of it. */
  async complete(): Promise<string> {
    await this.settle();
    if (this.filled > 0 || this.parts.length === 0) {
      await this.send();
      await this.settle();
    }
    await this.ports.storage.completeMultipart(this.bucket, this.key, this.multipartId!, this.parts);
    this.liveHashes.delete(this.uploadId);
    if (this.hasher) return this.hasher.digest('hex');
    const hash = createHash('sha256');
    await this.ports.storage.readObject(this.bucket, this.key, (piece) => hash.update(piece));
    return hash.digest('hex');
  }

  /** The buffers go back to the process's part buffers, once a part still on its way to storage (sent from one of them) is answered. */
  async release(): Promise<void> {
    await this.sending?.catch(() => undefined);
    this.ports.storage.partBuffers.giveBack([this.part, this.sendingBuffer]);
    this.part = undefined;
    this.sendingBuffer = undefined;
  }

  /** A part buffer of the process's, or one of this upload's part size where the two differ. */
  private takeBuffer(): Buffer {
    const buffer = this.ports.storage.partBuffers.take();
    return buffer.length >= this.ports.partSize ? buffer : Buffer.allocUnsafe(this.ports.partSize);
  }

  /** Sends the buffered part once the one before it is stored; the next bytes go to the other buffer meanwhile. */
  private async send(): Promise<void> {
    await this.settle();
    const data = this.part!.subarray(0, this.filled);
    // The buffer of the part stored before is free: the next bytes go there while this one is sent.
    const free = this.sendingBuffer;
    this.sendingBuffer = this.part;
    this.part = free;
    this.filled = 0;
    this.sendingBytes = data.length;
    this.sending = this.store(data);
    // Observed by settle(); a request that fails meanwhile must not leave it unhandled.
    this.sending.catch(() => undefined);
  }

  /** Waits for the part on its way to storage: its failure is this request's. */
  private async settle(): Promise<void> {
    const sending = this.sending;
    this.sending = null;
    try {
      await sending;
    } finally {
      this.sendingBytes = 0;
    }
  }

  private async store(data: Buffer): Promise<void> {
    if (this.offset === 0 && matchesFormat(this.contentType, data.subarray(0, HEAD_BYTES), true) !== true) throw notTheFormat(this.contentType);
    if (!this.multipartId) {
      this.multipartId = await this.ports.storage.startMultipart(this.bucket, this.key, { contentType: this.contentType, metadata: { owner: this.ownerId, recording: this.uploadId } });
      await this.ports.objects.recordMultipartUpload(this.uploadId, this.multipartId);
    }
    const stored = await this.ports.storage.uploadPart(this.bucket, this.key, this.multipartId, this.parts.length + 1, data);
    this.hasher?.update(data);
    const from = this.offset;
    this.parts.push(stored);
    // Stored: its bytes count in the offset now, no longer as on their way.
    this.offset += data.length;
    this.sendingBytes = 0;
    if (!(await this.ports.objects.recordPart(this.uploadId, from, { bytesReceived: this.offset, parts: this.parts }))) {
      throw new DomainError('CONFLICT', MediaMessages.uploadInProgress);
    }
    if (this.hasher) {
      this.liveHashes.delete(this.uploadId);
      this.liveHashes.set(this.uploadId, { hash: this.hasher, bytes: this.offset });
      if (this.liveHashes.size > LIVE_HASHES_MAX) this.liveHashes.delete(this.liveHashes.keys().next().value!);
    }
  }
}
