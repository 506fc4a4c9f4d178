import { Migration } from '@mikro-orm/migrations';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';
import { RecordingKeys, sealTitlesOfExistingRecordings } from './recordings/recording-sealing.js';

/**
 * vault-media's own tables besides the event store:
 * - recordings: read model of saved recordings (inline projection of recording streams; rebuildable).
 *   `unique (user_id, sha256)` is the last word on duplicates when two uploads of one recording race.
 * - timeline_entries: the timeline as it was kept here until it moved to the timeline service
 *   (dropped by DropTimelineEntries20261124).
 * - media_objects: operational state of every object this service writes (never in events: it is
 *   about bytes in flight, not facts). One row per object key (unique: no overwrite), with the
 *   multipart upload id and a heartbeat, so a sweeper can abort what a dead process left behind and
 *   remove objects that no saved recording points at.
 */
class VaultMediaTables20261201 extends Migration {
  override up(): void {
    this.addSql(`
      create table recordings (
        id uuid primary key,
        user_id uuid not null,
        type text not null check (type in ('video', 'audio')),
        title text not null,
        bucket text not null,
        object_key text not null unique,
        content_type text not null,
        size bigint not null,
        sha256 text not null,
        integrity text not null default 'pending' check (integrity in ('pending', 'verified', 'mismatch')),
        created_at timestamptz not null,
        unique (user_id, sha256)
      )`);
    this.addSql(`create index recordings_user_created_idx on recordings (user_id, created_at desc, id desc)`);
    this.addSql(`
      create table timeline_entries (
        id uuid primary key,
        user_id uuid not null,
        source text not null,
        type text not null,
        entry_type text not null check (entry_type in ('media', 'message')),
        title text,
        file_path text,
        blob_hash text,
        size bigint,
        integrity text,
        word_count integer,
        metadata jsonb not null default '{}'::jsonb,
        "timestamp" timestamptz not null,
        created_at timestamptz not null,
        deleted_at timestamptz
      )`);
    this.addSql(`create index timeline_entries_user_time_idx on timeline_entries (user_id, "timestamp" desc, id desc) where deleted_at is null`);
    this.addSql(`
      create table media_objects (
        recording_id uuid primary key,
        user_id uuid not null,
        bucket text not null,
        object_key text not null unique,
        state text not null check (state in ('pending', 'uploading', 'stored', 'removing', 'removed')),
        multipart_upload_id text,
        bytes_received bigint not null default 0,
        last_activity_at timestamptz not null default now(),
        created_at timestamptz not null default now()
      )`);
    this.addSql(`create index media_objects_sweep_idx on media_objects (state, last_activity_at) where state in ('pending', 'uploading', 'removing')`);
  }

  override down(): void {
    this.addSql('drop table if exists media_objects, timeline_entries, recordings');
  }
}

/**
 * The timeline moved to its own service (apps/timeline, database lv_timeline), which rebuilds it from
 * the letters and vault-media streams: vault-media's copy goes. Its down() restores the empty table
 * (a rollback of vault-media would need the old timeline code, which rebuilds it).
 */
class DropTimelineEntries20261124 extends Migration {
  override up(): void {
    this.addSql('drop table if exists timeline_entries');
    // Its durable consumer of letters' events goes with it: its inbox rows are dead weight.
    this.addSql(`delete from inbox where consumer = 'timeline-from-letters'`);
  }

  override down(): void {
    this.addSql(`
      create table timeline_entries (
        id uuid primary key, user_id uuid not null, source text not null, type text not null,
        entry_type text not null check (entry_type in ('media', 'message')), title text, file_path text, blob_hash text,
        size bigint, integrity text, word_count integer, metadata jsonb not null default '{}'::jsonb,
        "timestamp" timestamptz not null, created_at timestamptz not null, deleted_at timestamptz
      )`);
    this.addSql(`create index timeline_entries_user_time_idx on timeline_entries (user_id, "timestamp" desc, id desc) where deleted_at is null`);
  }
}

/**
 * Recording titles sealed per recording (issue 9), as letters seal their words:
 * - recording_keys: one AES-256 data key per recording. The title in the recording's events is sealed
 *   with it; the row is deleted with RecordingDeleted or RecordingUploadAbandoned, after which the
 *   title is unrecoverable (crypto-shredding). Its loss loses the titles: back it up like letter_keys.
 * - the titles already in the events table are sealed now, under keys made for them, and the titles
 *   of recordings already deleted or abandoned are removed from their events. The table is created
 *   at once (not queued with addSql) because the sealing below writes keys into it, in the same transaction.
 * No down(): unsealing would put every title back in the clear; dropping the keys would lose them.
 */
class SealRecordingTitles20261124 extends Migration {
  override async up(): Promise<void> {
    await this.execute(`
      create table recording_keys (
        recording_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
    await sealTitlesOfExistingRecordings(this.getEntityManager() as unknown as EntityManager, new RecordingKeys());
  }
}

/**
 * Final messages (issue 13): a recording belongs to the vault (the Record page, the timeline) or to
 * the owner's final messages (If I'm Not There). Existing rows are the vault's. The duplicate rule
 * stays per owner across both: the same recording is not saved twice.
 */
class RecordingCollections20261125 extends Migration {
  override up(): void {
    this.addSql(`alter table recordings add column collection text not null default 'vault' check (collection in ('vault', 'final-messages'))`);
    this.addSql(`create index recordings_user_collection_created_idx on recordings (user_id, collection, created_at desc, id desc)`);
  }

  override down(): void {
    this.addSql(`drop index recordings_user_collection_created_idx`);
    this.addSql(`alter table recordings drop column collection`);
  }
}

/**
 * Who I Am's photo and personal media (issue 13): images besides video and audio, two more
 * collections, and the duplicate rule per collection (the same picture may be the profile photo and
 * a personal image; the same recording is still refused twice in one collection).
 */
class WhoIAmMedia20261125 extends Migration {
  override up(): void {
    this.addSql(`alter table recordings drop constraint recordings_type_check`);
    this.addSql(`alter table recordings add constraint recordings_type_check check (type in ('video', 'audio', 'image'))`);
    this.addSql(`alter table recordings drop constraint recordings_collection_check`);
    this.addSql(`alter table recordings add constraint recordings_collection_check check (collection in ('vault', 'final-messages', 'who-i-am', 'who-i-am-photo'))`);
    this.addSql(`alter table recordings drop constraint recordings_user_id_sha256_key`);
    this.addSql(`alter table recordings add constraint recordings_user_collection_sha256_key unique (user_id, collection, sha256)`);
  }

  override down(): void {
    this.addSql(`delete from recordings where collection in ('who-i-am', 'who-i-am-photo')`);
    this.addSql(`alter table recordings drop constraint recordings_user_collection_sha256_key`);
    this.addSql(`alter table recordings add constraint recordings_user_id_sha256_key unique (user_id, sha256)`);
    this.addSql(`alter table recordings drop constraint recordings_collection_check`);
    this.addSql(`alter table recordings add constraint recordings_collection_check check (collection in ('vault', 'final-messages'))`);
    this.addSql(`alter table recordings drop constraint recordings_type_check`);
    this.addSql(`alter table recordings add constraint recordings_type_check check (type in ('video', 'audio'))`);
  }
}

/**
 * The Parent Circle's music library (bucket parent-music-library), one stream per track:
 * - music_tracks: the tracks as the playlist lists them (title and category from the file name, or
 *   the operator's title), with the bookkeeping of their bytes (multipart upload, removal). A file
 *   name is taken once among the tracks uploading or added. Rebuildable from the `music-track-*` streams.
 */
class MusicLibrary20261126 extends Migration {
  override up(): void {
    this.addSql(`
      create table music_tracks (
        id uuid primary key,
        file_name text not null,
        title text not null,
        category text not null check (category in ('motivation', 'meditation', 'voice', 'other')),
        content_type text not null,
        object_key text not null,
        declared_size bigint not null,
        size bigint,
        sha256 text not null,
        status text not null check (status in ('uploading', 'added', 'removing', 'removed')),
        multipart_upload_id text,
        added_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create unique index music_tracks_live_name_idx on music_tracks (lower(file_name)) where status in ('uploading', 'added')`);
    this.addSql(`create index music_tracks_status_idx on music_tracks (status, updated_at)`);
  }

  override down(): void {
    this.addSql('drop table if exists music_tracks');
  }
}

/**
 * The playback copy (media-transcoding) of each video and audio item: its status (null for images),
 * the rendition's and poster's keys and sizes beside the original's, and the duration.
 */
class RecordingRenditions20261207 extends Migration {
  override up(): void {
    this.addSql(`
      alter table recordings
        add column transcode_status text check (transcode_status in ('pending', 'ready', 'failed')),
        add column rendition_key text,
        add column rendition_size bigint,
        add column rendition_content_type text,
        add column poster_key text,
        add column poster_size bigint,
        add column duration_seconds double precision`);
    this.addSql(`update recordings set transcode_status = 'pending' where type in ('video', 'audio')`);
  }

  override down(): void {
    this.addSql(`alter table recordings drop column transcode_status, drop column rendition_key, drop column rendition_size, drop column rendition_content_type,
      drop column poster_key, drop column poster_size, drop column duration_seconds`);
  }
}

/**
 * Resumable uploads (tus): what a later request needs to go on where an earlier one stopped: the
 * parts already in storage (their etags; bytes_received counts their bytes), and whether the upload
 * is resumable at all (a single PUT is not: its sweep comes sooner).
 */
class ResumableUploads20261207 extends Migration {
  override up(): void {
    this.addSql(`
      alter table media_objects
        add column resumable boolean not null default false,
        add column upload_parts jsonb not null default '[]'`);
  }

  override down(): void {
    this.addSql('alter table media_objects drop column resumable, drop column upload_parts');
  }
}

export const vaultMediaMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'vault-media-tables-2026-12-01', class: VaultMediaTables20261201 },
  { name: 'vault-media-drop-timeline-2026-11-24', class: DropTimelineEntries20261124 },
  { name: 'vault-media-seal-titles-2026-11-24', class: SealRecordingTitles20261124 },
  { name: 'vault-media-recording-collections-2026-11-25', class: RecordingCollections20261125 },
  { name: 'vault-media-who-i-am-media-2026-11-25', class: WhoIAmMedia20261125 },
  { name: 'vault-media-music-library-2026-11-26', class: MusicLibrary20261126 },
  { name: 'vault-media-recording-renditions-2026-12-07', class: RecordingRenditions20261207 },
  { name: 'vault-media-resumable-uploads-2026-12-07', class: ResumableUploads20261207 },
]);
