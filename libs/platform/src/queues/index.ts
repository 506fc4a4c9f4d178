import { DelayedError, Queue, UnrecoverableError, Worker, type DefaultJobOptions, type Job, type JobsOptions, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';
import { createHash } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';
import type { QueueDeclaration } from '@lv/contracts';
import { openSealedText, sealText, type SealedText } from '../sealing/sealed-text.js';
import { currentTrace, withTrace, type TraceContext } from '../logging/trace-context.js';
import { jobDuration, jobsProcessed, queueJobs } from '../observability/metrics.js';

/**
 * BullMQ helpers, generic over the job payload: each queue is declared in @lv/contracts (queues.ts)
 * with the schema of its jobs' data, so the platform knows no feature. A producer refuses data its
 * queue's schema does not pass (a bad job never reaches Redis), and a worker validates what it takes:
 * a job whose data does not pass fails at once, without retries. Jobs are background work with
 * retries (mail, hashing, timers); domain events travel on JetStream, not here.
 *
 * Every job is idempotent and added with a `jobId` derived from what it is about, so adding it twice
 * stores it once. A job that still fails after its attempts stays in the queue's failed set: that
 * set is the dead-letter record (visible in the board, retried by hand with `job.retry()`).
 */

/** A queue's declaration, by the data its jobs carry. */
export type DeclaredQueue<P> = QueueDeclaration<string, z.ZodType<P>>;

/** A queue whose jobs carry payload P, with the declaration its producers validate against; each job's name is the queue's name. */
export class TypedQueue<P> extends Queue<P, unknown, string, P, unknown, string> {
  constructor(readonly declaration: DeclaredQueue<P>, options: QueueOptions) {
    super(declaration.name, options);
  }
}
export type TypedJob<P> = Job<P, unknown, string>;
/** A worker's jobs are raw until validated: their data is unknown (the processor gets it typed). */
export type QueueWorker = Worker<unknown, unknown, string>;

/** Retries with exponential backoff (1 s, 2 s, 4 s, 8 s); completed jobs are trimmed, failed ones kept. */
export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000, age: 7 * 24 * 3600 },
  removeOnFail: false,
};

/**
 * Key prefix of every queue. A stack started with STACK_ID (the e2e stack) gets its own keys, so
 * its workers never take jobs of the developer's stack on the same Redis.
 */
export function queuePrefix(stackId = process.env.STACK_ID ?? ''): string {
  return stackId ? `lv-${stackId}` : 'lv';
}

export interface RedisConnectionOptions {
  /**
   * Workers block on Redis and must wait through a reconnect instead of failing commands, so
   * their connections have `maxRetriesPerRequest: null` (BullMQ requires it). Producers fail a
   * command after a few retries, so an HTTP request that enqueues does not hang while Redis is down.
   */
  role: 'worker' | 'producer';
  /** Shown by `CLIENT LIST`: `<app>:<role>`. */
  name?: string;
  extra?: RedisOptions;
}

export function createRedisConnection(url: string, { role, name, extra }: RedisConnectionOptions): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 3,
    enableReadyCheck: true,
    connectionName: name ? `${name}:${role}` : undefined,
    retryStrategy: (times) => Math.min(200 * 2 ** times, 5000),
    ...extra,
  });
}

export interface CreateQueueOptions {
  prefix?: string;
  defaultJobOptions?: DefaultJobOptions;
}

export function createQueue<P>(declaration: DeclaredQueue<P>, connection: Redis, options: CreateQueueOptions = {}): TypedQueue<P> {
  return new TypedQueue(declaration, {
    connection,
    prefix: options.prefix ?? queuePrefix(),
    defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...options.defaultJobOptions },
  });
}

/**
 * Adds a job under an explicit id: a second add with the same id is a no-op while the first is
 * still stored (BullMQ dedupes by id), which makes producers safe to retry. Data the queue's schema
 * does not pass is refused here (InvalidJobDataError), before it reaches Redis.
 */
export function enqueue<P>(queue: TypedQueue<P>, data: P, jobId: string, options: JobsOptions = {}): Promise<TypedJob<P>> {
  if (!jobId || jobId.includes(':')) throw new Error(`a job id is required and must not contain ":" (got "${jobId}")`);
  return queue.add(queue.name, withJobTrace(parseJobData(queue.declaration, data)), { ...options, jobId });
}

/**
 * Job data its queue's schema does not pass. It extends BullMQ's UnrecoverableError, so a worker that
 * meets it fails the job at once: a retry would read the same data.
 */
export class InvalidJobDataError extends UnrecoverableError {
  constructor(queueName: string, readonly issues: readonly string[]) {
    super(`job data does not match the "${queueName}" queue's schema: ${issues.join('; ')}`);
  }
}

/** The job's data as its declaration's schema reads it (unknown fields dropped), or InvalidJobDataError. */
export function parseJobData<P>(declaration: DeclaredQueue<P>, data: unknown): P {
  const result = declaration.payload.safeParse(withoutJobTrace(data));
  if (result.success) return result.data;
  throw new InvalidJobDataError(declaration.name, result.error.issues.map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`));
}

/** Where a job's data carries the trace of the request that queued it (the worker logs under it). */
export const JOB_TRACE_FIELD = '_trace';

/** The job data with the current trace added (the correlation id, and the event that caused it). */
export function withJobTrace<P>(data: P, trace: TraceContext | undefined = currentTrace()): P {
  if (!trace || !data || typeof data !== 'object' || Array.isArray(data)) return data;
  const carried: TraceContext = { correlationId: trace.correlationId, ...(trace.causationId !== undefined && { causationId: trace.causationId }) };
  return { ...data, [JOB_TRACE_FIELD]: carried };
}

/** The job's data without the trace the platform added: what its queue's schema reads. */
export function withoutJobTrace(data: unknown): unknown {
  if (!isRecord(data) || !(JOB_TRACE_FIELD in data)) return data;
  const { [JOB_TRACE_FIELD]: _trace, ...rest } = data;
  return rest;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const carriedTraceSchema = z.object({ correlationId: z.string().optional().catch(undefined), causationId: z.string().optional().catch(undefined) });

/** The trace a job works under: the one its producer carried, else one of its own (`job-<queue>-<id>`). */
export function jobTrace(job: Pick<Job, 'data' | 'id' | 'queueName'>): TraceContext {
  const carried = isRecord(job.data) ? carriedTraceSchema.safeParse(job.data[JOB_TRACE_FIELD]).data : undefined;
  const own = `job-${job.queueName}-${job.id ?? 'new'}`;
  return {
    correlationId: carried?.correlationId ?? own,
    causationId: carried?.causationId,
    requestId: own,
  };
}

/** The job counts of a queue for the metrics (the states an operator watches). */
export const WATCHED_JOB_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed'] as const;

/** Works one job: its data validated and typed, the raw job for its id and attempts. */
export type JobProcessor<P> = (data: P, job: Job<unknown, unknown, string>, token?: string, signal?: AbortSignal) => Promise<unknown>;

/**
 * Ends this run of a timed job that woke before its time: the same job (same id, same data) waits
 * again until `at`. A new job would need a new id, and whoever re-derives timers from their source
 * of truth would not know it and add the first id back: one wake, under one id, is what they expect.
 */
export async function sleepUntil(job: Job<unknown, unknown, string>, token: string | undefined, at: string): Promise<never> {
  await job.moveToDelayed(Date.parse(at), token);
  throw new DelayedError();
}

export interface CreateWorkerOptions<P> extends Partial<Omit<WorkerOptions, 'connection' | 'prefix'>> {
  prefix?: string;
  /**
   * Called once a job stays in the failed set (dead letter): it used all its attempts, or failed for
   * good at once (UnrecoverableError). `data` is null when the job's data did not pass the schema.
   */
  onDeadLetter?: (job: Job<unknown, unknown, string>, error: Error, data: P | null) => void;
}

export function createWorker<P>(declaration: DeclaredQueue<P>, processor: JobProcessor<P>, connection: Redis, options: CreateWorkerOptions<P> = {}): QueueWorker {
  const { prefix, onDeadLetter, ...workerOptions } = options;
  const { name } = declaration;
  if (connection.options.maxRetriesPerRequest !== null) {
    throw new Error('a worker needs a Redis connection created with role "worker" (maxRetriesPerRequest: null)');
  }
  // Each attempt runs under the trace its producer carried, and is timed and counted by outcome.
  const observed: Processor<unknown, unknown, string> = (job, token, signal) => withTrace(jobTrace(job), async () => {
    const end = jobDuration.startTimer({ queue: name });
    try {
      const result = await processor(parseJobData(declaration, job.data), job, token, signal);
      end({ outcome: 'completed' });
      jobsProcessed.inc({ queue: name, outcome: 'completed' });
      return result;
    } catch (error) {
      const outcome = error instanceof DelayedError ? 'delayed' : 'failed';
      end({ outcome });
      jobsProcessed.inc({ queue: name, outcome });
      throw error;
    }
  });
  const worker = new Worker<unknown, unknown, string>(name, observed, {
    concurrency: 1,
    ...workerOptions,
    connection,
    prefix: prefix ?? queuePrefix(),
  });
  // The queue's job counts are reported by each process that works it (the scrape reads them then).
  const counts = new Queue(name, { connection, prefix: prefix ?? queuePrefix() });
  const unregister = queueJobs.add({
    async read() {
      const found = await counts.getJobCounts(...WATCHED_JOB_STATES);
      return WATCHED_JOB_STATES.map((state) => ({ labels: { queue: name, state }, value: found[state] ?? 0 }));
    },
  });
  worker.on('closed', () => {
    unregister();
    counts.close().catch(() => undefined);
  });
  if (onDeadLetter) {
    worker.on('failed', (job, error) => {
      if (!job || !(isDeadLettered(job) || error instanceof UnrecoverableError || error.name === 'UnrecoverableError')) return;
      const parsed = declaration.payload.safeParse(withoutJobTrace(job.data));
      onDeadLetter(job, error, parsed.success ? parsed.data : null);
    });
  }
  return worker;
}

/** True when the job failed on its last allowed attempt (it stays in the failed set). */
export function isDeadLettered(job: Pick<Job, 'attemptsMade' | 'opts' | 'finishedOn' | 'failedReason'>): boolean {
  return Boolean(job.failedReason) && job.attemptsMade >= (job.opts.attempts ?? 1);
}

/**
 * A secret a job carries through Redis (an access key in its e-mail job), sealed with AES-256-GCM
 * under SHA-256 of a secret only its producer and its worker hold, and bound to `context` (the job's
 * subject), so a sealed value moved into another job does not open.
 */
export function sealForJob(secret: string, context: string, plaintext: string): SealedText {
  return sealText(jobKey(secret), plaintext, context);
}

export function openFromJob(secret: string, context: string, sealed: SealedText): string {
  return openSealedText(jobKey(secret), sealed, context);
}

const jobKey = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();
