// vault-media's ports in memory, for the use cases' unit specs: the same interfaces as the Postgres
// repositories and object storage, with the rules the database enforces (unique keys, the read
// model kept by the recording events, all-or-nothing commands) kept here too.
import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type { MediaCollection, RecordingEvent, StartUploadRequest, SubscriptionTier } from '@lv/contracts';
import type { UserCaller } from '@lv/platform/auth';
import type { EventMetadata } from '@lv/platform/event-store';
import { createLogger } from '@lv/platform/logging';
import { createPartBuffers, type UploadOptions, type UploadResult } from '@lv/platform/storage';
import type { MediaPorts, MediaStorage } from '../../src/media.ports.js';
import { MediaLinkSigner } from '../../src/playback/media-links.js';
import { AlreadyTaken, type RecordingOutcome, type RecordingStreams } from '../../src/recordings/recording-streams.js';
import { recordingDecider, type RecordingCommand, type RecordingState } from '../../src/recordings/recording.decider.js';
import type { ExportCursor, RecordingRow, Recordings, StoredDay } from '../../src/recordings/recordings.repository.js';
import type { MediaObjectRow, MediaObjects } from '../../src/uploads/media-objects.repository.js';

/** Where an item stands in time: when it was saved, then its id (the read model's order). */
const positionOf = (row: Pick<RecordingRow, 'created_at' | 'id'>) => `${new Date(row.created_at).toISOString()}|${row.id}`;
const oldestFirst = (a: RecordingRow, b: RecordingRow) => positionOf(a).localeCompare(positionOf(b));
const newestFirst = (a: RecordingRow, b: RecordingRow) => oldestFirst(b, a);

export class InMemoryRecordings implements Recordings {
  rows = new Map<string, RecordingRow>();

  /** What recordings.projection.ts does with a recording's events (a duplicate is refused as the unique key does). */
  project(event: RecordingEvent): void {
    const row = this.rows.get(event.data.recordingId);
    switch (event.type) {
      case 'RecordingSaved': {
        const d = event.data;
        const collection = d.collection ?? 'vault';
        if ([...this.rows.values()].some((r) => r.user_id === d.ownerId && r.collection === collection && r.sha256 === d.sha256)) throw new AlreadyTaken();
        this.rows.set(d.recordingId, {
          id: d.recordingId, user_id: d.ownerId, type: d.type, title: d.title, bucket: d.bucket, object_key: d.objectKey, content_type: d.contentType, size: String(d.size),
          sha256: d.sha256, integrity: 'pending', collection, created_at: d.savedAt,
          transcode_status: d.type === 'image' ? null : 'pending', rendition_key: null, rendition_size: null, rendition_content_type: null, poster_key: null, poster_size: null, duration_seconds: null,
        });
        break;
      }
      case 'RecordingHashVerified':
        if (row) this.rows.set(row.id, { ...row, integrity: 'verified' });
        break;
      case 'RecordingHashMismatch':
        if (row) this.rows.set(row.id, { ...row, integrity: 'mismatch' });
        break;
      case 'RecordingTranscoded': {
        const d = event.data;
        if (row) {
          this.rows.set(row.id, {
            ...row, transcode_status: 'ready', rendition_key: d.renditionKey, rendition_size: String(d.renditionSize), rendition_content_type: d.renditionContentType,
            poster_key: d.posterKey, poster_size: d.posterSize === null ? null : String(d.posterSize), duration_seconds: d.durationSeconds,
          });
        }
        break;
      }
      case 'RecordingTranscodeFailed':
        if (row) this.rows.set(row.id, { ...row, transcode_status: 'failed' });
        break;
      case 'RecordingRetitled':
        if (row) this.rows.set(row.id, { ...row, title: event.data.title });
        break;
      case 'RecordingDeleted':
        this.rows.delete(event.data.recordingId);
        break;
      default:
        break;
    }
  }

  private of(userId: string, collections: readonly MediaCollection[]): RecordingRow[] {
    return [...this.rows.values()].filter((r) => r.user_id === userId && collections.includes(r.collection));
  }

  async find(recordingId: string) {
    return this.rows.get(recordingId) ?? null;
  }

  async findByHash(userId: string, collection: MediaCollection, sha256: string) {
    return this.of(userId, [collection]).find((r) => r.sha256 === sha256) ?? null;
  }

  async listCollections(userId: string, collections: readonly MediaCollection[], limit: number) {
    return this.of(userId, collections).sort(newestFirst).slice(0, limit);
  }

  async list(userId: string, limit: number, collection: MediaCollection) {
    return this.listCollections(userId, [collection], limit);
  }

  async stats(userId: string) {
    const vault = this.of(userId, ['vault']);
    return { count: vault.length, days: [...new Set(vault.map((r) => new Date(r.created_at).toISOString().slice(0, 10)))].sort() };
  }

  async titles(userId: string, ids: readonly string[]) {
    return this.of(userId, ['vault']).filter((r) => ids.includes(r.id))
      .map((r) => ({ id: r.id, title: r.title, transcode_status: r.transcode_status, poster: r.poster_key !== null, duration_seconds: r.duration_seconds }));
  }

  async listForExport(userId: string, after: ExportCursor | null, limit: number) {
    const all = [...this.rows.values()].filter((r) => r.user_id === userId).sort(oldestFirst);
    const position = after ? positionOf({ created_at: after.createdAt, id: after.id }) : null;
    return all.filter((r) => position === null || positionOf(r) > position).slice(0, limit);
  }

  async storageByDay(): Promise<StoredDay[]> {
    const days = new Map<string, StoredDay>();
    for (const r of this.rows.values()) {
      const day = new Date(r.created_at).toISOString().slice(0, 10);
      const sum = days.get(day) ?? { day, bytes: 0, items: 0 };
      days.set(day, { day, bytes: sum.bytes + Number(r.size), items: sum.items + 1 });
    }
    return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  }
}

interface ObjectEntry extends MediaObjectRow {
  lastActivityAt: number;
  bytesReceived: number;
  resumable?: boolean;
  parts?: { part: number; etag: string }[];
}

export class InMemoryMediaObjects implements MediaObjects {
  rows = new Map<string, ObjectEntry>();

  constructor(private readonly now: () => number) {}

  private touch(recordingId: string, change: Partial<ObjectEntry>, when: (row: ObjectEntry) => boolean = () => true): void {
    const row = this.rows.get(recordingId);
    if (row && when(row)) this.rows.set(recordingId, { ...row, ...change, lastActivityAt: this.now() });
  }

  async insertPending(row: { recordingId: string; userId: string; bucket: string; objectKey: string }) {
    if (this.rows.has(row.recordingId) || [...this.rows.values()].some((r) => r.object_key === row.objectKey)) throw new AlreadyTaken();
    this.rows.set(row.recordingId, {
      recording_id: row.recordingId, user_id: row.userId, bucket: row.bucket, object_key: row.objectKey, state: 'pending', multipart_upload_id: null, lastActivityAt: this.now(), bytesReceived: 0,
    });
  }

  async claimForUpload(recordingId: string) {
    if (this.rows.get(recordingId)?.state !== 'pending') return false;
    this.touch(recordingId, { state: 'uploading' });
    return true;
  }

  async claimForResumable(recordingId: string) {
    const row = this.rows.get(recordingId);
    if (!row || !(row.state === 'pending' || (row.state === 'uploading' && row.resumable))) return false;
    this.touch(recordingId, { state: 'uploading', resumable: true });
    return true;
  }

  async resumableProgress(recordingId: string) {
    const row = this.rows.get(recordingId);
    if (!row) return null;
    return { state: row.state, resumable: row.resumable ?? false, multipartUploadId: row.multipart_upload_id, bytesReceived: row.bytesReceived, parts: [...(row.parts ?? [])] };
  }

  async recordPart(recordingId: string, fromBytes: number, progress: { bytesReceived: number; parts: { part: number; etag: string }[] }) {
    const row = this.rows.get(recordingId);
    if (!row || row.state !== 'uploading' || row.bytesReceived !== fromBytes) return false;
    this.touch(recordingId, { bytesReceived: progress.bytesReceived, parts: [...progress.parts] });
    return true;
  }

  async heartbeat(recordingId: string, bytesReceived: number) {
    this.touch(recordingId, { bytesReceived });
  }

  async recordMultipartUpload(recordingId: string, multipartUploadId: string) {
    this.touch(recordingId, { multipart_upload_id: multipartUploadId });
  }

  async markStored(recordingId: string, bytesReceived: number) {
    this.touch(recordingId, { state: 'stored', bytesReceived });
  }

  async markRemoving(recordingId: string, options: { onlyOpenUpload?: boolean } = {}) {
    this.touch(recordingId, { state: 'removing' }, (row) => !options.onlyOpenUpload || row.state === 'pending' || row.state === 'uploading');
  }

  async markRemoved(recordingId: string) {
    this.touch(recordingId, { state: 'removed' }, (row) => row.state === 'removing');
  }

  async find(recordingId: string) {
    return this.rows.get(recordingId) ?? null;
  }

  async claimStaleUploads(before: string, resumableBefore: string) {
    const open = (row: ObjectEntry) => row.state === 'pending' || row.state === 'uploading';
    return [...this.claim((row) => open(row) && !row.resumable, before), ...this.claim((row) => open(row) && !!row.resumable, resumableBefore)];
  }

  async claimUnfinishedRemovals(before: string) {
    return this.claim((row) => row.state === 'removing', before);
  }

  private claim(matches: (row: ObjectEntry) => boolean, before: string): MediaObjectRow[] {
    const claimed = [...this.rows.values()].filter((row) => matches(row) && row.lastActivityAt < Date.parse(before)).sort((a, b) => a.lastActivityAt - b.lastActivityAt).slice(0, 50);
    for (const row of claimed) this.touch(row.recording_id, {});
    return claimed;
  }
}

/** Recording streams in memory: decided with the real decider, projected into `recordings`, and all-or-nothing with `objects`. */
export class InMemoryRecordingStreams implements RecordingStreams {
  readonly events = new Map<string, RecordingEvent[]>();
  readonly metadata: EventMetadata[] = [];

  constructor(private readonly recordings: InMemoryRecordings, private readonly objects: InMemoryMediaObjects) {}

  async load(recordingId: string): Promise<RecordingState> {
    return (this.events.get(recordingId) ?? []).reduce(recordingDecider.evolve, recordingDecider.initialState());
  }

  async execute(recordingId: string, command: RecordingCommand, metadata: EventMetadata, withObjects?: (objects: MediaObjects) => Promise<void>): Promise<RecordingOutcome> {
    const events = recordingDecider.decide(command, await this.load(recordingId));
    const before = { rows: new Map(this.recordings.rows), objects: new Map(this.objects.rows) };
    try {
      for (const event of events) this.recordings.project(event);
      await withObjects?.(this.objects);
    } catch (err) {
      this.recordings.rows = before.rows;
      this.objects.rows = before.objects;
      throw err;
    }
    this.events.set(recordingId, [...(this.events.get(recordingId) ?? []), ...events]);
    this.metadata.push(metadata);
    return { state: await this.load(recordingId), events };
  }

  /** The event types of one stream, in order. */
  typesOf(recordingId: string): string[] {
    return (this.events.get(recordingId) ?? []).map((e) => e.type);
  }
}

const noSuchKey = () => Object.assign(new Error('The specified key does not exist.'), { code: 'NoSuchKey' });

export class InMemoryStorage implements MediaStorage {
  readonly objects = new Map<string, Buffer>();
  readonly abortedMultiparts: string[] = [];
  /** Set to make removals fail, as when storage is down. */
  failRemovals = false;
  /** Set to hold an upload after its last byte, as a slow storage completing the object would. */
  holdCompletion?: () => Promise<void>;
  private multiparts = 0;

  async upload(bucket: string, key: string, source: Readable | AsyncIterable<Uint8Array>, options: UploadOptions = {}): Promise<UploadResult> {
    const multipartId = `multipart-${++this.multiparts}`;
    await options.onMultipartStarted?.(multipartId);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of source) chunks.push(Buffer.from(chunk));
    } catch (err) {
      this.abortedMultiparts.push(multipartId);
      throw err;
    }
    await this.holdCompletion?.();
    const body = Buffer.concat(chunks);
    this.objects.set(`${bucket}/${key}`, body);
    return { etag: 'etag', size: body.length, parts: 1 };
  }

  async removeObject(bucket: string, key: string) {
    if (this.failRemovals) throw new Error('storage is down');
    this.objects.delete(`${bucket}/${key}`);
  }

  async abortMultipartUpload(_bucket: string, _key: string, uploadId: string) {
    this.abortedMultiparts.push(uploadId);
    this.openMultiparts.delete(uploadId);
  }

  async getObject(bucket: string, key: string) {
    const body = this.objects.get(`${bucket}/${key}`);
    if (!body) throw noSuchKey();
    return Readable.from([body]);
  }

  async getRange(bucket: string, key: string, offset: number, length?: number) {
    const body = this.objects.get(`${bucket}/${key}`);
    if (!body) throw noSuchKey();
    return Readable.from([body.subarray(offset, length === undefined ? undefined : offset + length)]);
  }

  has(bucket: string, key: string): boolean {
    return this.objects.has(`${bucket}/${key}`);
  }

  async readObject(bucket: string, key: string, onPiece: (piece: Buffer) => void) {
    const body = this.objects.get(`${bucket}/${key}`);
    if (!body) throw noSuchKey();
    onPiece(body);
    return { size: body.length };
  }

  /** Multipart uploads of resumable uploads: their parts, until completed into an object. */
  readonly openMultiparts = new Map<string, Map<number, Buffer>>();

  /** The process's part buffers, as the real storage shares them (reused: a writer that gives one back too soon stores wrong bytes). */
  readonly partBuffers = createPartBuffers(8 * 1024 * 1024);

  async startMultipart() {
    const id = `multipart-${++this.multiparts}`;
    this.openMultiparts.set(id, new Map());
    return id;
  }

  async uploadPart(_bucket: string, _key: string, uploadId: string, part: number, data: Buffer) {
    const parts = this.openMultiparts.get(uploadId);
    if (!parts) throw Object.assign(new Error('no such upload'), { code: 'NoSuchUpload' });
    // Read a turn later, as a network upload does: a writer that reuses the buffer too soon stores wrong bytes.
    await new Promise((resolve) => setImmediate(resolve));
    parts.set(part, Buffer.from(data));
    return { part, etag: `etag-${part}` };
  }

  async completeMultipart(bucket: string, key: string, uploadId: string, parts: readonly { part: number; etag: string }[]) {
    const stored = this.openMultiparts.get(uploadId);
    if (!stored) throw Object.assign(new Error('no such upload'), { code: 'NoSuchUpload' });
    this.objects.set(`${bucket}/${key}`, Buffer.concat(parts.map((p) => stored.get(p.part)!)));
    this.openMultiparts.delete(uploadId);
  }
}

/** Log lines written during a spec, parsed. */
export type LogLines = { level: number; msg: string; [field: string]: unknown }[];

export interface MediaWorld {
  ports: MediaPorts;
  recordings: InMemoryRecordings;
  objects: InMemoryMediaObjects;
  streams: InMemoryRecordingStreams;
  storage: InMemoryStorage;
  revoked: Set<string>;
  logs: LogLines;
  /** Moves the clock on. */
  advance(ms: number): void;
}

/** A fresh vault-media in memory, its clock at 2026-12-01 10:00 UTC. */
export function mediaWorld(limits: { maxUploadBytes?: number; uploadStaleSeconds?: number; partSize?: number } = {}): MediaWorld {
  let clock = Date.parse('2026-12-01T10:00:00.000Z');
  const now = () => clock;
  const recordings = new InMemoryRecordings();
  const objects = new InMemoryMediaObjects(now);
  const streams = new InMemoryRecordingStreams(recordings, objects);
  const storage = new InMemoryStorage();
  const revoked = new Set<string>();
  const logs: LogLines = [];
  const destination = new Writable({
    write(line: Buffer, _encoding, done) {
      const entry: LogLines[number] = JSON.parse(line.toString());
      logs.push(entry);
      done();
    },
  });
  const ports: MediaPorts = {
    recordings, streams, objects, storage,
    signer: new MediaLinkSigner('unit-spec-media-link-secret-0123456789', 3600, now),
    revokedSessions: { isRevoked: async (sessionId) => revoked.has(sessionId) },
    logger: createLogger('vault-media-unit', 'debug', {}, destination),
    bucket: 'vaultmedia',
    maxUploadBytes: limits.maxUploadBytes ?? 1024 * 1024,
    uploadStaleSeconds: limits.uploadStaleSeconds ?? 60,
    resumableStaleSeconds: 24 * 3600,
    partSize: limits.partSize ?? 8 * 1024 * 1024,
    now,
  };
  return { ports, recordings, objects, streams, storage, revoked, logs, advance: (ms) => void (clock += ms) };
}

export function member(userId: string, tier: SubscriptionTier = 'pro'): UserCaller {
  return { kind: 'user', userId, sessionId: `session-of-${userId}`, email: `${userId.slice(0, 8)}@example.com`, tier, isAdmin: false, emailVerified: true, provedAt: Date.now() };
}

/** A WebM-looking body (the EBML magic, then filler unique to `seed`) and what the browser announces for it. */
export function webm(seed: string, size = 64): { body: Buffer; sha256: string; size: number } {
  const body = Buffer.alloc(size, seed);
  body.set([0x1a, 0x45, 0xdf, 0xa3], 0);
  return { body, sha256: createHash('sha256').update(body).digest('hex'), size };
}

/** A PNG-looking file (its signature, then filler unique to `seed`) and what the browser announces for it. */
export function png(seed: string, size = 32): { body: Buffer; sha256: string; size: number } {
  const body = Buffer.alloc(size, seed);
  body.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return { body, sha256: createHash('sha256').update(body).digest('hex'), size };
}

export function uploadRequest(file: { sha256: string; size: number }, fields: Partial<StartUploadRequest> = {}): StartUploadRequest {
  return { type: 'video', title: 'For Sam', sha256: file.sha256, size: file.size, ...fields };
}

/** The body as the HTTP listener hands it over: chunks of bytes. */
export async function* bodyOf(body: Buffer): AsyncIterable<Uint8Array> {
  yield body.subarray(0, 8);
  yield body.subarray(8);
}
