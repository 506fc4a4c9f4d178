import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { z } from 'zod';
import { queue as declareQueue, Queues, type HashMediaJob, type SendKeyEmailJob } from '@lv/contracts';
import { waitFor } from '@lv/testing';
import { withTrace } from '../src/logging/trace-context.js';
import {
  DEFAULT_JOB_OPTIONS,
  InvalidJobDataError,
  createQueue,
  createRedisConnection,
  createWorker,
  enqueue,
  isDeadLettered,
  jobTrace,
  queuePrefix,
  sleepUntil,
  type QueueWorker,
  type TypedQueue,
} from '../src/queues/index.js';

// Runs against the local Redis (127.0.0.1:6379, or REDIS_URL) under a prefix of its own, removed
// afterwards, so it never touches the queues of a running stack.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// A queue of this spec's own: strict, so a field the platform adds (the trace) would fail it unless stripped.
const Probes = declareQueue('queue-spec-probes', z.strictObject({ probeId: z.string().min(1), count: z.number().int() }));
type Probe = z.infer<typeof Probes.payload>;

function untilFailed(queue: Queue, jobId: string): Promise<void> {
  return waitFor(async () => (await queue.getJobState(jobId)) === 'failed', 20_000, `job ${jobId} failed`);
}

describe('queues (local Redis)', () => {
  const prefix = `lv-spec-${randomUUID().slice(0, 8)}`;
  let producer: Redis;
  let workerConnection: Redis;
  const queues: Queue[] = [];
  const workers: QueueWorker[] = [];

  beforeAll(() => {
    producer = createRedisConnection(REDIS_URL, { role: 'producer', name: 'queues-spec' });
    workerConnection = createRedisConnection(REDIS_URL, { role: 'worker', name: 'queues-spec' });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    for (const q of queues) await q.obliterate({ force: true }).catch(() => undefined);
    await Promise.all(queues.map((q) => q.close()));
    const leftovers = await producer.keys(`${prefix}:*`);
    if (leftovers.length) await producer.del(...leftovers);
    producer.disconnect();
    workerConnection.disconnect();
  });

  it('has the sane defaults: 5 attempts, exponential backoff, failed jobs kept', () => {
    expect(DEFAULT_JOB_OPTIONS).toMatchObject({ attempts: 5, backoff: { type: 'exponential' }, removeOnFail: false });
    expect(queuePrefix('')).toBe('lv');
    expect(queuePrefix('e2e')).toBe('lv-e2e');
    expect(() => createWorker(Queues.KeyEmails, async () => undefined, producer)).toThrow(/maxRetriesPerRequest/);
  });

  it('stores a job added twice with the same jobId once', async () => {
    const queue: TypedQueue<SendKeyEmailJob> = createQueue(Queues.KeyEmails, producer, { prefix });
    queues.push(queue);
    const payload: SendKeyEmailJob = {
      keyId: 'k1', ownerId: 'o1', recipientEmail: 'kid@example.com', recipientName: null, sharedBy: 'dad@example.com',
      sealedKey: { alg: 'A256GCM', iv: '', tag: '', ct: '' }, expiresAt: new Date().toISOString(), scopes: ['letters'],
    };
    const first = await enqueue(queue, payload, 'key-issued-k1');
    const second = await enqueue(queue, { ...payload, recipientEmail: 'other@example.com' }, 'key-issued-k1');
    expect(second.id).toBe(first.id);
    expect(await queue.getJobCountByTypes('waiting', 'delayed', 'active', 'prioritized')).toBe(1);
    const stored = await queue.getJob('key-issued-k1');
    expect(stored?.data.recipientEmail).toBe('kid@example.com');
    expect(stored?.opts.attempts).toBe(5);
    expect(() => enqueue(queue, payload, 'a:b')).toThrow(/job id/);
  });

  it('moves a job that keeps throwing to the failed set after its attempts', async () => {
    const queue = createQueue(Queues.MediaHashing, producer, { prefix, defaultJobOptions: { backoff: { type: 'fixed', delay: 10 } } });
    queues.push(queue);
    let calls = 0;
    const deadLetters: { id: string | undefined; data: HashMediaJob | null }[] = [];
    const worker = createWorker(
      Queues.MediaHashing,
      async () => {
        calls++;
        throw new Error('storage unavailable');
      },
      workerConnection,
      { prefix, onDeadLetter: (job, _error, data) => deadLetters.push({ id: job.id, data }) },
    );
    workers.push(worker);

    const job = await enqueue(queue, { mediaId: 'm1', bucket: 'vault-media', key: 'm1.webm', reportToken: 't1' }, 'hash-m1', { attempts: 3 });
    await waitFor(async () => (await job.getState()) === 'failed', 20_000, 'the hashing job failed after its attempts');

    const failed = await queue.getJob('hash-m1');
    expect(await failed!.getState()).toBe('failed');
    expect(failed!.attemptsMade).toBe(3);
    expect(failed!.failedReason).toBe('storage unavailable');
    expect(isDeadLettered(failed!)).toBe(true);
    expect(calls).toBe(3);
    expect(deadLetters).toEqual([{ id: 'hash-m1', data: { mediaId: 'm1', bucket: 'vault-media', key: 'm1.webm', reportToken: 't1' } }]);
    expect((await queue.getFailed()).map((j) => j.id)).toEqual(['hash-m1']);
  });

  it('sleepUntil: a job that wakes before its time waits again as the same job (same id, same data, no attempt spent, never dead-lettered) and runs at its time', async () => {
    const SleepProbes = declareQueue('queue-spec-sleepers', z.strictObject({ dueAt: z.string() }));
    const queue = createQueue(SleepProbes, producer, { prefix });
    queues.push(queue);
    const runs: { at: number; id: string | undefined; attemptsMade: number }[] = [];
    const deadLetters: string[] = [];
    const worker = createWorker(SleepProbes, async (data, job, token) => {
      runs.push({ at: Date.now(), id: job.id, attemptsMade: job.attemptsMade });
      if (Date.now() < Date.parse(data.dueAt)) await sleepUntil(job, token, data.dueAt);
      return 'ran';
    }, workerConnection, { prefix, onDeadLetter: (job) => deadLetters.push(job.id ?? '') });
    workers.push(worker);

    // Added without its delay: it wakes at once, a second and a half early.
    const dueAt = new Date(Date.now() + 1500).toISOString();
    await enqueue(queue, { dueAt }, 'sleeper-1');
    await waitFor(async () => (await queue.getJobState('sleeper-1')) === 'completed', 20_000, 'the sleeper to run at its time');
    const done = await queue.getJob('sleeper-1');
    expect(runs.map((r) => r.id)).toEqual(['sleeper-1', 'sleeper-1']);
    expect(runs[1]!.at).toBeGreaterThanOrEqual(Date.parse(dueAt));
    expect(done!.returnvalue).toBe('ran');
    expect(runs.map((r) => r.attemptsMade)).toEqual([0, 0]);
    expect(done!.data).toEqual({ dueAt });
    expect(deadLetters).toEqual([]);
    expect(await queue.getJobCounts('delayed', 'waiting', 'failed')).toEqual({ delayed: 0, waiting: 0, failed: 0 });
  });

  describe('job data checked against its declaration', () => {
    let probes: TypedQueue<Probe>;
    const worked: { data: Probe; correlationId: string }[] = [];
    const deadLetters: { id: string | undefined; reason: string; data: Probe | null }[] = [];

    beforeAll(() => {
      probes = createQueue(Probes, producer, { prefix, defaultJobOptions: { backoff: { type: 'fixed', delay: 10 } } });
      queues.push(probes);
      workers.push(createWorker(Probes, async (data, job) => void worked.push({ data, correlationId: jobTrace(job).correlationId }), workerConnection, {
        prefix, onDeadLetter: (job, error, data) => deadLetters.push({ id: job.id, reason: error.message, data }),
      }));
    });

    it('refuses data its schema does not pass before anything reaches Redis', async () => {
      expect(() => enqueue(probes, { probeId: 'p-bad', count: 1.5 }, 'p-bad')).toThrow(InvalidJobDataError);
      expect(() => enqueue(probes, { probeId: '', count: 1 }, 'p-bad')).toThrow(/"queue-spec-probes" queue's schema: probeId:/);
      expect(await probes.getJob('p-bad')).toBeUndefined();
    });

    it('fails a job whose data does not pass at once, without retries, and keeps it in the failed set', async () => {
      // Written past the producer (an older release, a hand-made job): only the worker can catch it.
      const raw = new Queue('queue-spec-probes', { connection: producer, prefix });
      await raw.add('queue-spec-probes', { probeId: 'p-raw', count: 'three' }, { jobId: 'p-raw', attempts: 5, backoff: { type: 'fixed', delay: 10 } });
      await raw.close();
      await untilFailed(probes, 'p-raw');

      const failed = await probes.getJob('p-raw');
      expect(await failed!.getState()).toBe('failed');
      expect(failed!.attemptsMade).toBe(1);
      expect(failed!.failedReason).toMatch(/^job data does not match the "queue-spec-probes" queue's schema: count: /);
      expect(worked).toEqual([]);
      expect(deadLetters).toEqual([{ id: 'p-raw', reason: failed!.failedReason, data: null }]);
      expect((await probes.getFailed()).map((j) => j.id)).toContain('p-raw');
    });

    it('hands the processor its data without the trace the producer carried, and works under that trace', async () => {
      const job = await withTrace({ correlationId: 'req-probe-1' }, () => enqueue(probes, { probeId: 'p-ok', count: 3 }, 'p-ok'));
      expect(job.data).toMatchObject({ _trace: { correlationId: 'req-probe-1' } });
      await waitFor(async () => (await probes.getJobState('p-ok')) === 'completed', 20_000, 'the probe job completed');
      expect(worked).toEqual([{ data: { probeId: 'p-ok', count: 3 }, correlationId: 'req-probe-1' }]);
    });
  });
});
