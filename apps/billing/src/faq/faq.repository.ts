import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FaqEntry } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

const COLUMNS = 'id, question, answer, is_active, display_order';

/** The FAQ (spec 02: faq, read active only by display order); one row per entry. */
export class FaqRepository {
  /** The pricing page's FAQ: active entries, by display order. */
  async listActive(em: EntityManager): Promise<FaqEntry[]> {
    return em.execute<FaqEntry[]>(`select ${COLUMNS} from faq_entries where is_active order by display_order, id`);
  }

  /** Every entry, for the admins' editor. */
  async listAll(em: EntityManager): Promise<FaqEntry[]> {
    return em.execute<FaqEntry[]>(`select ${COLUMNS} from faq_entries order by display_order, id`);
  }

  /** Adds an entry (no id) or replaces one (its id); an unknown id is NOT_FOUND, never a new row under a chosen id. */
  async save(em: EntityManager, entry: Omit<FaqEntry, 'id'> & { id?: string }): Promise<FaqEntry> {
    const values = [entry.question, entry.answer, entry.is_active, entry.display_order];
    if (!entry.id) {
      const [row] = await em.execute<FaqEntry[]>(
        `insert into faq_entries (id, question, answer, is_active, display_order) values (?, ?, ?, ?, ?) returning ${COLUMNS}`,
        [randomUUID(), ...values],
      );
      return row!;
    }
    const [row] = await em.execute<FaqEntry[]>(
      `update faq_entries set question = ?, answer = ?, is_active = ?, display_order = ?, updated_at = now() where id = ? returning ${COLUMNS}`,
      [...values, entry.id],
    );
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }
}
