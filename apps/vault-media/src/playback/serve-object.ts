import { Readable } from 'node:stream';
import { MediaMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { ObjectStorage } from '@lv/platform/storage';
import { parseRange } from './range.js';

/** What a playback read answers: status, headers and (unless HEAD or an error) the bytes. */
export interface PlaybackResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body: Readable | null;
}

/** A stored object to play: where it is, its type and its size. */
export interface PlayableObject {
  bucket: string;
  objectKey: string;
  contentType: string;
  size: number;
}

/** Reads `length` bytes from `start` (the whole thing when length is undefined). */
type ReadBytes = (start: number, length: number | undefined) => Promise<Readable>;

/**
 * Serves bytes a signed link was checked for: 206 for a Range, 416 past the end, 200 otherwise,
 * never cached, never sniffed.
 */
async function serve(size: number, contentType: string, rangeHeader: string | undefined, head: boolean, read: ReadBytes): Promise<PlaybackResponse> {
  const base: Record<string, string> = {
    'content-type': contentType,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline',
  };
  const range = parseRange(rangeHeader, size);
  if (range.kind === 'unsatisfiable') return { status: 416, headers: { ...base, 'content-range': `bytes */${size}` }, body: null };
  if (range.kind === 'partial') {
    const length = range.end - range.start + 1;
    const headers = { ...base, 'content-range': `bytes ${range.start}-${range.end}/${size}`, 'content-length': String(length) };
    return { status: 206, headers, body: head ? null : await read(range.start, length) };
  }
  return { status: 200, headers: { ...base, 'content-length': String(size) }, body: head ? null : await read(0, undefined) };
}

/** Storage's "no such object" as the person's words: NOT_FOUND ("File Not Found"). */
export function missingAsNotFound(err: unknown): never {
  const code = (err as { code?: string })?.code;
  if (code === 'NoSuchKey' || code === 'NotFound') throw new DomainError('NOT_FOUND', MediaMessages.fileNotFound);
  throw err;
}

/** Serves a stored object; NOT_FOUND ("File Not Found") when storage no longer has it. */
export function serveObject(storage: Pick<ObjectStorage, 'getObject' | 'getRange'>, object: PlayableObject, rangeHeader: string | undefined, head: boolean): Promise<PlaybackResponse> {
  return serve(object.size, object.contentType, rangeHeader, head, (start, length) =>
    length === undefined ? storage.getObject(object.bucket, object.objectKey) : storage.getRange(object.bucket, object.objectKey, start, length),
  ).catch(missingAsNotFound);
}

/** Serves bytes made for this response (a picture without its metadata), with the same Range rules. */
export function serveBytes(bytes: Buffer, contentType: string, rangeHeader: string | undefined, head: boolean): Promise<PlaybackResponse> {
  return serve(bytes.length, contentType, rangeHeader, head, (start, length) => Promise.resolve(Readable.from([bytes.subarray(start, length === undefined ? undefined : start + length)])));
}
