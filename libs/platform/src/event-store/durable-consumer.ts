import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import { receiveEvent, type EventDeclaration, type PublishedEvent, type ReceivedEvent, type ServiceName } from '@lv/contracts';
import { withTrace } from '../logging/trace-context.js';
import { consumerEvents, consumerPending, consumerRedeliveries } from '../observability/metrics.js';
import { awaitServiceStream, isStreamNotFound } from '../messaging/jetstream.js';
import { scopedConsumerName, scopedStreamName, scopedSubject, subjectMatches, unscopedSubject } from '../messaging/subjects.js';

export interface DurableConsumerOptions<E extends EventDeclaration = EventDeclaration> {
  /** Durable name, unique per consuming service and purpose, e.g. `timeline-from-letters`. */
  name: string;
  /** The service whose stream is read. */
  source: ServiceName;
  /** The events (their declarations, unscoped subjects) this consumer wants: each one's data is checked against its schema before the handler sees it. */
  events: readonly E[];
  orm: MikroORM;
  nats: NatsConnection;
  logger: Logger;
  /**
   * Runs inside the inbox transaction: its writes commit together with the inbox row. The event's
   * `subject` tells which declaration it passed, and types its data.
   */
  handle: (em: EntityManager, event: ReceivedEvent<E>) => Promise<void>;
  /** Deliveries before an event is parked in dead_letters. */
  maxDeliveries?: number;
  /** First redelivery delay after a failure, doubled per delivery up to 30 s (default 1000 ms). */
  retryBackoffMs?: number;
  stackId?: string;
}

const MAX_RETRY_BACKOFF_MS = 30_000;

/** Whether the server takes several filter subjects on one consumer (nats-server 2.10+). */
function supportsMultipleFilters(nats: NatsConnection): boolean {
  const [major = 0, minor = 0] = (nats.info?.version ?? '0.0').split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 10);
}

/**
 * A durable JetStream consumer with explicit acks and an inbox: the handler's writes and the inbox
 * row commit in one transaction, so an event redelivered after a crash (or published twice by a
 * relay that lost its ack) changes nothing the second time. Replicas of a service share the durable,
 * so each event is handled by one of them. An event that keeps failing is parked in dead_letters and
 * logged, never dropped silently; so is one whose data its declaration refuses, at once, as no retry
 * can make it pass.
 *
 * The consumer never creates or updates the stream it reads (only its own durable on it): when the
 * source's stream is not there yet, start() returns and the consumer attaches in the background once
 * the owner has made it (DeliverPolicy.All: nothing published meanwhile is missed).
 */
export class DurableConsumer<E extends EventDeclaration = EventDeclaration> {
  private messages: ConsumerMessages | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  /** Ends a background wait for the source's stream when the consumer stops first. */
  private waiting: AbortController | null = null;
  private handled = 0;
  private duplicates = 0;
  private parked = 0;
  /** Set when the server cannot filter on all our subjects and we filter here instead. */
  private clientFilter: string[] | null = null;
  /** Removes this consumer's lag from the scrape (lv_consumer_pending) when it stops. */
  private unregisterLag: (() => void) | null = null;

  constructor(private readonly options: DurableConsumerOptions<E>) {}

  /** Events whose handler ran and committed here. */
  get handledCount(): number {
    return this.handled;
  }

  /** Deliveries skipped because the inbox already held the event (redeliveries, republished events). */
  get duplicateCount(): number {
    return this.duplicates;
  }

  /** Events parked in dead_letters by this instance. */
  get deadLetterCount(): number {
    return this.parked;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const { nats, source, stackId, logger } = this.options;
    const jsm = await jetstreamManager(nats);
    const stream = scopedStreamName(source, stackId);
    // A refusal (permissions) surfaces here, at start; only "not found" is waited out.
    const there = await jsm.streams.info(stream).then(() => true, (error: unknown) => {
      if (isStreamNotFound(error)) return false;
      throw error;
    });
    if (!there) {
      const waiting = new AbortController();
      this.waiting = waiting;
      this.running = true;
      this.loop = (async () => {
        try {
          await awaitServiceStream(nats, source, { stackId, logger, signal: waiting.signal });
          // Attaching can fail like any request (NATS reconnecting): retried, never given up while running.
          for (let delayMs = 1000; this.running; delayMs = Math.min(delayMs * 2, MAX_RETRY_BACKOFF_MS)) {
            try {
              const durable = await this.attach(jsm, stream);
              this.reportLag(jsm, stream, durable);
              if (this.running) await this.consume(stream, durable);
              return;
            } catch (error) {
              logger.error({ err: error, stream, consumer: this.options.name, retryInMs: delayMs }, 'could not attach the consumer to its stream');
              await sleep(delayMs, undefined, { signal: waiting.signal });
            }
          }
        } catch (error) {
          if (!waiting.signal.aborted) logger.error({ err: error, stream, consumer: this.options.name }, 'stopped waiting for the stream');
        }
      })();
      return;
    }
    const durable = await this.attach(jsm, stream);
    this.running = true;
    this.reportLag(jsm, stream, durable);
    this.loop = this.consume(stream, durable);
  }

  /**
   * The durable's lag, read from JetStream at each scrape: what the server holds for it, shared by every
   * replica (each replica reports the same numbers; alert on the max, not the sum).
   */
  private reportLag(jsm: JetStreamManager, stream: string, durable: string): void {
    this.unregisterLag?.();
    const consumer = this.options.name;
    this.unregisterLag = consumerPending.add({
      read: async () => {
        const info = await jsm.consumers.info(stream, durable);
        return [
          { labels: { consumer, state: 'waiting' }, value: info.num_pending },
          { labels: { consumer, state: 'unacknowledged' }, value: info.num_ack_pending },
        ];
      },
    });
  }

  /** Creates or updates this consumer's own durable on the stream; returns its name. */
  private async attach(jsm: JetStreamManager, stream: string): Promise<string> {
    const { nats, events, stackId } = this.options;
    const subjects = events.map((e) => e.subject);
    const durable = scopedConsumerName(this.options.name, stackId);
    const scoped = subjects.map((s) => scopedSubject(s, stackId));
    // One subject filters on the server everywhere; several need nats-server 2.10 (`filter_subjects`
    // throws before that). On an older server the consumer reads the whole stream and skips the rest.
    const filter = scoped.length === 1
      ? { filter_subject: scoped[0]! }
      : supportsMultipleFilters(nats) ? { filter_subjects: scoped } : {};
    this.clientFilter = scoped.length > 1 && !('filter_subjects' in filter) ? scoped : null;
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...filter,
      ack_wait: 30_000_000_000,
      max_deliver: -1,
    };
    try {
      await jsm.consumers.info(stream, durable);
      await jsm.consumers.update(stream, durable, { ...filter, ack_wait: config.ack_wait });
    } catch (error) {
      if (!String((error as Error).message).includes('not found')) throw error;
      await jsm.consumers.add(stream, config);
    }
    return durable;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unregisterLag?.();
    this.unregisterLag = null;
    this.waiting?.abort();
    // close() ends the iterator, but its promise settles only once the iterator is drained by the
    // loop, so it is not awaited here: awaiting the loop is what waits for the message in hand.
    void this.messages?.close().catch(() => undefined);
    await this.loop;
  }

  private async consume(stream: string, durable: string): Promise<void> {
    const js = jetstream(this.options.nats);
    while (this.running) {
      try {
        const consumer = await js.consumers.get(stream, durable);
        const messages = await consumer.consume({ max_messages: 100 });
        this.messages = messages;
        // stop() may have run while we were subscribing: it found nothing to close, and this
        // iterator would wait for messages forever.
        if (!this.running) void messages.close().catch(() => undefined);
        for await (const message of messages) {
          if (!this.running) {
            message.nak(); // already pulled: hand it straight back to the other replicas
            break;
          }
          await this.process(message);
        }
      } catch (error) {
        if (!this.running) return;
        this.options.logger.warn({ err: error, consumer: durable }, 'consumer interrupted; resuming');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async process(message: JsMsg): Promise<void> {
    if (message.redelivered) consumerRedeliveries.inc({ consumer: this.options.name });
    let event: PublishedEvent | null = null;
    try {
      event = message.json<PublishedEvent>();
    } catch {
      // handled below, as unparseable
    }
    // What this event causes is part of the request that caused it, with the event as its cause.
    const trace = { correlationId: event?.metadata?.correlationId ?? event?.eventId ?? `seq-${message.seq}`, causationId: event?.eventId ?? `seq-${message.seq}` };
    await withTrace(trace, () => this.processEvent(message, event));
  }

  private async processEvent(message: JsMsg, event: PublishedEvent | null): Promise<void> {
    if (this.clientFilter && !this.clientFilter.some((pattern) => subjectMatches(pattern, message.subject))) {
      message.ack();
      return;
    }
    const subject = unscopedSubject(message.subject, this.options.stackId);
    if (!event) {
      this.options.logger.error({ subject, seq: message.seq }, 'unparseable event; parked');
      await this.parkAtOnce(message, subject, null, 'unparseable payload');
      return;
    }
    const received = receiveEvent(this.options.events, subject, event);
    if (!received.ok) {
      this.options.logger.error({ subject, eventId: event.eventId, reason: received.reason }, 'event its declaration refuses; parked');
      await this.parkAtOnce(message, subject, event, received.reason);
      return;
    }
    try {
      const handledNow = await this.options.orm.em.fork().transactional(async (em) => {
        const inserted = await em.execute<{ event_id: string }[]>(
          'insert into inbox (consumer, event_id, subject) values (?, ?, ?) on conflict do nothing returning event_id',
          [this.options.name, event.eventId, subject],
        );
        if (inserted.length === 0) return false;
        await this.options.handle(em, received.event);
        return true;
      });
      if (handledNow) this.handled++;
      else this.duplicates++;
      consumerEvents.inc({ consumer: this.options.name, outcome: handledNow ? 'handled' : 'duplicate' });
      message.ack();
    } catch (error) {
      const deliveries = message.info.deliveryCount;
      if (deliveries >= (this.options.maxDeliveries ?? 10)) {
        // Terminate only once the event is safely parked: if parking fails too (the database is
        // down), the event stays in JetStream and comes back later instead of being dropped.
        if (await this.park(message, subject, event, String((error as Error).message))) {
          this.options.logger.error({ err: error, subject, eventId: event.eventId, deliveries }, 'event failed repeatedly; parked in dead_letters');
          consumerEvents.inc({ consumer: this.options.name, outcome: 'parked' });
          message.term();
          return;
        }
      } else {
        this.options.logger.warn({ err: error, subject, eventId: event.eventId, deliveries }, 'event handler failed; will retry');
      }
      consumerEvents.inc({ consumer: this.options.name, outcome: 'failed' });
      message.nak(this.backoff(deliveries));
    }
  }

  /** An event no retry can help: parked now, or retried later only when parking itself failed. */
  private async parkAtOnce(message: JsMsg, subject: string, event: PublishedEvent | null, reason: string): Promise<void> {
    if (await this.park(message, subject, event, reason)) {
      consumerEvents.inc({ consumer: this.options.name, outcome: 'parked' });
      message.term();
    } else message.nak(this.backoff(message.info.deliveryCount));
  }

  private backoff(deliveries: number): number {
    return Math.min((this.options.retryBackoffMs ?? 1000) * 2 ** (deliveries - 1), MAX_RETRY_BACKOFF_MS);
  }

  /** Records the event in dead_letters; false when that failed and the message must not be dropped. */
  private async park(message: JsMsg, subject: string, event: PublishedEvent | null, error: string): Promise<boolean> {
    try {
      await this.options.orm.em.fork().execute(
        `insert into dead_letters (consumer, subject, stream_seq, payload, error) values (?, ?, ?, ?::jsonb, ?)`,
        [this.options.name, subject, message.seq, JSON.stringify(event ?? { raw: message.string() }), error],
      );
      this.parked++;
      return true;
    } catch (e) {
      this.options.logger.error({ err: e, subject, seq: message.seq }, 'could not park a dead letter; will retry the event later');
      return false;
    }
  }
}
