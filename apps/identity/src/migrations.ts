import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';
import { AccountDeletions20261207 } from './account-deletion/account-deletion.migration.js';

/**
 * Identity's own tables besides the event store:
 * - user_profiles: read model projected from user events (rebuildable at any time).
 * - credentials: email and argon2id hash, written with the registration event. Secrets never go
 *   into the event log, which is immutable and leaves the service.
 * - sessions / refresh_tokens: operational security state. Every refresh token ever issued is kept
 *   (hashed) with the time it was used, so presenting a used one is recognised as reuse.
 */
class IdentityTables20261122 extends Migration {
  override up(): void {
    this.addSql(`
      create table user_profiles (
        id uuid primary key,
        email text not null,
        full_name text,
        avatar_url text,
        created_at timestamptz not null,
        subscription_tier text not null default 'none',
        ai_admin boolean not null default false
      )`);
    this.addSql(`create index user_profiles_email_idx on user_profiles (email)`);
    this.addSql(`
      create table credentials (
        user_id uuid primary key,
        email text not null unique,
        password_hash text not null,
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table sessions (
        id uuid primary key,
        user_id uuid not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        revoked_at timestamptz,
        revoked_reason text,
        user_agent text,
        ip text
      )`);
    this.addSql(`create index sessions_user_idx on sessions (user_id)`);
    this.addSql(`
      create table refresh_tokens (
        token_hash text primary key,
        session_id uuid not null references sessions (id) on delete cascade,
        issued_at timestamptz not null default now(),
        used_at timestamptz
      )`);
    this.addSql(`create index refresh_tokens_session_idx on refresh_tokens (session_id)`);
  }

  override down(): void {
    this.addSql('drop table if exists refresh_tokens, sessions, credentials, user_profiles');
  }
}

/** At most one sibling token per rotation (see SessionStore.rotate): when it was handed out. */
class RefreshTokenSibling20261123 extends Migration {
  override up(): void {
    this.addSql('alter table refresh_tokens add column sibling_issued_at timestamptz');
  }

  override down(): void {
    this.addSql('alter table refresh_tokens drop column sibling_issued_at');
  }
}

/** Notification Settings (/settings): projected from NotificationPreferencesChanged; no row means the defaults. */
class NotificationPreferences20261126 extends Migration {
  override up(): void {
    this.addSql(`
      create table notification_preferences (
        user_id uuid primary key,
        email_notifications boolean not null,
        access_requests boolean not null,
        system_updates boolean not null,
        marketing_emails boolean not null,
        updated_at timestamptz not null
      )`);
    // The admin search is a substring of an e-mail or a name, ignoring case: a trigram index would serve
    // it at scale; at today's sizes a scan of user_profiles is milliseconds.
  }

  override down(): void {
    this.addSql('drop table if exists notification_preferences');
  }
}

/**
 * activity_marks: when each user's last UserSignedIn was recorded, so a sign-in or refresh records
 * one only when the last is an hour old (one conditional upsert per refresh; no event most of the time).
 */
class ActivityMarks20261126 extends Migration {
  override up(): void {
    this.addSql('create table activity_marks (user_id uuid primary key, recorded_at timestamptz not null)');
  }

  override down(): void {
    this.addSql('drop table if exists activity_marks');
  }
}

/**
 * password_resets: the reset links' tokens, SHA-256 only, written with PasswordResetRequested (which
 * says when it lapses; whether it was used is the user stream's to say). sessions.last_seen_at: the
 * sessions list of /settings, moved on at each refresh.
 */
class PasswordResets20261206 extends Migration {
  override up(): void {
    this.addSql(`
      create table password_resets (
        id uuid primary key,
        user_id uuid not null,
        token_hash text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      )`);
    this.addSql('create index password_resets_user_idx on password_resets (user_id)');
    this.addSql('alter table sessions add column last_seen_at timestamptz');
  }

  override down(): void {
    this.addSql('drop table if exists password_resets');
    this.addSql('alter table sessions drop column last_seen_at');
  }
}

/**
 * email_change_links: an e-mail change's two links (the new address's confirm link, the old address's
 * undo link), SHA-256 only, written with EmailChangeRequested (whether a link still works is the user
 * stream's to say). session_id: the session that asked, the one a confirmation leaves signed in.
 */
class EmailChangeLinks20261206 extends Migration {
  override up(): void {
    this.addSql(`
      create table email_change_links (
        id uuid primary key,
        user_id uuid not null,
        purpose text not null check (purpose in ('confirm', 'undo')),
        session_id uuid,
        token_hash text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      )`);
    this.addSql('create index email_change_links_user_idx on email_change_links (user_id)');
  }

  override down(): void {
    this.addSql('drop table if exists email_change_links');
  }
}

/**
 * sign_in_alerts: the "this wasn't me" link of each e-mail about a sign-in from a browser the account
 * had not seen, SHA-256 only; used_at makes it single-use. session_id: the session that sign-in opened.
 */
class SignInAlerts20261207 extends Migration {
  override up(): void {
    this.addSql(`
      create table sign_in_alerts (
        id uuid primary key,
        user_id uuid not null,
        session_id uuid not null,
        token_hash text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz
      )`);
    this.addSql('create index sign_in_alerts_user_idx on sign_in_alerts (user_id)');
  }

  override down(): void {
    this.addSql('drop table if exists sign_in_alerts');
  }
}

/**
 * email_verifications: the link that verifies an account's address, SHA-256 only, written with
 * EmailVerificationRequested (whether it still works is the user stream's to say). user_profiles
 * .email_verified: accounts made before verification existed never proved their address, so they start
 * unverified like a new one.
 */
class EmailVerifications20261207 extends Migration {
  override up(): void {
    this.addSql(`
      create table email_verifications (
        id uuid primary key,
        user_id uuid not null,
        token_hash text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      )`);
    this.addSql('create index email_verifications_user_idx on email_verifications (user_id)');
    this.addSql('alter table user_profiles add column email_verified boolean not null default false');
  }

  override down(): void {
    this.addSql('drop table if exists email_verifications');
    this.addSql('alter table user_profiles drop column email_verified');
  }
}

/**
 * Two-step sign-in (issue 32). two_step: an account's authenticator secret, sealed (AES-256-GCM, see
 * two-step/two-step-secrets.ts) under its own key in two_step_keys, never in clear nor in an event; a
 * set-up waiting for its first code; the last step a code was accepted for (no code twice).
 * two_step_recovery_codes: SHA-256 of each unused recovery code; a code used is deleted.
 * two_step_challenges: the second step of a sign-in, SHA-256 of its token only, single-use, minutes long.
 */
class TwoStep20261207 extends Migration {
  override up(): void {
    this.addSql(`
      create table two_step_keys (
        user_id uuid primary key,
        data_key text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table two_step (
        user_id uuid primary key,
        secret_sealed jsonb,
        pending_sealed jsonb,
        last_step bigint,
        enabled_at timestamptz
      )`);
    this.addSql(`
      create table two_step_recovery_codes (
        user_id uuid not null,
        code_hash text not null,
        created_at timestamptz not null default now(),
        primary key (user_id, code_hash)
      )`);
    this.addSql(`
      create table two_step_challenges (
        id uuid primary key,
        user_id uuid not null,
        token_hash text not null,
        known_device boolean not null,
        password_change_required boolean not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz
      )`);
    this.addSql('create index two_step_challenges_user_idx on two_step_challenges (user_id)');
  }

  override down(): void {
    this.addSql('drop table if exists two_step_challenges, two_step_recovery_codes, two_step, two_step_keys');
  }
}

/** Sudo mode: when the person last proved who he is in each session (a session open today counts from its start). */
class SessionProof20261207 extends Migration {
  override up(): void {
    this.addSql('alter table sessions add column proved_at timestamptz');
    this.addSql('update sessions set proved_at = created_at');
    this.addSql('alter table sessions alter column proved_at set not null, alter column proved_at set default now()');
  }

  override down(): void {
    this.addSql('alter table sessions drop column if exists proved_at');
  }
}

/**
 * Passkeys (WebAuthn, issue 32). passkeys: each credential's id, COSE public key, signature counter and
 * transports, with the owner's name for it. passkey_challenges: one row per ceremony, SHA-256 of its
 * challenge only, single-use, minutes long, bound to what it is for (the account, the session for sudo
 * mode, the password step's challenge for a second step).
 */
class Passkeys20261207 extends Migration {
  override up(): void {
    this.addSql(`
      create table passkeys (
        id uuid primary key,
        user_id uuid not null,
        credential_id text not null unique,
        public_key bytea not null,
        counter bigint not null default 0,
        transports text[] not null default '{}',
        backed_up boolean not null default false,
        name text not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz
      )`);
    this.addSql('create index passkeys_user_idx on passkeys (user_id)');
    this.addSql(`
      create table passkey_challenges (
        id uuid primary key,
        purpose text not null check (purpose in ('register', 'sign-in', 'second-step', 'confirm')),
        challenge_hash text not null,
        user_id uuid,
        session_id uuid,
        two_step_challenge_id uuid,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz
      )`);
    this.addSql('create index passkey_challenges_expiry_idx on passkey_challenges (expires_at)');
  }

  override down(): void {
    this.addSql('drop table if exists passkey_challenges, passkeys');
  }
}

export const identityMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'identity-tables-2026-11-22', class: IdentityTables20261122 },
  { name: 'identity-refresh-sibling-2026-11-23', class: RefreshTokenSibling20261123 },
  { name: 'identity-notification-preferences-2026-11-26', class: NotificationPreferences20261126 },
  { name: 'identity-activity-marks-2026-11-26', class: ActivityMarks20261126 },
  { name: 'identity-password-resets-2026-12-06', class: PasswordResets20261206 },
  { name: 'identity-email-change-links-2026-12-06', class: EmailChangeLinks20261206 },
  { name: 'identity-sign-in-alerts-2026-12-07', class: SignInAlerts20261207 },
  { name: 'identity-email-verifications-2026-12-07', class: EmailVerifications20261207 },
  { name: 'identity-two-step-2026-12-07', class: TwoStep20261207 },
  { name: 'identity-session-proof-2026-12-07', class: SessionProof20261207 },
  { name: 'identity-passkeys-2026-12-07', class: Passkeys20261207 },
  { name: 'identity-account-deletions-2026-12-07', class: AccountDeletions20261207 },
]);
