import type { NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { IdentityEvents } from '@lv/contracts';
import { scopedStreamName, scopedSubject } from '@lv/platform/messaging';

/** The published identity events that name a user: his address (registered, changed) and his name and picture (profile). */
const NAMING_EVENTS = [IdentityEvents.UserRegistered, IdentityEvents.EmailChanged, IdentityEvents.ProfileUpdated];

/** Messages read per pull while looking for the user's. */
const BATCH = 500;

/**
 * Deletes an erased user's naming events from identity's own JetStream stream. The event store's copies
 * are blanked in the erasure's transaction, but what the outbox published long ago stays in the stream
 * (limits retention, kept for consumers that arrive later) with his address in it. Ordered consumers
 * read only the naming subjects; each of his messages is deleted with `erase` (JetStream overwrites
 * the bytes before removing them). Consumers that already took them keep only what they need (ids).
 * Returns how many messages were deleted; idempotent (a second pass finds none).
 */
export async function deletePublishedWords(nats: NatsConnection, userId: string, stackId?: string): Promise<number> {
  const jsm = await jetstreamManager(nats);
  const stream = scopedStreamName('identity', stackId);
  const his: number[] = [];
  // One subject at a time: several filter subjects on one consumer need NATS 2.10, and Debian's server is 2.9.
  for (const declaration of NAMING_EVENTS) {
    for (const message of await messagesOn(nats, stream, scopedSubject(declaration.subject, stackId))) {
      if (parsed(message.text)?.data?.userId === userId) his.push(message.seq);
    }
  }
  for (const seq of his) await jsm.streams.deleteMessage(stream, seq, true);
  return his.length;
}

/** Every message of `stream` on `subject` now, read by an ordered consumer (gone when read). */
async function messagesOn(nats: NatsConnection, stream: string, subject: string): Promise<{ seq: number; text: string }[]> {
  const consumer = await jetstream(nats).consumers.get(stream, { filter_subjects: subject, deliver_policy: DeliverPolicy.All });
  // Nothing on the subject: an ordered consumer would wait for the next one.
  if ((await consumer.info()).num_pending === 0) return [];
  const found: { seq: number; text: string }[] = [];
  const messages = await consumer.consume({ max_messages: BATCH });
  try {
    for await (const message of messages) {
      found.push({ seq: message.seq, text: message.string() });
      if (message.info.pending === 0) break;
    }
  } finally {
    messages.stop();
  }
  return found;
}

function parsed(text: string): { data?: { userId?: unknown } } | null {
  try {
    return JSON.parse(text) as { data?: { userId?: unknown } };
  } catch {
    return null;
  }
}
