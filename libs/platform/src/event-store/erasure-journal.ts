import pg from 'pg';
import type { Logger } from 'pino';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { ensureDatabase } from '../database/index.js';
import { DomainError } from '../errors/index.js';
import type { PerStreamSealing } from './sealing/stream-sealing.js';

/**
 * The erasure journal: every stream whose key a service destroyed (ids and times only, never content),
 * kept in a database of its own, `<prefix>erasures`, that no backup dumps and no restore overwrites.
 * Each service writes its erasures into its own `erasure_journal` table in the deletion's transaction
 * (PerStreamSealing.afterAppend) and copies them here within seconds; when it starts, it replays the
 * journal, so a snapshot older than a deletion, restored, loses what was deleted since.
 */
export interface ErasureRecord {
  erasureId: string;
  service: string;
  streamType: string;
  streamId: string;
  keyId: string;
  erasedAt: string;
}

/**
 * The erasure journal's database beside a service's own: `lv_letters` → `lv_erasures` (a restore keeps
 * the prefix, so the restored stack finds the same journal); a database named otherwise (a spec's) gets
 * `<its name>_erasures`. ERASURE_JOURNAL_URL, when set, names it instead.
 */
export function erasureJournalUrl(config: { DATABASE_URL: string; ERASURE_JOURNAL_URL?: string | undefined }, service: string): string {
  if (config.ERASURE_JOURNAL_URL) return config.ERASURE_JOURNAL_URL;
  const url = new URL(config.DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  const own = service.replace(/-/g, '_');
  url.pathname = name.endsWith(own) && name.length > own.length ? `/${name.slice(0, name.length - own.length)}erasures` : `/${name}_erasures`;
  return url.toString();
}

export class ErasureJournal {
  private pool: pg.Pool | null = null;

  constructor(private readonly url: string) {}

  /** Creates the journal's database and table when missing. */
  async open(): Promise<void> {
    if (this.pool) return;
    await ensureDatabase(this.url);
    const pool = new pg.Pool({ connectionString: this.url, max: 2, application_name: 'lv-erasures' });
    pool.on('error', () => undefined);
    // Services share this database and start together: "create ... if not exists" run at the same moment
    // by two of them can still collide in PostgreSQL's catalog, so one creates while the others wait.
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock(hashtext('lv-erasure-journal-schema'))`);
      await client.query(`
      create table if not exists erasures (
        erasure_id uuid primary key,
        service text not null,
        stream_type text not null,
        stream_id text not null,
        key_id text not null,
        erased_at timestamptz not null,
        journaled_at timestamptz not null default now()
      )`);
      await client.query('create index if not exists erasures_service_idx on erasures (service, erased_at)');
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      client.release();
      await pool.end().catch(() => undefined);
      throw error;
    }
    client.release();
    this.pool = pool;
  }

  private get db(): pg.Pool {
    if (!this.pool) throw new Error('the erasure journal is not open');
    return this.pool;
  }

  /** Copies the service's erasures not yet journaled (a retry inserts nothing twice); how many were copied. */
  async copyFrom(em: EntityManager, service: string): Promise<number> {
    let copied = 0;
    for (;;) {
      const rows = await em.fork().execute<{ erasure_id: string; stream_type: string; stream_id: string; key_id: string; erased_at: string }[]>(
        `select erasure_id::text, stream_type, stream_id, key_id, to_json(erased_at)#>>'{}' as erased_at
           from erasure_journal where journaled_at is null order by erased_at limit 500`,
      );
      if (rows.length === 0) return copied;
      await this.db.query(
        `insert into erasures (erasure_id, service, stream_type, stream_id, key_id, erased_at)
         select r.erasure_id, $1, r.stream_type, r.stream_id, r.key_id, r.erased_at
           from jsonb_to_recordset($2::jsonb) as r(erasure_id uuid, stream_type text, stream_id text, key_id text, erased_at timestamptz)
         on conflict (erasure_id) do nothing`,
        [service, JSON.stringify(rows)],
      );
      await em.fork().execute('update erasure_journal set journaled_at = now() where erasure_id in (select jsonb_array_elements_text(?::jsonb)::uuid)', [JSON.stringify(rows.map((r) => r.erasure_id))]);
      copied += rows.length;
    }
  }

  /** The service's erasures, oldest first. */
  async recordsOf(service: string): Promise<ErasureRecord[]> {
    const { rows } = await this.db.query<ErasureRecord>(
      `select erasure_id::text as "erasureId", service, stream_type as "streamType", stream_id as "streamId", key_id as "keyId", to_json(erased_at)#>>'{}' as "erasedAt"
         from erasures where service = $1 order by erased_at, erasure_id`,
      [service],
    );
    return rows;
  }

  async close(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
    this.pool = null;
  }
}

/**
 * How a service erases one kind of stream again through its own deletion: the stream's deletion event
 * appended when the stream is alive (a restore brought it back), its read-model rows and objects
 * removed with it; nothing when it is already deleted.
 */
export interface ErasureHandler {
  streamType: string;
  /** True when the stream was alive and is deleted now. */
  eraseAgain(streamId: string): Promise<boolean>;
}

export interface ErasureReplayReport {
  records: number;
  /** Streams found alive again and deleted again through their handler. */
  erasedAgain: number;
}

/** A replica replaying at the same time may have deleted the stream first: its NOT_FOUND is "already erased". */
async function eraseAgainOnce(handler: ErasureHandler, streamId: string): Promise<boolean> {
  try {
    return await handler.eraseAgain(streamId);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return false;
    throw error;
  }
}

/**
 * Replays the service's journal: each stream's handler runs its deletion again, then its key is
 * destroyed (again: idempotent). A stream type without a handler still loses its key.
 */
export async function replayErasures(options: {
  journal: Pick<ErasureJournal, 'recordsOf'>;
  service: string;
  handlers: readonly ErasureHandler[];
  /** Destroys a stream's key in every sealing of the service (idempotent). */
  destroyKey: (streamType: string, streamId: string) => Promise<void>;
}): Promise<ErasureReplayReport> {
  const handlers = new Map(options.handlers.map((h) => [h.streamType, h]));
  const records = await options.journal.recordsOf(options.service);
  let erasedAgain = 0;
  for (const record of records) {
    const handler = handlers.get(record.streamType);
    if (handler && await eraseAgainOnce(handler, record.streamId)) erasedAgain++;
    await options.destroyKey(record.streamType, record.streamId);
  }
  return { records: records.length, erasedAgain };
}

/**
 * A service's part of the erasure journal, a Startable: at start (before requests are taken) it
 * copies its pending erasures and replays the journal; then it copies new erasures every `everyMs`.
 * The operators' `erasures:replay` runs the same replay on demand (replayNow).
 */
export class ErasureJournalKeeper {
  private timer: NodeJS.Timeout | undefined;
  private copying: Promise<number> | null = null;

  constructor(private readonly options: {
    journal: ErasureJournal; orm: MikroORM; service: string; sealings: readonly PerStreamSealing[]; handlers: readonly ErasureHandler[]; logger: Pick<Logger, 'info' | 'error'>; everyMs?: number;
  }) {}

  /** Copies the erasures not yet in the journal (one copy at a time). */
  copyNow(): Promise<number> {
    return (this.copying ??= this.options.journal.copyFrom(this.options.orm.em, this.options.service).finally(() => { this.copying = null; }));
  }

  /** Copies, replays the whole journal of this service, and copies the erasures the replay made. */
  async replayNow(): Promise<ErasureReplayReport> {
    await this.copyNow();
    const { journal, orm, service, sealings, handlers } = this.options;
    const destroyKey = async (streamType: string, streamId: string) => {
      for (const sealing of sealings) await sealing.destroyKey(orm.em.fork(), streamType, streamId);
    };
    const report = await replayErasures({ journal, service, handlers, destroyKey });
    if (report.erasedAgain) await this.copyNow();
    this.options.logger.info(report, report.erasedAgain ? `erased ${report.erasedAgain} stream(s) again from the erasure journal` : 'erasure journal replayed');
    return report;
  }

  async start(): Promise<void> {
    await this.options.journal.open();
    await this.replayNow();
    this.timer = setInterval(() => void this.copyNow().catch((err: unknown) => this.options.logger.error({ err }, 'could not copy erasures into the erasure journal')), this.options.everyMs ?? 2000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.copying?.catch(() => undefined);
    await this.options.journal.close();
  }
}
