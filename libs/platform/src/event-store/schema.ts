import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '../database/index.js';

/**
 * The event store's tables, the same in every service's database:
 * - events: the append-only log. `unique (stream_id, version)` is the optimistic-concurrency guard;
 *   `global_position` orders the whole store for projections and rebuilds (gaps are normal).
 * - outbox: events waiting to leave for JetStream, written in the same transaction as the events.
 * - inbox: events from other services already handled by a consumer (idempotency).
 * - projection_checkpoints: how far each asynchronous projection has read.
 * - dead_letters: events a consumer failed to handle repeatedly, kept for an operator.
 */
export class EventStoreSchema20261122 extends Migration {
  override name = 'event-store-schema-2026-11-22';

  override up(): void {
    this.addSql(`
      create table if not exists events (
        global_position bigserial primary key,
        event_id uuid not null unique,
        stream_id text not null,
        stream_type text not null,
        version integer not null check (version > 0),
        type text not null,
        data jsonb not null,
        metadata jsonb not null default '{}'::jsonb,
        occurred_at timestamptz not null default now(),
        unique (stream_id, version)
      )`);
    this.addSql(`create index if not exists events_stream_type_idx on events (stream_type, global_position)`);
    this.addSql(`
      create table if not exists outbox (
        id bigserial primary key,
        event_id uuid not null unique,
        subject text not null,
        payload jsonb not null,
        created_at timestamptz not null default now(),
        attempts integer not null default 0,
        last_error text
      )`);
    this.addSql(`
      create table if not exists inbox (
        consumer text not null,
        event_id uuid not null,
        subject text not null,
        handled_at timestamptz not null default now(),
        primary key (consumer, event_id)
      )`);
    this.addSql(`
      create table if not exists projection_checkpoints (
        name text primary key,
        position bigint not null default 0,
        rebuilt_at timestamptz
      )`);
    this.addSql(`
      create table if not exists dead_letters (
        id bigserial primary key,
        consumer text not null,
        subject text not null,
        stream_seq bigint,
        payload jsonb not null,
        error text not null,
        parked_at timestamptz not null default now()
      )`);
    // Wakes the outbox relay as soon as a transaction with new rows commits.
    this.addSql(`
      create or replace function notify_outbox() returns trigger language plpgsql as $$
      begin perform pg_notify('outbox', ''); return null; end $$`);
    this.addSql(`drop trigger if exists outbox_notify on outbox`);
    this.addSql(`create trigger outbox_notify after insert on outbox for each statement execute function notify_outbox()`);
  }

  override down(): void {
    this.addSql('drop table if exists dead_letters, projection_checkpoints, inbox, outbox, events');
    this.addSql('drop function if exists notify_outbox');
  }
}

/**
 * erasure_journal: one row per stream whose key was destroyed (a letter, a recording deleted), ids and
 * times only, written in the deletion's transaction. `journaled_at` is set once the row is copied into
 * the erasure journal outside the snapshots (erasure-journal.ts), which a restore replays.
 */
export class ErasureJournalSchema20261207 extends Migration {
  override name = 'erasure-journal-2026-12-07';

  override up(): void {
    this.addSql(`
      create table if not exists erasure_journal (
        erasure_id uuid primary key default gen_random_uuid(),
        stream_type text not null,
        stream_id text not null,
        key_id text not null,
        erased_at timestamptz not null default now(),
        journaled_at timestamptz
      )`);
    this.addSql(`create index if not exists erasure_journal_pending_idx on erasure_journal (erased_at) where journaled_at is null`);
  }

  override down(): void {
    this.addSql('drop table if exists erasure_journal');
  }
}

const PLATFORM_MIGRATIONS: ServiceMigration[] = [
  { name: 'event-store-schema-2026-11-22', class: EventStoreSchema20261122 },
  { name: 'erasure-journal-2026-12-07', class: ErasureJournalSchema20261207 },
];

/** Every service's migrations start with the event store's tables (given twice, they are taken once). */
export function withEventStoreSchema(migrations: ServiceMigration[]): ServiceMigration[] {
  const platform = new Set(PLATFORM_MIGRATIONS.map((m) => m.name));
  return [...PLATFORM_MIGRATIONS, ...migrations.filter((m) => !platform.has(m.name))];
}
