import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { QueueNames, type HashMediaJob, type SendKeyEmailJob } from '@lv/contracts';
import {
  DEFAULT_JOB_OPTIONS,
  createQueue,
  createRedisConnection,
  createWorker,
  enqueue,
  isDeadLettered,
  queuePrefix,
  type TypedQueue,
  type TypedWorker,
} from './index.js';

// Runs against the local Redis (127.0.0.1:6379, or REDIS_URL) under a prefix of its own, removed
// afterwards, so it never touches the queues of a running stack.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('queues (local Redis)', () => {
  const prefix = `lv-spec-${randomUUID().slice(0, 8)}`;
  let producer: Redis;
  let workerConnection: Redis;
  const queues: TypedQueue<any>[] = [];
  const workers: TypedWorker<any>[] = [];

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
    expect(() => createWorker(QueueNames.KeyEmails, async () => undefined, producer)).toThrow(/maxRetriesPerRequest/);
  });

  it('stores a job added twice with the same jobId once', async () => {
    const queue = createQueue<SendKeyEmailJob>(QueueNames.KeyEmails, producer, { prefix });
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
    const queue = createQueue<HashMediaJob>(QueueNames.MediaHashing, producer, { prefix, defaultJobOptions: { backoff: { type: 'fixed', delay: 10 } } });
    queues.push(queue);
    let calls = 0;
    const deadLetters: string[] = [];
    const worker = createWorker(
      QueueNames.MediaHashing,
      async () => {
        calls++;
        throw new Error('storage unavailable');
      },
      workerConnection,
      { prefix, onDeadLetter: (job) => deadLetters.push(job.id!) },
    );
    workers.push(worker);

    const job = await enqueue(queue, { mediaId: 'm1', bucket: 'vault-media', key: 'm1.webm', reportToken: 't1' }, 'hash-m1', { attempts: 3 });
    const deadline = Date.now() + 20_000;
    while ((await job.getState()) !== 'failed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const failed = await queue.getJob('hash-m1');
    expect(await failed!.getState()).toBe('failed');
    expect(failed!.attemptsMade).toBe(3);
    expect(failed!.failedReason).toBe('storage unavailable');
    expect(isDeadLettered(failed!)).toBe(true);
    expect(calls).toBe(3);
    expect(deadLetters).toEqual(['hash-m1']);
    expect((await queue.getFailed()).map((j) => j.id)).toEqual(['hash-m1']);
  });
});
