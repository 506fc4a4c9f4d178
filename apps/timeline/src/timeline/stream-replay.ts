import type { EntityManager } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { receiveEvent, type EventDeclaration, type PublishedEvent, type ReceivedEvent } from '@lv/contracts';
import { scopedStreamName, scopedSubject, unscopedSubject } from '@lv/platform/messaging';
import type { TimelineFeed } from './timeline.projection.js';

/** Events per transaction while replaying (the inbox rows commit with the rows they changed). */
const BATCH = 500;

/**
 * Replays one feed's stream from its first message up to the last one there now, through the same
 * handler and inbox the durable consumer uses: an event the durable consumer handles during the
 * replay is applied once either way. Returns how many events were applied.
 */
export async function replayFeed<E extends EventDeclaration>(
  nats: NatsConnection,
  feed: TimelineFeed<E>,
  inTransaction: <T>(work: (em: EntityManager) => Promise<T>) => Promise<T>,
  stackId?: string,
): Promise<number> {
  const stream = scopedStreamName(feed.source, stackId);
  const jsm = await jetstreamManager(nats);
  const info = await jsm.streams.info(stream).catch(() => null);
  const lastSeq = info?.state.last_seq ?? 0;
  if (!info || info.state.messages === 0) return 0;
  const wanted = new Set(feed.events.map((e) => scopedSubject(e.subject, stackId)));
  // An ordered consumer: ephemeral, no acks, gone when we stop reading.
  const consumer = await jetstream(nats).consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const messages = await consumer.consume({ max_messages: BATCH });
  let applied = 0;
  let batch: ReceivedEvent<E>[] = [];
  const flush = async () => {
    const events = batch;
    batch = [];
    if (!events.length) return;
    applied += await inTransaction(async (em) => {
      let n = 0;
      for (const event of events) {
        const inserted = await em.execute<{ event_id: string }[]>(
          'insert into inbox (consumer, event_id, subject) values (?, ?, ?) on conflict do nothing returning event_id',
          [feed.consumer, event.eventId, event.subject],
        );
        if (inserted.length === 0) continue;
        await feed.apply(em, event);
        n++;
      }
      return n;
    });
  };
  try {
    for await (const message of messages) {
      if (wanted.has(message.subject)) {
        // An unparseable event, or one its declaration refuses, is the durable consumer's to park; the replay skips it.
        const received = parsedEvent(message);
        const checked = received && receiveEvent(feed.events, unscopedSubject(message.subject, stackId), received);
        if (checked?.ok) batch.push(checked.event);
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

function parsedEvent(message: JsMsg): PublishedEvent | null {
  try {
    return message.json<PublishedEvent>();
  } catch {
    return null;
  }
}
