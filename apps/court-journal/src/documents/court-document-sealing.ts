import type { SealedText } from '@lv/contracts';
import { DataKeys, openSealedText, sealText, typedSealing, type StreamSealing } from '@lv/platform/event-store';
import { COURT_DOCUMENT_STREAM_TYPE, documentIdOfStream, type CourtDocumentEvent } from './court-document.decider.js';

/** The words a parent typed or chose in CourtDocumentUploaded: sealed in the events table. */
type Word = 'title' | 'description' | 'fileName' | 'objectKey';

/** A sealed word is bound to its document and field: copied elsewhere it fails to open. */
export const courtSealContext = (documentId: string, field: Word) => `court-document:${documentId}:${field}`;

/**
 * The per-document data keys (table court_document_keys): created with CourtDocumentUploaded,
 * destroyed with CourtDocumentDeleted in the same transaction (crypto-shredding, see DataKeys).
 */
export class CourtDocumentKeys extends DataKeys {
  constructor() {
    super({ table: 'court_document_keys', idColumn: 'document_id' });
  }
}

/** CourtDocumentUploaded read back: its words are null once the document's key is gone (it was deleted). */
export type OpenedCourtDocumentEvent =
  | Exclude<CourtDocumentEvent, { type: 'CourtDocumentUploaded' }>
  | { type: 'CourtDocumentUploaded'; data: Omit<Extract<CourtDocumentEvent, { type: 'CourtDocumentUploaded' }>['data'], Word> & { [K in Word]: string | null } };

/** CourtDocumentUploaded as the events table holds it: its words sealed (or null). */
type SealedCourtDocumentEvent =
  | Exclude<CourtDocumentEvent, { type: 'CourtDocumentUploaded' }>
  | { type: 'CourtDocumentUploaded'; data: Omit<Extract<CourtDocumentEvent, { type: 'CourtDocumentUploaded' }>['data'], Word> & { [K in Word]: SealedText | null } };

/**
 * A document's title, description, file name and object key (which holds the file name) sealed
 * under the document's own key, as letters seal their words. Deleting the document destroys the key:
 * those words are then unreadable in every past event, while the facts (category, size, hash, times)
 * stay, and the evidence chain keeps that the document existed, with its hash.
 */
export function courtDocumentSealing(keys: CourtDocumentKeys): StreamSealing {
  return typedSealing<CourtDocumentEvent, SealedCourtDocumentEvent, OpenedCourtDocumentEvent>({
    streamType: COURT_DOCUMENT_STREAM_TYPE,
    keys,
    keyIdOf: documentIdOfStream,
    keyNeed: (events) => (events.some((e) => e.type === 'CourtDocumentUploaded') ? 'new' : 'none'),
    shreds: (events) => events.some((e) => e.type === 'CourtDocumentDeleted'),
    seal(event, key, documentId) {
      if (event.type !== 'CourtDocumentUploaded') return event;
      if (key === null) throw new Error(`cannot seal court document ${documentId}`);
      const sealed = (word: Word) => {
        const value = event.data[word];
        return value === null ? null : sealText(key, value, courtSealContext(documentId, word));
      };
      return { type: event.type, data: { ...event.data, title: sealed('title'), description: sealed('description'), fileName: sealed('fileName'), objectKey: sealed('objectKey') } };
    },
    open(stored, key, documentId) {
      if (stored.type !== 'CourtDocumentUploaded') return stored;
      const opened = (word: Word) => {
        const value = stored.data[word];
        return value === null || !key ? null : openSealedText(key, value, courtSealContext(documentId, word));
      };
      return { ...stored, data: { ...stored.data, title: opened('title'), description: opened('description'), fileName: opened('fileName'), objectKey: opened('objectKey') } };
    },
  });
}
