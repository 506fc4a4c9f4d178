import { Migration } from '@mikro-orm/migrations';

/**
 * account_deletions: each account's pending deletion (one at most), written with
 * AccountDeletionRequested and removed when it is kept or erased: when it is due (the timer is
 * re-derived from here, never kept only in Redis) and its "keep my account" link's token, SHA-256 only.
 */
export class AccountDeletions20261207 extends Migration {
  override up(): void {
    this.addSql(`
      create table account_deletions (
        deletion_id uuid primary key,
        user_id uuid not null unique,
        token_hash text not null,
        requested_at timestamptz not null,
        due_at timestamptz not null
      )`);
    this.addSql('create index account_deletions_due_idx on account_deletions (due_at)');
  }

  override down(): void {
    this.addSql('drop table if exists account_deletions');
  }
}
