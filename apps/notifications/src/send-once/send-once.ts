import type { MikroORM } from '@mikro-orm/postgresql';
import { decideAndAppend, handleCommand, projectionFor, retryOnConflict, type Decider, type EventMetadata, type EventStore, type Projection } from '@lv/platform/event-store';
import type { KeyEmailMessage } from '../key-emails/key-email-message.js';
import type { Mailer } from '../key-emails/key-emails.service.js';

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

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'notifications' } };

/** Where one kind of send-once message is kept: its table (the row the worker locks) and its streams. */
export interface SendOnceKind {
  table: string;
  idColumn: string;
  streamType: string;
  decider: Decider<SendOnceState, SendOnceCommand, SendOnceEvent<string, string>>;
}

/** What one message needs to go: whether it may still, and the message itself. */
export interface SendOnceSteps {
  /** The owning service's answer: still current, stale (recorded as not sent, for `staleReason`), or not committed yet. */
  state(): Promise<'current' | 'stale' | 'unknown'>;
  /** Thrown while the message's step is not committed: the job retries with backoff, then gives up. */
  notCommitted(): Error;
  staleReason: string;
  compose(): KeyEmailMessage;
}

/**
 * Sends message `id` at most once: its row is held locked from before the state check to after the send
 * is recorded, so a second worker waits and then finds it sent.
 */
export function sendOnce(
  deps: { orm: MikroORM; store: EventStore; mailer: Mailer },
  kind: SendOnceKind,
  message: { id: string; ownerId: string; attempt: number },
  steps: SendOnceSteps,
): Promise<'sent' | 'already-sent' | 'stale'> {
  const { id, ownerId, attempt } = message;
  const record = (em: Parameters<typeof decideAndAppend>[0], command: SendOnceCommand) =>
    decideAndAppend(em, deps.store, kind.decider, command, { streamId: `${kind.streamType}-${command.id}`, streamType: kind.streamType, metadata: SYSTEM });
  return retryOnConflict(3, () => deps.orm.em.fork().transactional(async (em) => {
    await em.execute(`insert into ${kind.table} (${kind.idColumn}) values (?) on conflict (${kind.idColumn}) do nothing`, [id]);
    const [row] = await em.execute<{ state: string }[]>(`select state from ${kind.table} where ${kind.idColumn} = ? for update`, [id]);
    if (row!.state === 'sent') return 'already-sent';
    await em.execute(`update ${kind.table} set attempts = ?, updated_at = now() where ${kind.idColumn} = ?`, [attempt, id]);
    const state = await steps.state();
    if (state === 'unknown') throw steps.notCommitted();
    if (state === 'stale') {
      await record(em, { type: 'RecordFailed', id, ownerId, attempts: attempt, reason: steps.staleReason, now: new Date().toISOString() });
      return 'stale';
    }
    const mail = steps.compose();
    const { messageId } = await deps.mailer(mail);
    await record(em, { type: 'RecordSent', id, ownerId, messageId: messageId || mail.messageId, attempts: attempt, now: new Date().toISOString() });
    return 'sent';
  }));
}

/** A message whose job ran out of attempts (its step never committed, or SMTP kept failing). */
export async function recordSendFailed(deps: { orm: MikroORM; store: EventStore }, kind: SendOnceKind, message: { id: string; ownerId: string }, attempts: number, reason: string): Promise<void> {
  await handleCommand(deps.orm.em, deps.store, kind.decider, { type: 'RecordFailed', id: message.id, ownerId: message.ownerId, attempts, reason, now: new Date().toISOString() }, {
    streamId: `${kind.streamType}-${message.id}`, streamType: kind.streamType, metadata: SYSTEM,
  });
}
