import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';
import { COURT_FILE_KINDS, courtCategoryOf, LEGACY_COURT_CATEGORIES, type CourtFileKind } from '@lv/contracts';

/**
 * court-journal's own tables besides the event store (document streams `court-document-{id}` and
 * evidence chains `evidence-{ownerId}` live in `events`):
 * - court_documents: read model of live documents (inline projection; rebuildable). Holds the words
 *   in the clear for the owner's screens, like letters and recordings; gone with the document.
 * - court_document_keys: one AES-256 data key per document; the words in its events are sealed
 *   with it and it is deleted with CourtDocumentDeleted (crypto-shredding). Back it up with the database.
 * - court_uploads: upload tickets (bookkeeping, not facts): the form's words until the bytes arrive,
 *   bound to the owner, expiring; the multipart id lets the sweeper abort what a dead process left.
 * - court_removals: objects to remove (a deleted document's, a failed upload's), written in the
 *   transaction that decided it, so a removal that fails (or a process that dies) is retried.
 */
class CourtJournalTables20261125 extends Migration {
  override up(): void {
    this.addSql(`
      create table court_documents (
        id uuid primary key,
        owner_id uuid not null,
        title text not null,
        description text,
        category text not null,
        variant text not null check (variant in ('documents', 'journal')),
        file_name text not null,
        file_kind text not null,
        content_type text not null,
        bucket text not null,
        object_key text not null unique,
        size bigint not null,
        sha256 text not null,
        is_key_evidence boolean not null default false,
        upload_date timestamptz not null,
        created_at timestamptz not null
      )`);
    this.addSql(`create index court_documents_owner_date_idx on court_documents (owner_id, upload_date desc, id desc)`);
    this.addSql(`
      create table court_document_keys (
        document_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table court_uploads (
        id uuid primary key,
        owner_id uuid not null,
        title text not null,
        description text,
        category text not null,
        file_name text not null,
        declared_size bigint not null,
        state text not null check (state in ('pending', 'uploading')),
        object_key text,
        multipart_upload_id text,
        expires_at timestamptz not null,
        last_activity_at timestamptz not null default now()
      )`);
    this.addSql(`create index court_uploads_sweep_idx on court_uploads (expires_at)`);
    this.addSql(`
      create table court_removals (
        object_key text primary key,
        bucket text not null,
        multipart_upload_id text,
        reason text not null,
        created_at timestamptz not null default now()
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists court_removals, court_uploads, court_document_keys, court_documents');
  }
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The one category model (issue 35): every document is counted on one of the Court Journal's six
 * cards. The events keep what was filed (they are immutable; court-document.upcast.ts reads an old
 * category as its card, so a rebuild gives the same rows); this maps the read model's rows filed
 * under the upload form's old categories to their cards, by the same table (courtCategoryOf), and
 * gives upload tickets the screen they came from (before, the category told it).
 */
export function mapOldCourtCategoriesSql(): string {
  const pairs = LEGACY_COURT_CATEGORIES.flatMap((old) =>
    (Object.keys(COURT_FILE_KINDS) as CourtFileKind[]).map((kind) => `(${literal(old)}, ${literal(kind)}, ${literal(courtCategoryOf(old, kind)!)})`),
  );
  return `update court_documents d set category = m.card
            from (values ${pairs.join(', ')}) as m(old, kind, card)
           where d.category = m.old and d.file_kind = m.kind`;
}

class CourtOneCategoryModel20261206 extends Migration {
  override up(): void {
    this.addSql(mapOldCourtCategoriesSql());
    this.addSql(`alter table court_uploads add column variant text`);
    this.addSql(`update court_uploads set variant = case when category in (${LEGACY_COURT_CATEGORIES.map(literal).join(', ')}) then 'documents' else 'journal' end`);
    this.addSql(`alter table court_uploads alter column variant set not null, add constraint court_uploads_variant_check check (variant in ('documents', 'journal'))`);
  }

  override down(): void {
    // The old categories cannot be told back from the cards; a rebuild from the events would still map them.
    this.addSql('alter table court_uploads drop column if exists variant');
  }
}

export const courtJournalMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'court-journal-tables-2026-11-25', class: CourtJournalTables20261125 },
  { name: 'court-journal-one-category-model-2026-12-06', class: CourtOneCategoryModel20261206 },
]);
