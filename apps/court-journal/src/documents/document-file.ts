import type { Readable } from 'node:stream';
import { COURT_FILE_KINDS, CourtMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { ObjectStorage } from '@lv/platform/storage';
import type { CourtDocumentRow } from './court-documents.projection.js';

/** RFC 5987 `filename*` value: UTF-8, percent-encoded (quotes and parentheses too). */
export function encodedFileName(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A stored document's bytes with the headers every reader gets (the owner's links and a viewer's
 * alike): the kind's type found in the bytes at upload (never what a browser claimed), nosniff, never
 * cached, and for a preview a policy under which nothing in the file may run script or reach out.
 * NOT_FOUND when storage no longer has the object.
 */
export async function openDocumentFile(storage: Pick<ObjectStorage, 'getObject'>, row: CourtDocumentRow, disposition: 'inline' | 'attachment'): Promise<{ headers: Record<string, string>; body: Readable }> {
  const headers: Record<string, string> = {
    'content-type': COURT_FILE_KINDS[row.file_kind].contentType,
    'content-length': String(Number(row.size)),
    'content-disposition': `${disposition}; filename*=UTF-8''${encodedFileName(row.file_name)}`,
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
  if (disposition === 'inline') headers['content-security-policy'] = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";
  try {
    return { headers, body: await storage.getObject(row.bucket, row.object_key) };
  } catch (err) {
    const code = (err as { code?: string })?.code;
    if (code === 'NoSuchKey' || code === 'NotFound') throw new DomainError('NOT_FOUND', CourtMessages.notFound);
    throw err;
  }
}
