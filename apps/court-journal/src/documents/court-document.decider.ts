import { CourtMessages, type CourtCategory, type CourtFileKind, type CourtVariant, type LegacyCourtCategory } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/**
 * A court document's stream: `court-document-{id}`. A document exists once its bytes are complete in
 * storage (CourtDocumentUploaded: the upload ticket and the bytes in flight are bookkeeping outside
 * the stream), can be marked or unmarked as key evidence, and deleted by its owner. Reads no clock:
 * times come with the commands.
 */
export interface CourtDocumentUploadedData {
  documentId: string;
  ownerId: string;
  title: string;
  description: string | null;
  /** A card; an event stored before the one category model holds an old category (read it through upcastCourtDocumentEvent). */
  category: CourtCategory | LegacyCourtCategory;
  variant: CourtVariant;
  fileName: string;
  fileKind: CourtFileKind;
  contentType: string;
  bucket: string;
  objectKey: string;
  size: number;
  sha256: string;
  uploadedAt: string;
}

export type CourtDocumentEvent =
  | { type: 'CourtDocumentUploaded'; data: CourtDocumentUploadedData }
  | { type: 'CourtDocumentKeyEvidenceChanged'; data: { documentId: string; ownerId: string; isKeyEvidence: boolean; changedAt: string } }
  | { type: 'CourtDocumentDeleted'; data: { documentId: string; ownerId: string; sha256: string; deletedAt: string } };

export type CourtDocumentCommand =
  | ({ type: 'RecordUpload' } & CourtDocumentUploadedData)
  | { type: 'SetKeyEvidence'; documentId: string; ownerId: string; isKeyEvidence: boolean; now: string }
  | { type: 'DeleteDocument'; documentId: string; ownerId: string; now: string };

export interface CourtDocumentState {
  status: 'new' | 'active' | 'deleted';
  ownerId: string | null;
  sha256: string | null;
  isKeyEvidence: boolean;
}

export const COURT_DOCUMENT_STREAM_TYPE = 'court-document';
export const courtDocumentStreamId = (documentId: string) => `court-document-${documentId}`;
export const documentIdOfStream = (streamId: string) => streamId.slice('court-document-'.length);

const notFound = () => new DomainError('NOT_FOUND', CourtMessages.notFound);

export const courtDocumentDecider: Decider<CourtDocumentState, CourtDocumentCommand, CourtDocumentEvent> = {
  initialState: () => ({ status: 'new', ownerId: null, sha256: null, isKeyEvidence: false }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordUpload': {
        if (state.status !== 'new') throw new DomainError('CONFLICT', 'This document was already stored.');
        const { type: _type, ...data } = command;
        return [{ type: 'CourtDocumentUploaded', data }];
      }
      case 'SetKeyEvidence':
        // Someone else's document, or one that does not exist (any more): the same answer.
        if (state.status !== 'active' || state.ownerId !== command.ownerId) throw notFound();
        // Asking for what already is changes nothing (and adds nothing to the evidence chain).
        if (state.isKeyEvidence === command.isKeyEvidence) return [];
        return [{ type: 'CourtDocumentKeyEvidenceChanged', data: { documentId: command.documentId, ownerId: command.ownerId, isKeyEvidence: command.isKeyEvidence, changedAt: command.now } }];
      case 'DeleteDocument':
        if (state.status !== 'active' || state.ownerId !== command.ownerId) throw notFound();
        return [{ type: 'CourtDocumentDeleted', data: { documentId: command.documentId, ownerId: command.ownerId, sha256: state.sha256!, deletedAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CourtDocumentUploaded':
        return { status: 'active', ownerId: event.data.ownerId, sha256: event.data.sha256, isKeyEvidence: false };
      case 'CourtDocumentKeyEvidenceChanged':
        return { ...state, isKeyEvidence: event.data.isKeyEvidence };
      case 'CourtDocumentDeleted':
        return { ...state, status: 'deleted' };
    }
  },
};
