import { Migration } from '@mikro-orm/migrations';
import { withEventStoreSchema, type ServiceMigration } from '@lv/platform/database';

/**
 * key_emails: one row per access key's e-mail. The worker locks it (SELECT ... FOR UPDATE) for the
 * whole send, so two attempts at one key (a retried job, a second worker) run one after the other and
 * the second sees `sent`. Its final states are a read model of the `key-email-<keyId>` events.
 */
class KeyEmailTables20261125 extends Migration {
  override up(): void {
    this.addSql(`
      create table key_emails (
        key_id uuid primary key,
        state text not null default 'pending',
        attempts integer not null default 0,
        message_id text,
        last_error text,
        sent_at timestamptz,
        updated_at timestamptz not null default now()
      )`);
  }

  override down(): void {
    this.addSql('drop table if exists key_emails');
  }
}

export const notificationsMigrations: ServiceMigration[] = withEventStoreSchema([{ name: 'key-email-tables-2026-11-25', class: KeyEmailTables20261125 }]);
