import { jetstreamManager } from '@nats-io/jetstream';
import type { PublishedEvent, ServiceName } from '@lv/contracts';
import { connectNats, scopedStreamName } from '@lv/platform/messaging';
import type { TestDatabase } from './database.js';
import { waitFor } from './nats-server.js';

export interface WritesThroughKillOptions<W> {
  writes: readonly W[];
  /** Writers sending at once. */
  concurrency: number;
  /**
   * Sends one write; resolves once it was answered with success, throws what was answered otherwise (or
   * an Error for a wrong answer). Resolves to when the answered write was committed (epoch ms) when the
   * answer says so: a retry answered with a commit from before the kill was committed by the killed process.
   * A retry of a committed write must be answered as the first attempt would have been (issue 30): no
   * refusal counts as "done before".
   */
  send: (write: W) => Promise<number | void>;
  /** The error says no answer came (the process was down, or killed mid-request): the same write is sent again. */
  unanswered: (error: unknown) => boolean;
  /** The kill comes at the first answer after this many answers... */
  killAfterAcks: number;
  /** ...with at least this many writes sent and not yet answered. */
  minInFlight: number;
  /** SIGKILLs the service and starts it again on the same database. */
  killAndRestart: () => Promise<void>;
  /** A write's name in the report of an unexpected answer. */
  describe: (write: W) => string;
  /** Pause before sending an unanswered write again (default 100 ms). */
  retryPauseMs?: number;
}

export interface WritesThroughKillReport {
  acknowledged: number;
  /** Unexpected answers and errors: anything but a successful answer or no answer (a retry's refusal included). */
  unexpected: string[];
  acksAtKill: number;
  /** Writes sent before the kill and not answered when it came. */
  inFlightAtKill: number;
  /** Attempts sent before the kill that never got an answer: the kill cut them off. */
  cutOff: number;
  /** Writes that needed more than one attempt, and attempts in all. */
  retried: number;
  attempts: number;
  /** Retried writes the killed process had already committed, as far as their answers tell (see `send`). */
  committedBeforeKill: number;
  seconds: number;
  /** The run in one sentence, for the spec's log line. */
  summary: string;
}

/**
 * The client side of a kill test (issue 30): `writes` sent `concurrency` at a time the way the SPA
 * sends them (a write that got no answer is sent again until it is answered) while the service is
 * SIGKILLed once and started again. The kill waits for a condition, checked at each answer: enough
 * answered, and enough still in flight. The spec then proves every acknowledged write is there once.
 */
export async function runWritesThroughKill<W>(options: WritesThroughKillOptions<W>): Promise<WritesThroughKillReport> {
  const started = Date.now();
  const report: Omit<WritesThroughKillReport, 'seconds' | 'summary'> = {
    acknowledged: 0, unexpected: [], acksAtKill: -1, inFlightAtKill: -1, cutOff: 0, retried: 0, attempts: 0, committedBeforeKill: 0,
  };
  let next = 0;
  /** Attempts sent and attempts answered (or failed) so far: their difference is what is in flight. */
  let sent = 0;
  let finished = 0;
  let killed = false;
  let killedAt = Number.POSITIVE_INFINITY;
  // Typed by a cast, not an annotation: TypeScript would narrow an annotated `null` for good, not seeing
  // the writers assign it, and `await restart` below would look like awaiting null.
  let restart = null as Promise<void> | null;
  let restartFailed: Error | undefined;

  const acknowledge = () => {
    report.acknowledged++;
    if (restart || report.acknowledged < options.killAfterAcks || sent - finished < options.minInFlight) return;
    report.acksAtKill = report.acknowledged;
    report.inFlightAtKill = sent - finished;
    killed = true;
    killedAt = Date.now();
    restart = options.killAndRestart().catch((error: Error) => void (restartFailed = error));
  };

  const writer = async () => {
    for (;;) {
      const write = options.writes[next++];
      if (write === undefined) return;
      for (let attempt = 1; ; attempt++) {
        if (restartFailed) throw restartFailed;
        report.attempts++;
        if (attempt === 2) report.retried++;
        const sentBeforeKill = !killed;
        sent++;
        try {
          const committedAt = await options.send(write).finally(() => finished++);
          if (attempt > 1 && typeof committedAt === 'number' && committedAt < killedAt) report.committedBeforeKill++;
          acknowledge();
          break;
        } catch (error) {
          if (options.unanswered(error)) {
            if (sentBeforeKill) report.cutOff++;
            await new Promise((resolve) => setTimeout(resolve, options.retryPauseMs ?? 100));
            continue;
          }
          const code = (error as { code?: unknown } | null)?.code;
          report.unexpected.push(`${options.describe(write)}: ${typeof code === 'string' ? `${code} ` : ''}${(error as Error).message}`);
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, writer));
  await restart;
  const seconds = (Date.now() - started) / 1000;
  return {
    ...report, seconds,
    summary: `${report.acknowledged} writes acknowledged in ${seconds.toFixed(1)} s; SIGKILL after ${report.acksAtKill} acknowledgements with ${report.inFlightAtKill} in flight at the kill `
      + `(${report.cutOff} attempts never answered); ${report.retried} writes needed a retry (${report.attempts} attempts in all), ${report.committedBeforeKill} of them already committed by the killed process`,
  };
}

/** Streams of the store whose versions are not 1..n (a version missing; a repeat the unique key forbids). */
export async function streamsWithVersionGaps(db: TestDatabase): Promise<string[]> {
  const rows = await db.orm.em.fork().execute<{ stream_id: string }[]>('select stream_id from events group by stream_id having count(*) <> max(version) or min(version) <> 1');
  return rows.map((row) => row.stream_id);
}

/**
 * Waits for the service's outbox to drain, then reads its JetStream stream from first to last: the
 * event id of every message, in order (an id twice is an event published twice).
 */
export async function publishedEventIds(db: TestDatabase, natsUrl: string, service: ServiceName, stackId: string): Promise<string[]> {
  await waitFor(async () => (await db.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from outbox'))[0]!.n === 0, 30_000, 'the outbox to drain');
  const nc = await connectNats(natsUrl, `${service}-published-reader`);
  try {
    const jsm = await jetstreamManager(nc);
    const stream = scopedStreamName(service, stackId);
    const info = await jsm.streams.info(stream);
    const ids: string[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (message) ids.push((JSON.parse(message.string()) as PublishedEvent<unknown>).eventId);
    }
    return ids;
  } finally {
    await nc.close();
  }
}
