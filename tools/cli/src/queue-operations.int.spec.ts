// jobs:failed and jobs:redrive against a real BullMQ queue on the machine's Redis (under a STACK_ID
// of its own): a job fails for good, is listed with its reason (never its data), is redriven and
// completes, under the trace its producer carried.
import { randomUUID } from 'node:crypto';
import { Queues } from '@lv/contracts';
import { withTrace } from '@lv/platform/logging';
import { createQueue, createRedisConnection, createWorker, enqueue, jobTrace, queuePrefix } from '@lv/platform/queues';
import { uniqueStackId, waitFor } from '@lv/testing';
import { COMMANDS, type OperatorCall } from './commands.js';
import { bullmqQueueOperations } from './queue-operations.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = queuePrefix(uniqueStackId('clijobs'));
const noRpc = (() => Promise.reject(new Error('no RPC in this spec'))) as OperatorCall;

describe('CLI jobs:failed and jobs:redrive (BullMQ dead letters)', () => {
  const producer = createRedisConnection(REDIS_URL, { role: 'producer', name: 'cli-spec' });
  const workerConnection = createRedisConnection(REDIS_URL, { role: 'worker', name: 'cli-spec' });
  const queue = createQueue(Queues.MediaHashing, producer, { prefix, defaultJobOptions: { attempts: 2, backoff: { type: 'fixed', delay: 10 } } });
  const operations = bullmqQueueOperations(REDIS_URL, prefix);
  const tools = { queues: () => operations };
  let healthy = false;
  const completed: { id: string; correlationId: string }[] = [];
  const worker = createWorker(Queues.MediaHashing, async (_data, job) => {
    if (!healthy) throw new Error('object storage is down');
    completed.push({ id: String(job.id), correlationId: jobTrace(job).correlationId });
  }, workerConnection, { prefix });

  afterAll(async () => {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await operations.close();
    producer.disconnect();
    workerConnection.disconnect();
  });

  it('lists a job that used all its attempts, redrives it by id, and it completes under its first trace', async () => {
    const id = `media-${randomUUID()}`;
    await withTrace({ correlationId: 'req-upload-1' }, () => enqueue(queue, { mediaId: id, bucket: 'vaultmedia', key: `k/${id}`, reportToken: 'sealed-token' }, id));
    await waitFor(async () => (await queue.getJob(id))?.failedReason !== undefined && (await queue.getJob(id))!.attemptsMade >= 2, 10_000, 'the job to fail for good');

    const failed = await COMMANDS['jobs:failed']!.run([Queues.MediaHashing.name], noRpc, tools) as { id: string; attemptsMade: number; failedReason: string }[];
    expect(failed).toEqual([expect.objectContaining({ id, attemptsMade: 2, failedReason: 'object storage is down' })]);
    // The listing shows what failed and why, never the job's data.
    expect(JSON.stringify(failed)).not.toContain('sealed-token');

    // Asking for a job that is not failed changes nothing and says so.
    expect(await COMMANDS['jobs:redrive']!.run([Queues.MediaHashing.name, '--id', 'no-such-job'], noRpc, tools)).toEqual({ queue: Queues.MediaHashing.name, retried: [], notFailed: ['no-such-job'] });

    healthy = true;
    expect(await COMMANDS['jobs:redrive']!.run([Queues.MediaHashing.name, '--id', id], noRpc, tools)).toEqual({ queue: Queues.MediaHashing.name, retried: [id], notFailed: [] });
    await waitFor(async () => (await queue.getJob(id))?.finishedOn !== undefined && await (await queue.getJob(id))!.isCompleted(), 10_000, 'the redriven job to complete');
    expect(completed).toEqual([{ id, correlationId: 'req-upload-1' }]);
    expect(await COMMANDS['jobs:failed']!.run([Queues.MediaHashing.name], noRpc, tools)).toEqual([]);
  });

  it('redrives every failed job with --all', async () => {
    healthy = false;
    const ids = [`media-${randomUUID()}`, `media-${randomUUID()}`];
    for (const id of ids) await enqueue(queue, { mediaId: id, bucket: 'vaultmedia', key: `k/${id}`, reportToken: 't' }, id);
    await waitFor(async () => (await queue.getFailedCount()) === 2, 10_000, 'both jobs to fail for good');
    healthy = true;
    const result = await COMMANDS['jobs:redrive']!.run([Queues.MediaHashing.name, '--all'], noRpc, tools) as { retried: string[] };
    expect([...result.retried].sort()).toEqual([...ids].sort());
    await waitFor(async () => completed.filter((c) => ids.includes(c.id)).length === 2, 10_000, 'both redriven jobs to complete');
  });
});
