import { Queues } from '@lv/contracts';
import type { Logger } from '@lv/platform/logging';
import { createRedisConnection, createWorker, sleepUntil } from '@lv/platform/queues';
import type { IdentityConfig } from '../config.js';
import type { AccountDeletion } from './account-deletion.js';

/**
 * The grace period's timers: identity's worker on the account-erasure queue, and their re-derivation
 * from account_deletions at start and every ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS (README "Timers never
 * live only in Redis"): a flushed Redis delays an erasure by one interval at most, never loses it.
 */
export function accountErasureRunner(config: Pick<IdentityConfig, 'REDIS_URL' | 'ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS'>, deletion: AccountDeletion, logger: Pick<Logger, 'info' | 'error'>) {
  const connection = createRedisConnection(config.REDIS_URL, { role: 'worker', name: 'identity' });
  const worker = createWorker(Queues.AccountErasure, async (data, job, token) => {
    const result = await deletion.erase(data);
    // Woken before its time (clock skew): the same job waits again, under the id the re-derivation uses.
    if (result.outcome === 'not-due') await sleepUntil(job, token, result.dueAt);
    return result.outcome;
  }, connection, {
    autorun: false,
    onDeadLetter: (job, error, data) => logger.error({ deletionId: data?.deletionId, jobId: job.id, attempts: job.attemptsMade, err: error }, 'account erasure failed for good: account:erase-due finishes it'),
  });
  worker.on('error', (err) => logger.error({ err }, 'account erasure worker error'));
  const rearm = () => deletion.rearm().then(
    (pending) => logger.info({ pending }, 'account erasure jobs re-derived'),
    (err: unknown) => logger.error({ err }, 'could not re-derive the account erasure jobs'),
  );
  let timer: NodeJS.Timeout | undefined;
  return {
    /** Once the service is ready: the worker runs, and the jobs are re-derived now and periodically. */
    start: () => {
      void worker.run().catch((err: unknown) => logger.error({ err }, 'account erasure worker stopped'));
      void rearm();
      timer = setInterval(() => void rearm(), config.ACCOUNT_ERASURE_REARM_INTERVAL_SECONDS * 1000);
      timer.unref();
      return Promise.resolve();
    },
    stop: () => {
      clearInterval(timer);
      return worker.close();
    },
    disconnect: () => connection.disconnect(),
  };
}
