import type { EntityManager } from '@mikro-orm/postgresql';

/** The send-once tables (one row per e-mail: its state and the SMTP server's last refusal) and the column naming each row. */
const SENT_ROWS = [
  ['key_emails', 'key_id'], ['trustee_notices', 'notice_id'], ['inactivity_warnings', 'warning_id'], ['access_request_notices', 'request_id'],
  ['account_emails', 'email_id'], ['trustee_links', 'link_id'], ['trustee_report_notices', 'notice_id'],
] as const;

/** What a failure reason of an erased account reads afterwards. */
export const ERASED_REASON = 'erased with the account';

/**
 * "Delete my account" (issue 32), notifications' part. This service keeps no inbox, no preferences
 * (identity has them) and no message: only ids, states, times and SMTP message ids of the e-mails it
 * sent. What can name a person is a failure's reason, the SMTP server's words ("<ann@…>: mailbox
 * unavailable"): in the failed events and the rows' last_error of the owner's e-mails, both replaced
 * here, in the consumer's inbox transaction. Ids and times stay (they say only that an e-mail went).
 * A key e-mail that failed before any was sent for its owner records no owner and cannot be found
 * by him (its reason stays until the key's row is swept). Mails still queued are refused by their
 * senders' state checks (the keys, links and warnings are gone in access-keys).
 */
export async function eraseOwnerNotices(em: EntityManager, ownerId: string): Promise<{ events: number; rows: number }> {
  const owned = `select coalesce(data->>'id', data->>'keyId') from events where data->>'ownerId' = ?`;
  let rows = 0;
  for (const [table, idColumn] of SENT_ROWS) {
    const scrubbed = await em.execute<unknown[]>(
      `update ${table} set last_error = ? where last_error is not null and last_error <> ? and ${idColumn}::text in (${owned}) returning 1`, [ERASED_REASON, ERASED_REASON, ownerId]);
    rows += scrubbed.length;
  }
  const keyRows = await em.execute<unknown[]>('update key_emails set last_error = ? where owner_id = ? and last_error is not null and last_error <> ? returning 1', [ERASED_REASON, ownerId, ERASED_REASON]);
  const events = await em.execute<unknown[]>(
    `update events set data = jsonb_set(data, '{reason}', to_jsonb(?::text)) where data->>'ownerId' = ? and data->>'reason' is not null and data->>'reason' <> ? returning 1`, [ERASED_REASON, ownerId, ERASED_REASON]);
  return { events: events.length, rows: rows + keyRows.length };
}
