import { projectionFor, type Decider, type Projection } from '@lv/platform/event-store';

/**
 * A message sent once (or, should the worker die between SMTP's acceptance and recording it, once more
 * with the same Message-ID), one stream per message (`<streamType>-<id>`): sent is final; a message
 * that could not go (its step never committed, it went stale, SMTP kept failing) is recorded once.
 * Trustee notices and inactivity warnings are both this, with their own event names and table.
 */
export type SendOnceEvent<Sent extends string, Failed extends string> =
  | { type: Sent; data: { id: string; ownerId: string; sentAt: string; messageId: string; attempts: number } }
  | { type: Failed; data: { id: string; ownerId: string; failedAt: string; attempts: number; reason: string } };

export type SendOnceCommand =
  | { type: 'RecordSent'; id: string; ownerId: string; messageId: string; attempts: number; now: string }
  | { type: 'RecordFailed'; id: string; ownerId: string; attempts: number; reason: string; now: string };

export type SendOnceState = { status: 'none' | 'sent' | 'failed' };

export function sendOnceDecider<Sent extends string, Failed extends string>(sent: Sent, failed: Failed): Decider<SendOnceState, SendOnceCommand, SendOnceEvent<Sent, Failed>> {
  return {
    initialState: () => ({ status: 'none' }),

    decide(command, state) {
      if (state.status === 'sent') return [];
      if (command.type === 'RecordSent') {
        const { id, ownerId, messageId, attempts, now } = command;
        return [{ type: sent, data: { id, ownerId, sentAt: now, messageId, attempts } } as SendOnceEvent<Sent, Failed>];
      }
      if (state.status === 'failed') return [];
      const { id, ownerId, attempts, reason, now } = command;
      return [{ type: failed, data: { id, ownerId, failedAt: now, attempts, reason } } as SendOnceEvent<Sent, Failed>];
    },

    evolve(_state, event) {
      return { status: event.type === sent ? 'sent' : 'failed' };
    },
  };
}

/** The send-once table's final states from the events (the worker inserts the `pending` row it locks). */
export function sendOnceProjection<Sent extends string, Failed extends string>(table: string, idColumn: string, sent: Sent, failed: Failed): Projection {
  return projectionFor<SendOnceEvent<Sent, Failed>>({
    name: table,
    handles: [sent, failed],
    // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
    writeOnly: true,
    async apply(em, events) {
      for (const event of events) {
        // The data tells the two apart (the types are the caller's names): a sent one has sentAt.
        const d = event.data;
        if ('sentAt' in d) {
          await em.execute(
            `insert into ${table} (${idColumn}, state, attempts, message_id, sent_at, updated_at) values (?, 'sent', ?, ?, ?, ?)
             on conflict (${idColumn}) do update set state = 'sent', attempts = excluded.attempts, message_id = excluded.message_id, sent_at = excluded.sent_at, last_error = null, updated_at = excluded.updated_at`,
            [d.id, d.attempts, d.messageId, d.sentAt, d.sentAt],
          );
        } else {
          await em.execute(
            `insert into ${table} (${idColumn}, state, attempts, last_error, updated_at) values (?, 'failed', ?, ?, ?)
             on conflict (${idColumn}) do update set state = 'failed', attempts = excluded.attempts, last_error = excluded.last_error, updated_at = excluded.updated_at
              where ${table}.state <> 'sent'`,
            [d.id, d.attempts, d.reason, d.failedAt],
          );
        }
      }
    },
    async reset(em) {
      await em.execute(`delete from ${table} where state <> 'pending'`);
    },
  });
}
