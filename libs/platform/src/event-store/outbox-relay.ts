import pg from 'pg';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { Logger } from 'pino';
import { scopedSubject } from '../messaging/subjects.js';
import { outboxLag, outboxPending, outboxPublished } from '../observability/metrics.js';

export interface OutboxRelayOptions {
  databaseUrl: string;
  nats: NatsConnection;
  logger: Logger;
  batchSize?: number;
  /** Poll interval when nothing notifies (missed notifications, other replicas). */
  idlePollMs?: number;
  /** How long a publish waits for JetStream's acknowledgement before the row is retried (default 5000). */
  publishTimeoutMs?: number;
  stackId?: string;
}

interface OutboxRow {
  id: string;
  event_id: string;
  subject: string;
  payload: unknown;
}

/**
 * Moves committed outbox rows to JetStream. Each batch is claimed with FOR UPDATE SKIP LOCKED (so
 * replicas never publish the same row at once), published with `Nats-Msg-Id` = event id, and
 * deleted once its publish was acknowledged. A crash or a NATS outage between publish and delete
 * republishes the row later; JetStream's duplicate window and the consumers' inbox make that
 * harmless. Order is kept while publishes succeed: one relay loop, publishes pipelined in row
 * order. A row whose publish fails stays (with its attempts counted) and is retried, without
 * holding back the rows after it.
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly js: JetStreamClient;
  private listener: pg.Client | null = null;
  private running = false;
  private wake: (() => void) | null = null;
  /** A notification that arrived while a batch was running: the next sleep must not wait for it. */
  private woken = false;
  private loop: Promise<void> | null = null;
  private published = 0;
  private duplicates = 0;
  /** The metrics label: the database this relay drains (one per service). */
  private readonly database: string;
  private readonly unregisterMetrics: (() => void)[] = [];

  constructor(private readonly options: OutboxRelayOptions) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
    this.pool.on('error', (error) => options.logger.warn({ err: error }, 'outbox relay pool error'));
    this.js = jetstream(options.nats);
    this.database = new URL(options.databaseUrl).pathname.slice(1) || 'unknown';
  }

  /** What waits in the outbox now: rows not yet published and the age of the oldest (the relay's lag). */
  async backlog(): Promise<{ pending: number; oldestAgeSeconds: number }> {
    const { rows } = await this.pool.query<{ pending: string; age: number | null }>(
      'select count(*)::text as pending, extract(epoch from now() - min(created_at))::float8 as age from outbox');
    return { pending: Number(rows[0]?.pending ?? 0), oldestAgeSeconds: Math.max(0, rows[0]?.age ?? 0) };
  }

  /** Rows published and deleted from the outbox by this relay. */
  get publishedCount(): number {
    return this.published;
  }

  /** Of those, the ones JetStream already had (acknowledged as duplicates within its window). */
  get duplicateCount(): number {
    return this.duplicates;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const labels = { database: this.database };
    this.unregisterMetrics.push(
      outboxPending.add({ read: async () => [{ labels, value: (await this.backlog()).pending }] }),
      outboxLag.add({ read: async () => [{ labels, value: (await this.backlog()).oldestAgeSeconds }] }),
    );
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const unregister of this.unregisterMetrics.splice(0)) unregister();
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  /** Publishes everything pending now; returns how many rows went out. Used by tests and at shutdown. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.publishBatch();
      total += n;
      if (n === 0) return total;
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    try {
      client.on('error', () => {
        // A dead LISTEN connection: polling covers until run() opens a new one.
        if (this.listener === client) this.listener = null;
        client.end().catch(() => undefined);
      });
      client.on('notification', () => {
        this.woken = true;
        this.wake?.();
      });
      await client.connect();
      await client.query('listen outbox');
      this.listener = client;
    } catch (error) {
      await client.end().catch(() => undefined);
      this.options.logger.warn({ err: error }, 'outbox relay could not LISTEN; falling back to polling');
    }
  }

  private async run(): Promise<void> {
    let backoffMs = 100;
    while (this.running) {
      try {
        this.woken = false;
        const n = await this.publishBatch();
        backoffMs = 100;
        if (n > 0 || this.woken) continue;
        if (!this.listener) await this.listen();
        await this.sleep(this.options.idlePollMs ?? 1000);
      } catch (error) {
        this.options.logger.warn({ err: error, retryInMs: backoffMs }, 'outbox relay: publish failed, will retry');
        await this.sleep(backoffMs);
        backoffMs = Math.min(backoffMs * 2, 5000);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.wake = null; resolve(); }, ms);
      this.wake = () => { clearTimeout(timer); this.wake = null; resolve(); };
    });
  }

  private async publishBatch(): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      // `order by o.id`, qualified: a bare `id` would sort by the ::text output column ('10' < '9')
      // and publish out of order.
      const { rows } = await client.query<OutboxRow>(
        'select o.id::text as id, o.event_id, o.subject, o.payload from outbox o order by o.id limit $1 for update skip locked',
        [this.options.batchSize ?? 100],
      );
      if (rows.length === 0) {
        await client.query('commit');
        return 0;
      }
      // Pipelined in row order on one connection: JetStream stores them in that order.
      const results = await Promise.allSettled(rows.map((row) =>
        this.js.publish(scopedSubject(row.subject, this.options.stackId), JSON.stringify(row.payload), { msgID: row.event_id, timeout: this.options.publishTimeoutMs ?? 5000 })));
      const acked = rows.filter((_, i) => results[i]!.status === 'fulfilled').map((r) => r.id);
      const failed = rows.filter((_, i) => results[i]!.status === 'rejected').map((r) => r.id);
      const duplicates = results.filter((r) => r.status === 'fulfilled' && r.value.duplicate).length;
      // Rows JetStream acknowledged are gone for good, even when others in the batch failed:
      // republishing them would only feed the duplicate window.
      if (acked.length) await client.query('delete from outbox where id = any($1::bigint[])', [acked]);
      if (failed.length) {
        const firstError = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as Error;
        await client.query('update outbox set attempts = attempts + 1, last_error = $2 where id = any($1::bigint[])', [failed, String(firstError?.message).slice(0, 500)]);
        await client.query('commit');
        this.published += acked.length;
        this.duplicates += duplicates;
        outboxPublished.inc({ database: this.database }, acked.length);
        if (acked.length === 0) throw firstError; // nothing moves: back off
        this.options.logger.warn({ err: firstError, failed: failed.length, published: acked.length }, 'outbox relay: some publishes failed, will retry them');
        return acked.length;
      }
      await client.query('commit');
      this.published += rows.length;
      outboxPublished.inc({ database: this.database }, rows.length);
      this.duplicates += duplicates;
      return rows.length;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
