import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { CourtCategory } from '@lv/contracts';
import type { CourtDocumentRow } from './court-documents.projection.js';

/**
 * What the use cases read of the documents read model (court_documents, kept by the projection).
 * Every read is scoped to one owner: another owner's document is absent, never an error.
 */
export interface CourtDocumentsReadModel {
  /** The owner's document, or null (someone else's is null too). */
  find(ownerId: string, documentId: string): Promise<CourtDocumentRow | null>;
  /** The owner's documents, newest first (spec: order by upload_date desc), optionally of one category. */
  list(ownerId: string, category?: CourtCategory): Promise<CourtDocumentRow[]>;
  /** The distinct UTC days (YYYY-MM-DD, ascending) the owner filed a document still in the vault. */
  activeDays(ownerId: string): Promise<string[]>;
  /** `shown` (title or file name) of the owner's documents among `ids`, by id; others' and unknown ids are absent. */
  titles(ownerId: string, ids: readonly string[], shown: 'title' | 'file_name'): Promise<Record<string, string>>;
}

const COLUMNS = `id::text as id, owner_id::text as owner_id, title, description, category, variant, file_name, file_kind, content_type, bucket, object_key,
  size::text as size, sha256, is_key_evidence, upload_date, created_at`;

/** The read model in Postgres: each read on a fresh fork, or (`in`) inside the caller's transaction. */
export class CourtDocumentsRepository implements CourtDocumentsReadModel {
  private constructor(private readonly em: () => EntityManager) {}

  static of(orm: MikroORM): CourtDocumentsRepository {
    return new CourtDocumentsRepository(() => orm.em.fork());
  }

  /** Reads that see what the transaction sees (a snapshot, or a guard run before its append). */
  static in(em: EntityManager): CourtDocumentsRepository {
    return new CourtDocumentsRepository(() => em);
  }

  async find(ownerId: string, documentId: string): Promise<CourtDocumentRow | null> {
    const [row] = await this.em().execute<CourtDocumentRow[]>(`select ${COLUMNS} from court_documents where id = ? and owner_id = ?`, [documentId, ownerId]);
    return row ?? null;
  }

  list(ownerId: string, category?: CourtCategory): Promise<CourtDocumentRow[]> {
    const filter = category ? 'and category = ?' : '';
    return this.em().execute<CourtDocumentRow[]>(
      `select ${COLUMNS} from court_documents where owner_id = ? ${filter} order by upload_date desc, id desc`,
      category ? [ownerId, category] : [ownerId],
    );
  }

  async activeDays(ownerId: string): Promise<string[]> {
    const rows = await this.em().execute<{ day: string }[]>(
      `select distinct to_char(upload_date at time zone 'UTC', 'YYYY-MM-DD') as day from court_documents where owner_id = ? order by 1`,
      [ownerId],
    );
    return rows.map((r) => r.day);
  }

  async titles(ownerId: string, ids: readonly string[], shown: 'title' | 'file_name'): Promise<Record<string, string>> {
    if (!ids.length) return {};
    const column = shown === 'file_name' ? 'file_name' : 'title';
    const rows = await this.em().execute<{ id: string; title: string }[]>(
      `select id::text as id, ${column} as title from court_documents where owner_id = ? and id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
      [ownerId, JSON.stringify(ids)],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.title]));
  }
}
