import { ALL_QUEUE_DECLARATIONS, ALL_QUEUES, type QueueName } from '@lv/contracts';
import { createQueue, createRedisConnection, type TypedQueue } from '@lv/platform/queues';
import type { Redis } from 'ioredis';

/** A dead-lettered job as the CLI prints it: what failed and why, never its data (addresses, sealed keys). */
export interface FailedJobView {
  id: string;
  attemptsMade: number;
  failedReason: string;
  queuedAt: string | null;
  failedAt: string | null;
}

export interface RedriveResult {
  queue: QueueName;
  /** Jobs moved from the failed set back to waiting, with their attempts reset. */
  retried: string[];
  /** Ids asked for that are not in the failed set (unknown, or no longer failed). */
  notFailed: string[];
}

/** What the job commands need: the failed set of a queue and a way to retry from it. */
export interface QueueOperations {
  failed(queue: QueueName): Promise<FailedJobView[]>;
  redrive(queue: QueueName, which: { ids: string[] } | 'all'): Promise<RedriveResult>;
  close(): Promise<void>;
}

export const isQueueName = (value: string): value is QueueName => (ALL_QUEUES as readonly string[]).includes(value);

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

/** Reads this many failed jobs per page; a failed set is listed whole. */
const PAGE = 500;

/**
 * The failed sets (dead letters) of the platform's queues, through BullMQ on the stack's Redis and key
 * prefix (STACK_ID). A redriven job is retried by BullMQ itself (`job.retry('failed')`): the same job,
 * the same id and data, its attempts reset, so the worker's own idempotency still holds.
 */
export function bullmqQueueOperations(redisUrl: string, prefix?: string): QueueOperations {
  const connection: Redis = createRedisConnection(redisUrl, { role: 'producer', name: 'vault-cli' });
  const queues = new Map<QueueName, TypedQueue<unknown>>();
  const queueOf = (name: QueueName) => {
    let queue = queues.get(name);
    if (!queue) {
      const declaration = ALL_QUEUE_DECLARATIONS.find((declared) => declared.name === name);
      if (!declaration) throw new Error(`unknown queue "${name}"`);
      queue = createQueue<unknown>(declaration, connection, prefix === undefined ? {} : { prefix });
      queues.set(name, queue);
    }
    return queue;
  };
  const allFailed = async (name: QueueName) => {
    const queue = queueOf(name);
    const jobs = [];
    for (let start = 0; ; start += PAGE) {
      const page = await queue.getFailed(start, start + PAGE - 1);
      jobs.push(...page.filter(Boolean));
      if (page.length < PAGE) return jobs;
    }
  };
  return {
    async failed(name) {
      return (await allFailed(name)).map((job) => ({
        id: String(job.id), attemptsMade: job.attemptsMade, failedReason: job.failedReason ?? '', queuedAt: iso(job.timestamp), failedAt: iso(job.finishedOn),
      }));
    },
    async redrive(name, which) {
      const queue = queueOf(name);
      const retried: string[] = [];
      const notFailed: string[] = [];
      const jobs = which === 'all' ? await allFailed(name) : await Promise.all(which.ids.map(async (id) => (await queue.getJob(id)) ?? id));
      for (const job of jobs) {
        if (typeof job === 'string') { notFailed.push(job); continue; }
        if (!(await job.isFailed())) { notFailed.push(String(job.id)); continue; }
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        retried.push(String(job.id));
      }
      return { queue: name, retried, notFailed };
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close().catch(() => undefined)));
      connection.disconnect();
    },
  };
}
