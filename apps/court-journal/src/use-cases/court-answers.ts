import type { Readable } from 'node:stream';
import { CourtMessages, isUuid } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { EventMetadata } from '@lv/platform/event-store';

/** Where the gateway serves what this service's HTTP listener answers (same-origin paths for the SPA). */
export const COURT_PATHS = { uploads: '/api/court/uploads', files: '/api/court/files', bundle: '/api/court/evidence/bundle' } as const;

/** What a file or bundle read answers: headers and the bytes. */
export interface ByteResponse {
  headers: Record<string, string>;
  body: Readable;
}

export const notFound = () => new DomainError('NOT_FOUND', CourtMessages.notFound);
export const linkInvalid = () => new DomainError('FORBIDDEN', CourtMessages.linkInvalid);

/** A malformed id names no document: not found, like any id that is not the caller's. */
export function documentId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/** An owner's own action, as the events it appends record it. */
export function ownerAction(ownerId: string, correlationId: string | undefined): EventMetadata {
  return { actor: { kind: 'user', id: ownerId }, correlationId };
}
