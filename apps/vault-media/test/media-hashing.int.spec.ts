import { createHash, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { jest } from '@jest/globals';
import { VaultMediaRpc, type Recording, type RpcDeclaration } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { compileForChildProcess, startChild, waitFor, type ChildService } from '@lv/testing';
import { REDIS_URL, NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

// The media-hashing job end to end: vault-media (in-process) enqueues it from its outbox, the real
// worker (apps/worker, compiled to a scratch directory and run as a child process) streams the
// object from storage, hashes it and reports back over NATS; vault-media records verified or
// mismatch. Failed jobs stay in the failed set: the dead letters.

jest.setTimeout(180_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('media-hashing (vault-media in-process, the worker as a child process)', () => {
  let h: Harness;
  let worker: ChildService | undefined;
  let workerScript: string;
  let scratchDir: string | undefined;
  const owner = randomUUID();
  let token: string;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string) => h.rpc.callUnchecked(declaration, payload, { accessToken, meta: { requestId: 'spec' } });

  async function save(body: Buffer, title: string): Promise<Recording> {
    const ticket = await call(VaultMediaRpc.startUpload, { type: 'video', title, sha256: sha(body), size: body.length }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm' }, chunks: [body] });
    expect(answer.status).toBe(201);
    return answer.json<Recording>();
  }
  const integrityOf = async (id: string) => (await call(VaultMediaRpc.listRecordings, { limit: 100 }, token)).find((r) => r.id === id)?.integrity;

  function startWorker(): ChildService {
    return startChild(workerScript, [], {
      NATS_URL, REDIS_URL, STACK_ID: h.stackId, JWT_PUBLIC_KEY: h.keys.publicKey, LOG_LEVEL: 'info',
      S3_ENDPOINT: h.s3.endpoint, S3_ACCESS_KEY: h.s3.accessKey, S3_SECRET_KEY: h.s3.secretKey, MEDIA_HASHING_CONCURRENCY: '2',
    });
  }

  beforeAll(async () => {
    const [harness, scratch] = await Promise.all([startVaultMedia('hashing'), compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/worker'], 'worker-spec')]);
    h = harness;
    scratchDir = scratch;
    workerScript = join(scratch, 'apps', 'worker', 'main.js');
    token = h.tokenFor(owner, 'pro');
  });

  afterAll(async () => {
    await worker?.kill('SIGTERM');
    await h?.resources.hashingQueue.obliterate({ force: true }).catch(() => undefined);
    await h?.close();
    if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
  });

  it('verifies an intact recording and flags one whose stored bytes changed; failed jobs stay as dead letters', async () => {
    const queue = h.resources.hashingQueue;
    const intact = await save(webmBody(3 * 1024 * 1024), 'Intact');
    const tampered = await save(webmBody(200_000), 'Tampered');
    await waitFor(async () => Boolean((await queue.getJob(intact.id)) && (await queue.getJob(tampered.id))), 15_000, 'both jobs enqueued from the outbox');
    expect(await integrityOf(intact.id)).toBe('pending');

    // The stored object changes behind the service's back (disk corruption, a tampering hand).
    await h.resources.storage.upload('vaultmedia', tampered.file_path, Readable.from([webmBody(200_000)]), { contentType: 'video/webm' });

    // A job whose report vault-media refuses (a forged token): no retry can help, straight to failed.
    const forged = randomUUID();
    const { enqueue } = await import('@lv/platform/queues');
    await enqueue(queue, { mediaId: forged, bucket: 'vaultmedia', key: intact.file_path, reportToken: 'forged' }, forged);
    // A job that fails for a reason a retry might cure (storage answers an error): retried with backoff, then kept.
    const flaky = randomUUID();
    await enqueue(queue, { mediaId: flaky, bucket: 'no-such-bucket', key: 'x.webm', reportToken: h.service.reportTokenFor(flaky) }, flaky, { attempts: 2, backoff: { type: 'fixed', delay: 200 } });

    worker = startWorker();
    await worker.waitForLine(/worker is processing jobs/);

    await waitFor(async () => (await integrityOf(intact.id)) === 'verified', 30_000, 'the intact recording to be verified');
    await waitFor(async () => (await integrityOf(tampered.id)) === 'mismatch', 30_000, 'the tampered recording to be flagged');
    // The owner sees it in the recordings list too (the timeline service reads the same from the published events).
    const entries = await call(VaultMediaRpc.listRecordings, { limit: 100 }, token);
    expect(entries.find((e) => e.id === tampered.id)?.integrity).toBe('mismatch');
    expect(entries.find((e) => e.id === intact.id)?.integrity).toBe('verified');
    // The worker reports the hash before BullMQ records its job completed: wait for that before reading its result.
    await waitFor(async () => (await queue.getJobState(intact.id)) === 'completed', 30_000, "the intact recording's job completed");
    expect((await queue.getJob(intact.id))?.returnvalue).toMatchObject({ integrity: 'verified', sha256: intact.blob_hash });

    await waitFor(async () => (await queue.getJobState(forged)) === 'failed' && (await queue.getJobState(flaky)) === 'failed', 30_000, 'both bad jobs in the failed set');
    const forgedJob = (await queue.getJob(forged))!;
    expect(forgedJob.failedReason).toMatch(/FORBIDDEN/);
    expect(forgedJob.attemptsMade).toBe(1);
    const flakyJob = (await queue.getJob(flaky))!;
    expect(flakyJob.attemptsMade).toBe(2);
    const failedIds = (await queue.getFailed()).map((j) => j.id);
    expect(failedIds).toEqual(expect.arrayContaining([forged, flaky]));
    await worker.waitForLine(/failed for good/);
  });

  it('is idempotent: the same result reported again, or the job added again, changes nothing', async () => {
    const recording = await save(webmBody(50_000), 'Twice');
    await waitFor(async () => (await integrityOf(recording.id)) === 'verified', 30_000, 'verified');
    const reportToken = h.service.reportTokenFor(recording.id);
    const again = await call(VaultMediaRpc.reportHash, { recordingId: recording.id, sha256: recording.blob_hash, size: recording.size, reportToken });
    expect(again).toEqual({ recordingId: recording.id, integrity: 'verified' });
    const { enqueue } = await import('@lv/platform/queues');
    await enqueue(h.resources.hashingQueue, { mediaId: recording.id, bucket: 'vaultmedia', key: recording.file_path, reportToken }, recording.id);
    const [row] = await h.resources.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where stream_id = ? and type = 'RecordingHashVerified'`, [`recording-${recording.id}`]);
    expect(row!.n).toBe(1);
    // A report for another recording, with this recording's token, is refused.
    const stolen = await call(VaultMediaRpc.reportHash, { recordingId: randomUUID(), sha256: null, size: null, reportToken }).catch((e: DomainError) => e.code);
    expect(stolen).toBe('FORBIDDEN');
  });
});
