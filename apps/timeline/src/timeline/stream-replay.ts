import type { EntityManager } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { PublishedEvent } from '@lv/contracts';
import { scopedStreamName, scopedSubject, unscopedSubject } from '@lv/platform/messaging';
import type { TimelineFeed } from './timeline.projection.js';

/** Events per transaction while replaying (the inbox rows commit with the rows they changed). */
const BATCH = 500;

/**
 * Replays one feed's stream from its first message up to the last one there now, through the same
 * handler and inbox the durable consumer uses: an event the durable consumer handles during the
 * replay is applied once either way. Returns how many events were applied.
 */
export async function replayFeed(
  nats: NatsConnection,
  feed: TimelineFeed,
  inTransaction: <T>(work: (em: EntityManager) => Promise<T>) => Promise<T>,
  stackId?: string,
): Promise<number> {
  const stream = scopedStreamName(feed.source, stackId);
  const jsm = await jetstreamManager(nats);
  const info = await jsm.streams.info(stream).catch(() => null);
  const lastSeq = info?.state.last_seq ?? 0;
  if (!info || info.state.messages === 0) return 0;
  const wanted = new Set(feed.subjects.map((s) => scopedSubject(s, stackId)));
  // An ordered consumer: ephemeral, no acks, gone when we stop reading.
  const consumer = await jetstream(nats).consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const messages = await consumer.consume({ max_messages: BATCH });
  let applied = 0;
  let batch: { event: PublishedEvent; subject: string }[] = [];
  const flush = async () => {
    const events = batch;
    batch = [];
    if (!events.length) return;
    applied += await inTransaction(async (em) => {
      let n = 0;
      for (const { event, subject } of events) {
        const inserted = await em.execute<{ event_id: string }[]>(
          'insert into inbox (consumer, event_id, subject) values (?, ?, ?) on conflict do nothing returning event_id',
          [feed.consumer, event.eventId, subject],
        );
        if (inserted.length === 0) continue;
        await feed.apply(em, event, subject);
        n++;
      }
      return n;
    });
  };
  try {
    for await (const message of messages) {
      if (wanted.has(message.subject)) {
        // An unparseable event is the durable consumer's to park; the replay skips it.
        try {
          batch.push({ event: message.json<PublishedEvent>(), subject: unscopedSubject(message.subject, stackId) });
        } catch {
          /* skipped */
        }
      }
      if (batch.length >= BATCH) await flush();
      if (message.seq >= lastSeq || message.info.pending === 0) break;
    }
    await flush();
  } finally {
    void messages.close().catch(() => undefined);
  }
  return applied;
}
