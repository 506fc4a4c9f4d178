import { NotificationsEvents, published } from '@lv/contracts';
import { projectionFor, publishPolicyFor } from '@lv/platform/event-store';
import type { KeyEmailEvent } from './key-email.decider.js';

/**
 * key_emails' final states from the events (the worker inserts the `pending` row it locks). A sent
 * row never goes back; a replay sets the same values again.
 */
export const keyEmailsProjection = projectionFor<KeyEmailEvent>({
  name: 'key_emails',
  handles: ['KeyEmailSent', 'KeyEmailFailed'],
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,

  async apply(em, events) {
    for (const event of events) {
      if (event.type === 'KeyEmailSent') {
        const d = event.data;
        await em.execute(
          `insert into key_emails (key_id, state, attempts, message_id, sent_at, updated_at, owner_id, recipient_hash) values (?, 'sent', ?, ?, ?, ?, ?, ?)
           on conflict (key_id) do update set state = 'sent', attempts = excluded.attempts, message_id = excluded.message_id, sent_at = excluded.sent_at, last_error = null,
            updated_at = excluded.updated_at, owner_id = excluded.owner_id, recipient_hash = excluded.recipient_hash`,
          [d.keyId, d.attempts, d.messageId, d.sentAt, d.sentAt, d.ownerId ?? null, d.recipientHash ?? null],
        );
      } else {
        const d = event.data;
        await em.execute(
          `insert into key_emails (key_id, state, attempts, last_error, updated_at) values (?, 'failed', ?, ?, ?)
           on conflict (key_id) do update set state = 'failed', attempts = excluded.attempts, last_error = excluded.last_error, updated_at = excluded.updated_at
            where key_emails.state <> 'sent'`,
          [d.keyId, d.attempts, d.reason, d.failedAt],
        );
      }
    }
  },

  async reset(em) {
    await em.execute(`delete from key_emails where state <> 'pending'`);
  },
});

/** What access-keys learns: the key id, when, the Message-ID or why it failed. Never an address or a key. */
export const notificationsPublishPolicy = publishPolicyFor<KeyEmailEvent>((event) => {
  switch (event.type) {
    case 'KeyEmailSent': {
      const { keyId, sentAt, messageId } = event.data;
      return published(NotificationsEvents.KeyEmailSent, { keyId, sentAt, messageId });
    }
    case 'KeyEmailFailed':
      return published(NotificationsEvents.KeyEmailFailed, event.data);
    default:
      return null;
  }
});
