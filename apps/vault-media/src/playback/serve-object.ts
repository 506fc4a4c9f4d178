import type { Readable } from 'node:stream';
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

/**
 * Serves an object a signed link was checked for: 206 for a Range, 416 past the end, 200 otherwise,
 * never cached, never sniffed; NOT_FOUND ("File Not Found") when storage no longer has it.
 */
export async function serveObject(storage: Pick<ObjectStorage, 'getObject' | 'getRange'>, object: PlayableObject, rangeHeader: string | undefined, head: boolean): Promise<PlaybackResponse> {
  const { size } = object;
  const base: Record<string, string> = {
    'content-type': object.contentType,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline',
  };
  const range = parseRange(rangeHeader, size);
  if (range.kind === 'unsatisfiable') return { status: 416, headers: { ...base, 'content-range': `bytes */${size}` }, body: null };
  try {
    if (range.kind === 'partial') {
      const length = range.end - range.start + 1;
      const headers = { ...base, 'content-range': `bytes ${range.start}-${range.end}/${size}`, 'content-length': String(length) };
      return { status: 206, headers, body: head ? null : await storage.getRange(object.bucket, object.objectKey, range.start, length) };
    }
    return { status: 200, headers: { ...base, 'content-length': String(size) }, body: head ? null : await storage.getObject(object.bucket, object.objectKey) };
  } catch (err) {
    if ((err as { code?: string })?.code === 'NoSuchKey' || (err as { code?: string })?.code === 'NotFound') throw new DomainError('NOT_FOUND', MediaMessages.fileNotFound);
    throw err;
  }
}
