import { Migration } from '@mikro-orm/migrations';
import type { ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';

/**
 * Billing's own tables besides the event store:
 * - subscriptions: the read model of each owner's subscription (Settings' Subscription Status, and
 *   finding the owner of a provider subscription). Rebuildable from the `subscription-{ownerId}` streams.
 * - local_checkout_sessions: the local development provider's hosted checkout sessions (what Stripe
 *   keeps on its side); unused with Stripe.
 * - faq_entries: the pricing page's FAQ (spec 02, entity faq), edited by admins. Not event-sourced:
 *   public product copy with no history anyone relies on; each write is one row.
 */
class BillingTables20261126 extends Migration {
  override up(): void {
    this.addSql(`
      create table subscriptions (
        owner_id uuid primary key,
        status text not null,
        tier text not null,
        subscription_id text,
        customer_id text,
        current_period_end timestamptz,
        cancel_at_period_end boolean not null default false,
        updated_at timestamptz not null
      )`);
    this.addSql(`create index subscriptions_subscription_idx on subscriptions (subscription_id) where subscription_id is not null`);
    this.addSql(`
      create table local_checkout_sessions (
        id text primary key,
        owner_id uuid not null,
        tier text not null,
        status text not null,
        subscription_id text,
        success_url text not null,
        cancel_url text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`create index local_checkout_sessions_subscription_idx on local_checkout_sessions (subscription_id) where subscription_id is not null`);
    this.addSql(`
      create table faq_entries (
        id uuid primary key,
        question text not null,
        answer text not null,
        is_active boolean not null default true,
        display_order integer not null,
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create index faq_entries_order_idx on faq_entries (display_order, id) where is_active`);
    // A fresh install answers the questions people ask before they pay (admins edit them later).
    const seed: [string, string, string, number][] = [
      ['7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a01', 'What does each plan include?',
        'Essentials (£9.99 a month) keeps your letters, Who I Am, your If I’m Gone message and Access Key request management, and opens the timeline and audio uploads. Pro (£20.00 a month) adds video and audio saving and final messages. Legacy (£149 a year) includes everything in Pro, with priority support and 2 bonus Access Key slots.', 1],
      ['7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a02', 'How do access keys work?',
        'An access key lets a family member or an emergency contact open your vault read-only. You choose which sections a key opens and how long it lasts, and you can revoke a key or end a viewing session at any time. Nobody can change or delete anything through a key, and each time it is used is recorded.', 2],
      ['7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a03', 'Can I cancel at any time?',
        'Yes. Choose Cancel Subscription in Settings. You are not charged again, and your plan stays active until the end of the billing period you have already paid for.', 3],
      ['7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a04', 'What happens to my vault if I cancel?',
        'Nothing is deleted. Your content stays accessible until the end of the billing period, even after cancellation. After that the features of the paid plans are locked until you subscribe again, and everything you saved is still there.', 4],
      ['7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a05', 'How is my payment taken?',
        'By our card-payment provider, on its own secure checkout page. Legacy Vault never sees or stores your card details.', 5],
    ];
    for (const [id, question, answer, order] of seed) {
      this.addSql(`insert into faq_entries (id, question, answer, is_active, display_order) values ('${id}', ${quote(question)}, ${quote(answer)}, true, ${order})`);
    }
  }

  override down(): void {
    this.addSql('drop table if exists faq_entries, local_checkout_sessions, subscriptions');
  }
}

/**
 * The seeded "What does each plan include?" answer promised audio uploads with Essentials; the plans
 * table (contracts plans.ts) gives video and audio saving with Pro and Legacy. An answer an admin has
 * already edited is left as it is.
 */
class PlanFaqFollowsTheTable20261206 extends Migration {
  override up(): void {
    this.addSql(`update faq_entries set answer = ${quote(PLAN_FAQ_ANSWER)}, updated_at = now() where id = '${PLAN_FAQ_ID}' and answer = ${quote(PLAN_FAQ_SEEDED)}`);
  }

  override down(): void {
    this.addSql(`update faq_entries set answer = ${quote(PLAN_FAQ_SEEDED)} where id = '${PLAN_FAQ_ID}' and answer = ${quote(PLAN_FAQ_ANSWER)}`);
  }
}

/** The local provider's page shows the promo code a checkout was opened with (spec 02: the dialog's prefilled code). */
class LocalCheckoutPromoCode20261206 extends Migration {
  override up(): void {
    this.addSql('alter table local_checkout_sessions add column if not exists promo_code text');
  }

  override down(): void {
    this.addSql('alter table local_checkout_sessions drop column if exists promo_code');
  }
}

const PLAN_FAQ_ID = '7a3f0d1e-5b2c-4e8f-9a61-0c1d2e3f4a01';
const PLAN_FAQ_SEEDED = 'Essentials (£9.99 a month) keeps your letters, Who I Am, your If I’m Gone message and Access Key request management, and opens the timeline and audio uploads. Pro (£20.00 a month) adds video and audio saving and final messages. Legacy (£149 a year) includes everything in Pro, with priority support and 2 bonus Access Key slots.';
export const PLAN_FAQ_ANSWER =
  'Essentials (£9.99 a month) keeps your letters, Who I Am, your If I’m Gone message and Access Key request management, and opens the timeline. Pro (£20.00 a month) adds video and audio saving, final messages and the Parent Circle community. Legacy (£149 a year) includes everything in Pro, with priority support and 2 bonus Access Key slots.';

/** A SQL string literal (the seed's own constant texts). */
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

export const billingMigrations: ServiceMigration[] = withEventStoreSchema([
  { name: 'billing-tables-2026-11-26', class: BillingTables20261126 },
  { name: 'plan-faq-follows-the-table-2026-12-06', class: PlanFaqFollowsTheTable20261206 },
  { name: 'local-checkout-promo-code-2026-12-06', class: LocalCheckoutPromoCode20261206 },
]);
