import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';

/**
 * The timeline's one table besides the event store's inbox and dead_letters (the timeline appends no
 * events of its own; it reads the other services' streams):
 * - timeline_entries: one row per entry of a vault, keyed on (source, id): two services may use the
 *   same id without touching each other's row. No words: titles are fetched at read time. A deleted
 *   item leaves a tombstone (deleted_at) so a late or redelivered "saved"/"written" cannot bring it
 *   back. Rebuildable by replaying the source streams (rpc.timeline.op.rebuild-projections).
 */
class TimelineTables20261124 extends Migration {
  override up(): void {
    this.addSql(`
      create table timeline_entries (
        source text not null,
        id uuid not null,
        owner_id uuid not null,
        type text,
        entry_type text check (entry_type in ('media', 'message')),
        file_path text,
        blob_hash text,
        size bigint,
        integrity text check (integrity in ('pending', 'verified', 'mismatch')),
        word_count integer,
        metadata jsonb not null default '{}'::jsonb,
        "timestamp" timestamptz not null,
        created_at timestamptz not null,
        deleted_at timestamptz,
        primary key (source, id),
        -- Only a tombstone may lack what a live entry shows.
        check (deleted_at is not null or (type is not null and entry_type is not null))
      )`);
    // Keyset pages of one vault: newest first, ties broken by (source, id), live rows only.
    this.addSql(`create index timeline_entries_page_idx on timeline_entries (owner_id, "timestamp" desc, source desc, id desc) where deleted_at is null`);
  }

  override down(): void {
    this.addSql('drop table if exists timeline_entries');
  }
}

export const timelineMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'timeline-tables-2026-11-24', class: TimelineTables20261124 },
]);
