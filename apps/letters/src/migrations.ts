import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';

/**
 * Letters' own tables besides the event store:
 * - letters: the read model of the owner's letters (list, viewer, editor), words in the clear for the
 *   owner; a row is deleted with its letter. Rebuildable from the events of letters still alive.
 * - letter_activity_days: the days an owner wrote or revised letters (dates only), for "Days Active".
 * - letter_keys: one AES-256 data key per letter. The words in the events are sealed with it; the
 *   row is deleted with the letter, after which those words are unrecoverable (crypto-shredding).
 *   This is the one table whose loss loses letters: back it up, and let its backups expire.
 */
class LettersTables20261122 extends Migration {
  override up(): void {
    this.addSql(`
      create table letters (
        id uuid primary key,
        owner_id uuid not null,
        title text not null,
        content text not null,
        preview text not null,
        word_count integer not null,
        version integer not null,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    // The list: one owner's letters, newest first, paged by (created_at, id).
    this.addSql(`create index letters_owner_created_idx on letters (owner_id, created_at desc, id desc)`);
    this.addSql(`
      create table letter_activity_days (
        owner_id uuid not null,
        day date not null,
        primary key (owner_id, day)
      )`);
    this.addSql(`
      create table letter_keys (
        letter_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists letter_keys, letter_activity_days, letters');
  }
}

/**
 * The vault home's reflection ("Thoughts & Feelings"), one per user, kept here since it moved out of
 * the browser's localStorage:
 * - reflections: the owner's current reflection, text in the clear for the owner only; a cleared
 *   reflection has no row. Rebuildable from the `reflection-{userId}` streams.
 * - reflection_keys: one AES-256 data key per user's reflection stream; the text in the events is
 *   sealed with it (as letter_keys for letters, in a table of its own so a client-chosen letter id
 *   can never take a user's key row). Back it up like letter_keys.
 */
class ReflectionTables20261123 extends Migration {
  override up(): void {
    this.addSql(`
      create table reflections (
        user_id uuid primary key,
        text text not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table reflection_keys (
        owner_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists reflection_keys, reflections');
  }
}

/**
 * The Who I Am portrait, one per user (it was a table the browser wrote straight into):
 * - portraits: the owner's current portrait (about me, traits, favourites, core values as jsonb), in
 *   the clear for the owner only. Rebuildable from the `portrait-{userId}` streams.
 * - portrait_keys: one AES-256 data key per user's portrait stream; the words in the events are
 *   sealed with it. Back it up like letter_keys.
 */
class PortraitTables20261125 extends Migration {
  override up(): void {
    this.addSql(`
      create table portraits (
        user_id uuid primary key,
        words jsonb not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`
      create table portrait_keys (
        owner_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists portrait_keys, portraits');
  }
}

/**
 * The Parent Circle's discussion and stories (community/): read models of the `community-post-*` and
 * `community-story-*` streams, rebuildable from them.
 * - community_posts: live posts (a deleted post's row goes); author_id never leaves the service.
 * - community_post_likes: who liked what, one row per member and post.
 * - community_stories: stories kept for moderation (admins read them).
 * - community_post_keys, community_story_keys: one AES-256 data key per post and per story; the words in
 *   the events are sealed with it, and a post's key is deleted with the post (crypto-shredding). Back them
 *   up like letter_keys.
 */
class CommunityTables20261126 extends Migration {
  override up(): void {
    this.addSql(`
      create table community_posts (
        id uuid primary key,
        author_id uuid not null,
        author_name text,
        content text not null,
        created_at timestamptz not null
      )`);
    this.addSql(`create index community_posts_created_idx on community_posts (created_at desc, id desc)`);
    this.addSql(`
      create table community_post_likes (
        post_id uuid not null,
        member_id uuid not null,
        liked_at timestamptz not null,
        primary key (post_id, member_id)
      )`);
    this.addSql(`
      create table community_stories (
        id uuid primary key,
        author_id uuid not null,
        author_name text,
        story text not null,
        submitted_at timestamptz not null
      )`);
    this.addSql(`create table community_post_keys (post_id uuid primary key, data_key text not null, created_at timestamptz not null default now())`);
    this.addSql(`create table community_story_keys (story_id uuid primary key, data_key text not null, created_at timestamptz not null default now())`);
  }

  override down(): void {
    this.addSql('drop table if exists community_story_keys, community_post_keys, community_stories, community_post_likes, community_posts');
  }
}

/**
 * Letters sealed until a day for one recipient (milestones):
 * - letter_milestones: one row per sealed letter (kept after its release, deleted with the letter or
 *   its seal), the recipient in the clear for the owner; `version` is the letter stream's version it
 *   reflects. Rebuildable from the `letter-{id}` streams (the recipient is sealed there with the
 *   letter's key, so a deleted letter's recipient is gone with its words).
 * Its partial index finds what the due check must act on: sealed letters by day, released ones whose
 * key is not recorded.
 */
class MilestoneTables20261126 extends Migration {
  override up(): void {
    this.addSql(`
      create table letter_milestones (
        letter_id uuid primary key,
        owner_id uuid not null,
        release_id uuid not null,
        until text not null,
        time_zone text not null,
        due_at timestamptz not null,
        recipient_name text not null,
        recipient_email text not null,
        shared_by text not null,
        status text not null,
        released_at timestamptz,
        key_id uuid,
        version integer not null
      )`);
    this.addSql(`create index letter_milestones_work_idx on letter_milestones (due_at) where status = 'sealed' or key_id is null`);
  }

  override down(): void {
    this.addSql('drop table if exists letter_milestones');
  }
}

export const lettersMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'letters-tables-2026-11-22', class: LettersTables20261122 },
  { name: 'letters-reflections-2026-11-23', class: ReflectionTables20261123 },
  { name: 'letters-portraits-2026-11-25', class: PortraitTables20261125 },
  { name: 'letters-community-2026-11-26', class: CommunityTables20261126 },
  { name: 'letters-milestones-2026-11-26', class: MilestoneTables20261126 },
]);
