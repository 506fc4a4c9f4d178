import type { MikroORM } from '@mikro-orm/postgresql';
import type { LocalSessionRow, LocalSessionStore } from './payment-provider.js';

const COLUMNS = 'id, owner_id, tier, status, subscription_id, promo_code, success_url, cancel_url';

/** The local provider's checkout sessions, in billing's database (Stripe keeps its own). */
export class PgLocalSessionStore implements LocalSessionStore {
  constructor(private readonly orm: MikroORM) {}

  private get em() {
    return this.orm.em.fork();
  }

  async insert(row: LocalSessionRow): Promise<void> {
    await this.em.execute(`insert into local_checkout_sessions (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?)`, [
      row.id, row.owner_id, row.tier, row.status, row.subscription_id, row.promo_code, row.success_url, row.cancel_url,
    ]);
  }

  async find(id: string): Promise<LocalSessionRow | null> {
    const [row] = await this.em.execute<LocalSessionRow[]>(`select ${COLUMNS} from local_checkout_sessions where id = ?`, [id]);
    return row ?? null;
  }

  async findBySubscription(subscriptionId: string): Promise<LocalSessionRow | null> {
    const [row] = await this.em.execute<LocalSessionRow[]>(`select ${COLUMNS} from local_checkout_sessions where subscription_id = ? limit 1`, [subscriptionId]);
    return row ?? null;
  }

  async close(id: string, status: 'paid' | 'cancelled', subscriptionId: string | null): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update local_checkout_sessions set status = ?, subscription_id = coalesce(?, subscription_id) where id = ? and status = 'open' returning id`,
      [status, subscriptionId, id],
    );
    return rows.length > 0;
  }
}
