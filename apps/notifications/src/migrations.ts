import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';

/** A table of messages sent at most once: one row per message, its final states a read model of its events. */
const sendOnceTable = (table: string, idColumn: string) => `
      create table ${table} (
        ${idColumn} primary key,
        state text not null default 'pending',
        attempts integer not null default 0,
        message_id text,
        last_error text,
        sent_at timestamptz,
        updated_at timestamptz not null default now()
      )`;

/**
 * key_emails: one row per access key's e-mail. The worker locks it (SELECT ... FOR UPDATE) for the
 * whole send, so two attempts at one key (a retried job, a second worker) run one after the other and
 * the second sees `sent`. Its final states are a read model of the `key-email-<keyId>` events.
 */
class KeyEmailTables20261125 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('key_emails', 'key_id uuid'));
  }

  override down(): void {
    this.addSql('drop table if exists key_emails');
  }
}

/** trustee_notices: one row per trustee notice (a delivery's start or release), locked for its send as key_emails are. */
class TrusteeNoticeTables20261125 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('trustee_notices', 'notice_id text'));
  }

  override down(): void {
    this.addSql('drop table if exists trustee_notices');
  }
}

/** inactivity_warnings: one row per warning e-mail of an owner's inactivity watch, locked for its send as key_emails are. */
class InactivityWarningTables20261126 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('inactivity_warnings', 'warning_id uuid'));
  }

  override down(): void {
    this.addSql('drop table if exists inactivity_warnings');
  }
}

/**
 * access_request_notices: one row per owner's e-mail about an access request, locked for its send as
 * key_emails are, with the owner it was for (the hourly limit per owner counts his sent rows).
 */
class AccessRequestNoticeTables20261206 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('access_request_notices', 'request_id uuid'));
    this.addSql('alter table access_request_notices add column owner_id uuid');
    this.addSql('create index access_request_notices_owner_sent_idx on access_request_notices (owner_id, sent_at)');
  }

  override down(): void {
    this.addSql('drop table if exists access_request_notices');
  }
}

/**
 * key_emails remembers whom each sent e-mail was for (the owner, and a keyed hash of the address, never
 * the address): the daily limits per owner and per recipient count these rows.
 */
class KeyEmailLimits20261206 extends Migration {
  override up(): void {
    this.addSql('alter table key_emails add column owner_id uuid, add column recipient_hash text');
    this.addSql('create index key_emails_owner_sent_idx on key_emails (owner_id, sent_at)');
    this.addSql('create index key_emails_recipient_sent_idx on key_emails (recipient_hash, sent_at)');
  }

  override down(): void {
    this.addSql('alter table key_emails drop column if exists owner_id, drop column if exists recipient_hash');
  }
}

/** account_emails: one row per e-mail about an owner's own account (reset link, password changed), locked for its send. */
class AccountEmailTables20261206 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('account_emails', 'email_id uuid'));
  }

  override down(): void {
    this.addSql('drop table if exists account_emails');
  }
}

/** trustee_links: one row per trustee invitation or link e-mail, locked for its send as key_emails are. */
class TrusteeLinkTables20261206 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('trustee_links', 'link_id uuid'));
  }

  override down(): void {
    this.addSql('drop table if exists trustee_links');
  }
}

/** trustee_report_notices: one row per e-mail about a trustee's report (to the owner, a reminder, the reporter's withdrawn notice). */
class TrusteeReportNoticeTables20261207 extends Migration {
  override up(): void {
    this.addSql(sendOnceTable('trustee_report_notices', 'notice_id text'));
  }

  override down(): void {
    this.addSql('drop table if exists trustee_report_notices');
  }
}

export const notificationsMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'key-email-tables-2026-11-25', class: KeyEmailTables20261125 },
  { name: 'trustee-notice-tables-2026-11-25', class: TrusteeNoticeTables20261125 },
  { name: 'inactivity-warning-tables-2026-11-26', class: InactivityWarningTables20261126 },
  { name: 'access-request-notice-tables-2026-12-06', class: AccessRequestNoticeTables20261206 },
  { name: 'key-email-limits-2026-12-06', class: KeyEmailLimits20261206 },
  { name: 'account-email-tables-2026-12-06', class: AccountEmailTables20261206 },
  { name: 'trustee-link-tables-2026-12-06', class: TrusteeLinkTables20261206 },
  { name: 'trustee-report-notice-tables-2026-12-07', class: TrusteeReportNoticeTables20261207 },
]);
