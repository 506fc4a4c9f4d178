import { COURT_FILE_KINDS, type CourtCategory, type CourtDocument, type CourtFileKind, type CourtVariant } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { OpenedCourtDocumentEvent } from './court-document-sealing.js';
import { upcastCourtDocumentEvent } from './court-document.upcast.js';


/**
 * court_documents: one row per live document, kept in step with the document streams inside each
 * append. Only CourtDocumentUploaded creates a row, appended once the object is complete in storage:
 * no row points at a missing object. Words arrive opened (court-document-sealing.ts); a rebuild finds
 * a deleted document's words shredded and gives it no row. Every row's category is a Court Journal card.
 */
export const courtDocumentsProjection = projectionFor<OpenedCourtDocumentEvent>({
  name: 'court_documents',
  handles: ['CourtDocumentUploaded', 'CourtDocumentKeyEvidenceChanged', 'CourtDocumentDeleted'],

  async apply(em, events) {
    // Old categories are read as their cards (court-document.upcast.ts): a rebuild maps every old document.
    for (const event of events.map(upcastCourtDocumentEvent)) {
      switch (event.type) {
        case 'CourtDocumentUploaded': {
          const d = event.data;
          if (d.title === null || d.fileName === null || d.objectKey === null) break;
          await em.execute(
            `insert into court_documents (id, owner_id, title, description, category, variant, file_name, file_kind, content_type, bucket, object_key, size, sha256, upload_date, created_at)
             values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
            [d.documentId, d.ownerId, d.title, d.description, d.category, d.variant, d.fileName, d.fileKind, d.contentType, d.bucket, d.objectKey, d.size, d.sha256, d.uploadedAt, d.uploadedAt],
          );
          break;
        }
        case 'CourtDocumentKeyEvidenceChanged':
          await em.execute('update court_documents set is_key_evidence = ? where id = ?', [event.data.isKeyEvidence, event.data.documentId]);
          break;
        case 'CourtDocumentDeleted':
          await em.execute('delete from court_documents where id = ?', [event.data.documentId]);
          break;
        default:
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from court_documents');
  },
});

export interface CourtDocumentRow {
  id: string;
  owner_id: string;
  title: string;
  description: string | null;
  category: CourtCategory;
  variant: CourtVariant;
  file_name: string;
  file_kind: CourtFileKind;
  content_type: string;
  bucket: string;
  object_key: string;
  size: string | number;
  sha256: string;
  is_key_evidence: boolean;
  upload_date: Date | string;
  created_at: Date | string;
}

/**
 * A document as a family viewer sees it: the file's name stands in for the title and there is no
 * description. What the owner wrote about a court matter is his notes for the court, not the family's.
 */
export function toViewerCourtDocument(row: CourtDocumentRow): CourtDocument {
  return { ...toCourtDocument(row), title: row.file_name, description: null };
}

export function toCourtDocument(row: CourtDocumentRow): CourtDocument {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    variant: row.variant,
    file_name: row.file_name,
    file_kind: row.file_kind,
    file_type: COURT_FILE_KINDS[row.file_kind].contentType,
    file_path: row.object_key,
    size: Number(row.size),
    sha256: row.sha256,
    previewable: COURT_FILE_KINDS[row.file_kind].previewable,
    is_key_evidence: row.is_key_evidence,
    upload_date: new Date(row.upload_date).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}
