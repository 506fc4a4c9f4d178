import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';

/**
 * access-keys' read models (all rebuildable from its event store) and the one table that is not:
 * - access_requests: each owner's requests with the requester's details in the clear for the owner.
 * - access_keys: each issued key, kept only as the SHA-256 of the key (unique: a key names one vault),
 *   its recipient, sections, expiry, revocation and what notifications reported of its e-mail.
 * - view_sessions: each redeemed key's session (its secret only as a SHA-256), with the consent the
 *   viewer gave; view_session_views: who viewed which section when (at most one row a minute).
 * - personal_data_keys: one AES-256 key per request and per key stream, sealing the personal data in
 *   their events (personal-sealing.ts). Its loss loses those details: back it up like letter_keys.
 */
class AccessTables20261125 extends Migration {
  override up(): void {
    this.addSql(`
      create table access_requests (
        id uuid primary key,
        owner_id uuid not null,
        requester_email text not null,
        requester_name text,
        relationship text not null,
        message text not null,
        child_name text,
        child_dob text,
        held_key_id uuid,
        status text not null,
        created_at timestamptz not null,
        decided_at timestamptz,
        key_id uuid
      )`);
    this.addSql(`create index access_requests_owner_status_idx on access_requests (owner_id, status, created_at desc)`);
    this.addSql(`
      create table access_keys (
        id uuid primary key,
        owner_id uuid not null,
        key_hash text not null unique,
        name text,
        recipient_email text not null,
        source text not null,
        request_id uuid,
        scopes jsonb not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        revoked_at timestamptz,
        email_status text not null default 'queued',
        email_sent_at timestamptz
      )`);
    this.addSql(`create index access_keys_owner_idx on access_keys (owner_id, created_at desc)`);
    this.addSql(`
      create table view_sessions (
        id uuid primary key,
        owner_id uuid not null,
        key_id uuid not null,
        secret_hash text not null unique,
        scopes jsonb not null,
        opened_at timestamptz not null,
        expires_at timestamptz not null,
        status text not null,
        ended_at timestamptz,
        consent_version text not null,
        consent_text text not null,
        consent_hash text not null,
        user_agent text,
        origin text,
        last_viewed_at timestamptz
      )`);
    this.addSql(`create index view_sessions_owner_idx on view_sessions (owner_id, opened_at desc)`);
    this.addSql(`create index view_sessions_key_idx on view_sessions (key_id)`);
    this.addSql(`
      create table view_session_views (
        session_id uuid not null,
        section text not null,
        viewed_at timestamptz not null,
        primary key (session_id, viewed_at, section)
      )`);
    this.addSql(`
      create table personal_data_keys (
        subject_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists personal_data_keys, view_session_views, view_sessions, access_keys, access_requests');
  }
}

/**
 * If I'm Not There's read models (rebuildable from the `emergency-contact-{id}` and
 * `delivery-settings-{ownerId}` streams, whose personal data is sealed with personal_data_keys):
 * - emergency_contacts: each owner's contacts in the clear for the owner, with the id of the
 *   contact's current key (its expiry and e-mail status are the key's, in access_keys).
 * - delivery_settings: each owner's saved settings; none saved means the spec's defaults.
 */
class IfImNotThereTables20261125 extends Migration {
  override up(): void {
    this.addSql(`
      create table emergency_contacts (
        id uuid primary key,
        owner_id uuid not null,
        label text not null,
        name text not null,
        email text not null,
        phone text,
        key_id uuid,
        created_at timestamptz not null
      )`);
    this.addSql(`create index emergency_contacts_owner_idx on emergency_contacts (owner_id, created_at)`);
    this.addSql(`
      create table delivery_settings (
        owner_id uuid primary key,
        delivery_timing text not null,
        require_legal_verification boolean not null,
        allow_preview boolean not null,
        notify_trustee boolean not null,
        trustee_name text not null,
        trustee_email text not null,
        final_thoughts text not null,
        updated_at timestamptz not null
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists delivery_settings, emergency_contacts');
  }
}

/**
 * owner_last_seen: each owner's last sign-in as identity published it (UserSignedIn, consumed by
 * `access-keys-sign-ins`), which the inactivity watch counts from. The timing job locks the row, so a
 * sign-in consumed meanwhile waits for its decision. Not rebuildable from access-keys' own events: a
 * lost row only makes the watch count from the owner's last check-in, set or resume (never earlier).
 */
class OwnerLastSeen20261126 extends Migration {
  override up(): void {
    this.addSql('create table owner_last_seen (owner_id uuid primary key, last_sign_in_at timestamptz)');
  }

  override down(): void {
    this.addSql('drop table if exists owner_last_seen');
  }
}

/**
 * Milestone keys (a letter sealed until a day, released to its recipient): a key, and each session it
 * opens, may be limited to one letter; viewer tokens minted from such a session carry it.
 */
class LetterLimitedKeys20261126 extends Migration {
  override up(): void {
    this.addSql('alter table access_keys add column letter_id uuid');
    this.addSql('alter table view_sessions add column letter_id uuid');
  }

  override down(): void {
    this.addSql('alter table view_sessions drop column if exists letter_id');
    this.addSql('alter table access_keys drop column if exists letter_id');
  }
}

/**
 * The view audit names the item a viewer opened (a letter, a recording, a document...), not only the
 * section: kind and id, never words ('' for a section's list). Old rows are section views.
 */
class ViewedItems20261205 extends Migration {
  override up(): void {
    this.addSql(`alter table view_session_views add column item_kind text not null default '', add column item_id text not null default ''`);
    this.addSql('alter table view_session_views drop constraint view_session_views_pkey');
    this.addSql('alter table view_session_views add primary key (session_id, viewed_at, section, item_kind, item_id)');
  }

  override down(): void {
    this.addSql(`delete from view_session_views where item_kind <> ''`);
    this.addSql('alter table view_session_views drop constraint view_session_views_pkey');
    this.addSql('alter table view_session_views add primary key (session_id, viewed_at, section)');
    this.addSql('alter table view_session_views drop column item_kind, drop column item_id');
  }
}

/**
 * Downloads of originals: a key may allow them (the owner's choice when issuing it; default view
 * only), and each session it opens copies the choice, so its viewer tokens carry it.
 */
class DownloadableKeys20261205 extends Migration {
  override up(): void {
    this.addSql('alter table access_keys add column allow_download boolean not null default false');
    this.addSql('alter table view_sessions add column may_download boolean not null default false');
  }

  override down(): void {
    this.addSql('alter table view_sessions drop column if exists may_download');
    this.addSql('alter table access_keys drop column if exists allow_download');
  }
}

/**
 * request_settings: each owner's switch for his request link (rebuildable from the
 * `request-setting-{ownerId}` streams); no row means open, the default.
 */
class RequestSettings20261206 extends Migration {
  override up(): void {
    this.addSql('create table request_settings (owner_id uuid primary key, open boolean not null, updated_at timestamptz not null)');
  }

  override down(): void {
    this.addSql('drop table if exists request_settings');
  }
}

/** Why a key's e-mail failed (a daily cap or the mail server), so the owner is told more than "failed". */
class KeyEmailFailure20261206 extends Migration {
  override up(): void {
    this.addSql('alter table access_keys add column email_failure text');
  }

  override down(): void {
    this.addSql('alter table access_keys drop column if exists email_failure');
  }
}

/** trustees: each owner's trustees and their answers (rebuildable from the `trustees-{ownerId}` streams). */
class Trustees20261206 extends Migration {
  override up(): void {
    this.addSql(`
      create table trustees (
        id uuid primary key,
        owner_id uuid not null,
        name text not null,
        email text not null,
        relationship text not null,
        status text not null,
        invited_at timestamptz,
        invitation_expires_at timestamptz,
        answered_at timestamptz,
        removed_at timestamptz,
        created_at timestamptz not null
      )`);
    this.addSql('create index trustees_owner_idx on trustees (owner_id, created_at)');
    this.addSql('create index trustees_email_idx on trustees (email)');
  }

  override down(): void {
    this.addSql('drop table if exists trustees');
  }
}

/**
 * trustee_keys: one AES-256 data key per trustee; his name and address in the events are sealed with it
 * (trustees/trustee-sealing.ts), and it is deleted when he is removed (crypto-shredding). Back it up
 * like personal_data_keys.
 */
class TrusteeKeys20261207 extends Migration {
  override up(): void {
    this.addSql('create table trustee_keys (trustee_id uuid primary key, data_key text not null, created_at timestamptz not null default now())');
  }

  override down(): void {
    this.addSql('drop table if exists trustee_keys');
  }
}

export const accessKeysMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'access-tables-2026-11-25', class: AccessTables20261125 },
  { name: 'if-im-not-there-tables-2026-11-25', class: IfImNotThereTables20261125 },
  { name: 'owner-last-seen-2026-11-26', class: OwnerLastSeen20261126 },
  { name: 'letter-limited-keys-2026-11-26', class: LetterLimitedKeys20261126 },
  { name: 'viewed-items-2026-12-05', class: ViewedItems20261205 },
  { name: 'downloadable-keys-2026-12-05', class: DownloadableKeys20261205 },
  { name: 'request-settings-2026-12-06', class: RequestSettings20261206 },
  { name: 'key-email-failure-2026-12-06', class: KeyEmailFailure20261206 },
  { name: 'trustees-2026-12-06', class: Trustees20261206 },
  { name: 'trustee-keys-2026-12-07', class: TrusteeKeys20261207 },
]);
