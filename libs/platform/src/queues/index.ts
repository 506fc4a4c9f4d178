import { Queue, Worker, type DefaultJobOptions, type Job, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * The one registry of BullMQ queues and their job payloads. Jobs are background work with retries
 * (mail, hashing, timers); domain events travel on JetStream, not here.
 *
 * Every job is idempotent and added with a `jobId` derived from what it is about, so adding it twice
 * stores it once. A job that still fails after its attempts stays in the queue's failed set: that
 * set is the dead-letter record (visible in the board, retried by hand with `job.retry()`).
 */
export const QueueNames = {
  KeyEmails: 'key-emails',
  MediaHashing: 'media-hashing',
  DeliveryTiming: 'delivery-timing',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];
export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueNames);

/** Sends the e-mail carrying an access key (or a reminder of it) to its recipient. */
export interface SendKeyEmailJob {
  accessKeyId: string;
  recipientEmail: string;
  kind: 'key-issued' | 'reminder';
}

/** Computes the SHA-256 of a stored object and records it on the media item. */
export interface HashMediaJob {
  mediaId: string;
  bucket: string;
  key: string;
  /** The owner's service (vault-media) mints it; the job hands it back with its result, so only it can report for this media. */
  reportToken: string;
}

/** Fires when something scheduled for a later date (a letter's delivery) is due. */
export interface DeliveryTimingJob {
  subjectType: 'letter';
  subjectId: string;
  /** ISO timestamp the job was scheduled for (the delay is computed from it). */
  dueAt: string;
}

export interface JobPayloads {
  'key-emails': SendKeyEmailJob;
  'media-hashing': HashMediaJob;
  'delivery-timing': DeliveryTimingJob;
}

/** A queue whose only job name is the queue's name, carrying that queue's payload. */
export type TypedQueue<Q extends QueueName> = Queue<JobPayloads[Q], unknown, Q>;
export type TypedWorker<Q extends QueueName> = Worker<JobPayloads[Q], unknown, Q>;
export type TypedJob<Q extends QueueName> = Job<JobPayloads[Q], unknown, Q>;

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

export function createQueue<Q extends QueueName>(name: Q, connection: Redis, options: CreateQueueOptions = {}): TypedQueue<Q> {
  return new Queue<JobPayloads[Q], unknown, Q>(name, {
    connection,
    prefix: options.prefix ?? queuePrefix(),
    defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, ...options.defaultJobOptions },
  });
}

/**
 * Adds a job under an explicit id: a second add with the same id is a no-op while the first is
 * still stored (BullMQ dedupes by id), which makes producers safe to retry.
 */
export function enqueue<Q extends QueueName>(queue: TypedQueue<Q>, data: JobPayloads[Q], jobId: string, options: JobsOptions = {}): Promise<TypedJob<Q>> {
  if (!jobId || jobId.includes(':')) throw new Error(`a job id is required and must not contain ":" (got "${jobId}")`);
  // The generic Queue's name parameter is a conditional type TypeScript cannot narrow here.
  const add = queue.add.bind(queue) as unknown as (name: Q, data: JobPayloads[Q], opts: JobsOptions) => Promise<TypedJob<Q>>;
  return add(queue.name as Q, data, { ...options, jobId });
}

export interface CreateWorkerOptions extends Partial<Omit<WorkerOptions, 'connection' | 'prefix'>> {
  prefix?: string;
  /** Called once a job has used all its attempts and stays in the failed set (dead letter). */
  onDeadLetter?: (job: Job, error: Error) => void;
}

export function createWorker<Q extends QueueName>(name: Q, processor: Processor<JobPayloads[Q], unknown, Q>, connection: Redis, options: CreateWorkerOptions = {}): TypedWorker<Q> {
  const { prefix, onDeadLetter, ...workerOptions } = options;
  if (connection.options.maxRetriesPerRequest !== null) {
    throw new Error('a worker needs a Redis connection created with role "worker" (maxRetriesPerRequest: null)');
  }
  const worker = new Worker<JobPayloads[Q], unknown, Q>(name, processor, {
    concurrency: 1,
    ...workerOptions,
    connection,
    prefix: prefix ?? queuePrefix(),
  });
  if (onDeadLetter) {
    worker.on('failed', (job, error) => {
      if (job && isDeadLettered(job)) onDeadLetter(job as Job, error);
    });
  }
  return worker;
}

/** True when the job failed on its last allowed attempt (it stays in the failed set). */
export function isDeadLettered(job: Pick<Job, 'attemptsMade' | 'opts' | 'finishedOn' | 'failedReason'>): boolean {
  return Boolean(job.failedReason) && job.attemptsMade >= (job.opts.attempts ?? 1);
}
