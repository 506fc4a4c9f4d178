import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { IdentityEvents } from '@lv/contracts';
import { scopedConsumerName, scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import { waitFor } from './nats-server.js';
import { queryDatabase } from './restore-drill.js';

/**
 * identity's AccountErased as its outbox relay publishes it (Nats-Msg-Id: the event id). `messageId`
 * other than the event id stands for a relay that published the same event again after JetStream's
 * duplicate window: only the consumer's inbox keeps it from being handled twice.
 */
export async function publishAccountErased(nc: NatsConnection, userId: string, stackId: string, options: { eventId?: string; messageId?: string } = {}): Promise<string> {
  const eventId = options.eventId ?? randomUUID();
  const h = natsHeaders();
  h.set('Nats-Msg-Id', options.messageId ?? eventId);
  const erasedAt = new Date().toISOString();
  const body = { eventId, type: 'AccountErased', streamId: `user-${userId}`, version: 9, occurredAt: erasedAt, data: { userId, erasedAt }, metadata: {} };
  await jetstream(nc).publish(scopedSubject(IdentityEvents.AccountErased, stackId), JSON.stringify(body), { headers: h });
  return eventId;
}

/** The tables of a database (public schema) holding `word` anywhere in a row, case-insensitively: [] when none. */
export async function tablesHolding(database: string, word: string): Promise<string[]> {
  const tables = await queryDatabase<{ table_name: string }>(database, `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const holding: string[] = [];
  for (const { table_name: table } of tables) {
    const [row] = await queryDatabase<{ n: number }>(database, `select count(*)::int as n from "${table}" t where t::text ilike $1`, [`%${word}%`]);
    if (row && row.n > 0) holding.push(table);
  }
  return holding;
}

/**
 * Waits until a service's durable consumer of identity's stream has been handed at least `delivered`
 * messages and holds none pending or unacknowledged: every delivery handled (or parked), nothing slept.
 */
export async function waitForIdentityConsumer(nc: NatsConnection, durable: string, stackId: string, delivered: number, timeoutMs = 20_000): Promise<void> {
  const jsm = await jetstreamManager(nc);
  await waitFor(async () => {
    const info = await jsm.consumers.info(scopedStreamName('identity', stackId), scopedConsumerName(durable, stackId)).catch(() => null);
    return info !== null && info.delivered.stream_seq >= delivered && info.num_pending === 0 && info.num_ack_pending === 0;
  }, timeoutMs, `${durable} to handle ${delivered} message(s)`);
}
