import { randomUUID } from 'node:crypto';
import type { CourtCategory } from '@lv/contracts';
import type { CourtDocumentRow } from '../../src/documents/court-documents.projection.js';
import type { CourtDocumentsReadModel } from '../../src/documents/court-documents.repository.js';

/** The documents read model in memory, for unit specs of the use cases: same contract as the Postgres one. */
export class InMemoryCourtDocuments implements CourtDocumentsReadModel {
  private readonly rows = new Map<string, CourtDocumentRow>();

  /** Files a document for `ownerId` (a PDF of the journal unless told otherwise) and answers its row. */
  add(ownerId: string, fields: Partial<Omit<CourtDocumentRow, 'owner_id'>> = {}): CourtDocumentRow {
    const id = fields.id ?? randomUUID();
    const uploaded = fields.upload_date ?? '2026-11-22T10:00:00.000Z';
    const row: CourtDocumentRow = {
      id, owner_id: ownerId, title: 'Receipts, March', description: 'Handed over on the 14th.', category: 'Receipts or Payment Records', variant: 'journal',
      file_name: 'receipts.pdf', file_kind: 'pdf', content_type: 'application/pdf', bucket: 'courtjournals', object_key: `${ownerId}/${id}/receipts.pdf`,
      size: '1234', sha256: 'a'.repeat(64), is_key_evidence: false, upload_date: uploaded, created_at: uploaded, ...fields,
    };
    this.rows.set(id, row);
    return row;
  }

  remove(id: string): void {
    this.rows.delete(id);
  }

  async find(ownerId: string, documentId: string): Promise<CourtDocumentRow | null> {
    const row = this.rows.get(documentId);
    return row && row.owner_id === ownerId ? row : null;
  }

  async list(ownerId: string, category?: CourtCategory): Promise<CourtDocumentRow[]> {
    const time = (row: CourtDocumentRow) => new Date(row.upload_date).getTime();
    return [...this.rows.values()]
      .filter((row) => row.owner_id === ownerId && (!category || row.category === category))
      .sort((a, b) => time(b) - time(a) || (a.id < b.id ? 1 : -1));
  }

  async activeDays(ownerId: string): Promise<string[]> {
    const days = (await this.list(ownerId)).map((row) => new Date(row.upload_date).toISOString().slice(0, 10));
    return [...new Set(days)].sort();
  }

  async titles(ownerId: string, ids: readonly string[], shown: 'title' | 'file_name'): Promise<Record<string, string>> {
    const found = await Promise.all(ids.map((id) => this.find(ownerId, id)));
    return Object.fromEntries(found.flatMap((row) => (row ? [[row.id, shown === 'file_name' ? row.file_name : row.title]] : [])));
  }
}
