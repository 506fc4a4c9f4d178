import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Queues, VaultMediaRpc, type Recording, type RecordingEvent, type RpcDeclaration, type UploadTicket } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { EventStore, PerStreamSealing } from '@lv/platform/event-store';
import { scopedSubject } from '@lv/platform/messaging';
import { RpcClient } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { compileForChildProcess, createTestDatabase, deleteStackStreams, freePort, generateTestKeys, publishedEventIds, runWritesThroughKill, sendHttp, startChild, streamsWithVersionGaps, uniqueStackId, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import { startS3Server, type RunningS3Server } from '../../../tools/dev/s3-server.mjs';
import { vaultMediaPublishPolicy } from '../src/recordings/publish-policy.js';
import { RecordingKeys, recordingSealing } from '../src/recordings/recording-sealing.js';
import { recordingStreamId } from '../src/recordings/recording.decider.js';
import { recordingsProjection } from '../src/recordings/recordings.projection.js';
import { MEDIA_LINK_SECRET, webmBody } from './test-support/harness.js';

// The kill test of vault-media's writes: one owner saves new recordings (start-upload over NATS, then
// the bytes over HTTP), retitles recordings (several writers racing on the same one) and deletes
// others, 8 at a time, while the vault-media process (a real child, this checkout compiled to a
// scratch directory, its outbox relay inside it) is SIGKILLed with writes in flight and started again
// on the same database.
//
// The client does what the SPA does: a write that got no answer is sent again until it is answered,
// and a retry of a write the killed process had committed must be answered as the write was (issue
// 30), never with an error. A save whose upload was opened sends its body again to the same upload
// (answered with the saved recording if the killed process had saved it); only an upload the kill cut
// off mid-body (still held by the dead process, or closed since) is started afresh, and a save whose
// start got no answer starts again. A retitle is sent again with the same title (the same title twice
// records nothing); a delete is sent again as it was and must be answered "deleted". Afterwards every
// write must be in the read model and the event store exactly once, no retitle may be lost to a
// racing one, and the outbox must have drained to JetStream, each event published once.

const TEST_TIMEOUT_MS = 300_000;
jest.setTimeout(TEST_TIMEOUT_MS);

/** Recordings saved before the writes under test: retitled or deleted during them. */
const EXISTING = 30;
/** The first RETITLED of them get RETITLES_EACH titles each, from racing writers. */
const RETITLED = 10;
const RETITLES_EACH = 5;
/** The next DELETED of them are deleted. */
const DELETED = 12;
/** New recordings saved during the run. */
const SAVED = 24;
const KILL_AFTER_ACKS = 25;
/** The kill waits for at least this many writes sent and not yet answered. */
const MIN_IN_FLIGHT = 3;
const CONCURRENCY = 8;
const RPC_TIMEOUT_MS = 2000;
const BODY_BYTES = 16 * 1024;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const STACK_ID = uniqueStackId('mediakill');
const keys = generateTestKeys();
const ownerId = randomUUID();
const token = new AccessTokenSigner(keys.privateKey).sign({ sub: ownerId, sid: randomUUID(), email: 'kill@example.com', tier: 'pro', admin: false, kind: 'user' }, 3600).token;
const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
/** The store as vault-media runs it (titles sealed per recording), to open the titles each stream recorded. */
const sealedStore = () => new EventStore({ publish: vaultMediaPublishPolicy, inlineProjections: [recordingsProjection], sealing: new PerStreamSealing([recordingSealing(new RecordingKeys())]) });

let db: TestDatabase;
let s3: RunningS3Server;
let s3Dir: string;
let scratch: string;
let script: string;
let port: number;
let child: ChildService | undefined;
let rpc: RpcClient;

const childEnv = () => ({
  DATABASE_URL: db.url, NATS_URL, REDIS_URL, STACK_ID, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'info',
  S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
  MEDIA_HTTP_PORT: String(port), MEDIA_LINK_SECRET, MEDIA_PART_SIZE_MB: '5',
});
const startVaultMedia = async () => {
  const started = startChild(script, [], childEnv());
  // Its readiness log line, waited for as long as it takes (the test's timeout is the bound): a loaded machine is slow, not wrong.
  await started.waitForLine(/vault-media is listening on NATS/, null);
  // The line can come before NATS has its subscriptions (Nest subscribes without a flush): until then a call finds no responder.
  await waitFor(async () => (await call(VaultMediaRpc.health, {}), true), 30_000, 'vault-media to answer');
  return started;
};
const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) =>
  rpc.callUnchecked({ ...declaration, subject: scopedSubject(declaration, STACK_ID) } as D, payload, { accessToken: token, meta: { requestId: 'media-kill' } });
const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);

const openUpload = (title: string, body: Buffer): Promise<UploadTicket> => call(VaultMediaRpc.startUpload, { type: 'video', title, sha256: sha(body), size: body.length });
const putBody = (ticket: UploadTicket, body: Buffer) => sendHttp(`http://127.0.0.1:${port}/uploads/${ticket.uploadId}`, {
  method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'video/webm', 'content-length': String(body.length) }, chunks: [body],
});
const savedFrom = (answer: Awaited<ReturnType<typeof putBody>>): Recording => {
  if (answer.status !== 201) throw new Error(`PUT answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
  return answer.json<Recording>();
};

/** The browser's save: open an upload, send the bytes. Throws what either step answered. */
const save = async (title: string, body: Buffer): Promise<Recording> => savedFrom(await putBody(await openUpload(title, body), body));

/**
 * A save sent again: to the upload the last attempt opened, if it got that far. An upload the kill cut
 * off mid-body never saved: the dead process still holds it (CONFLICT) or it was closed since
 * (UPLOAD_INCOMPLETE), and the save starts afresh.
 */
async function saveAgain(write: Extract<Write, { kind: 'save' }>): Promise<Recording> {
  if (write.ticket) {
    const answer = await putBody(write.ticket, write.body);
    const code = answer.status === 201 ? null : answer.json<{ code?: string }>().code;
    if (code !== 'CONFLICT' && code !== 'UPLOAD_INCOMPLETE') return savedFrom(answer);
  }
  write.ticket = await openUpload(write.title, write.body);
  return savedFrom(await putBody(write.ticket, write.body));
}

beforeAll(async () => {
  db = await createTestDatabase([], 'mediakill');
  scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/vault-media'], 'media-kill');
  script = join(scratch, 'apps', 'vault-media', 'main.js');
  s3Dir = await mkdtemp(join(tmpdir(), 'lv-mediakill-'));
  s3 = await startS3Server({ port: 0, directory: s3Dir, accessKey: 'spec-key', secretKey: 'spec-secret' });
  port = await freePort();
  // `main.js migrate` creates nothing here (the database exists) but applies vault-media's migrations.
  const migrate = startChild(script, ['migrate'], childEnv());
  expect((await migrate.exited).code).toBe(0);
  rpc = new RpcClient(NATS_URL, RPC_TIMEOUT_MS, 'media-kill-client');
  await rpc.connect();
  child = await startVaultMedia();
});

afterAll(async () => {
  await child?.kill('SIGKILL');
  await rpc?.close();
  await deleteStackStreams(NATS_URL, ['vault-media', 'letters'], STACK_ID);
  // Every saved video queues a hashing and a transcoding job; no worker runs here to take them.
  const redis = new Redis(REDIS_URL);
  for (const name of [Queues.MediaHashing.name, Queues.MediaTranscoding.name]) {
    const queue = new Queue(name, { connection: redis, prefix: queuePrefix(STACK_ID) });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  redis.disconnect();
  await s3?.close();
  if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  await db?.drop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

type Write =
  | { kind: 'save'; title: string; body: Buffer; ticket?: UploadTicket }
  | { kind: 'retitle'; id: string; title: string }
  | { kind: 'delete'; id: string };

it('acknowledged saves, retitles and deletes survive a SIGKILL of vault-media: each once in the read model, the store and JetStream', async () => {
  const existing: Recording[] = [];
  for (let i = 0; i < EXISTING; i++) existing.push(await save(`Recording ${i}`, webmBody(BODY_BYTES)));
  const retitled = existing.slice(0, RETITLED);
  const deleted = existing.slice(RETITLED, RETITLED + DELETED);

  // Retitles of one recording sit next to each other, so the 8 writers race on it; saves and deletes are mixed in between.
  const writes: Write[] = [];
  const saves = Array.from({ length: SAVED }, (_, i): Write => ({ kind: 'save', title: `New recording ${i}`, body: webmBody(BODY_BYTES) }));
  const deletes = deleted.map((r): Write => ({ kind: 'delete', id: r.id }));
  for (const [r, recording] of retitled.entries()) {
    for (let n = 0; n < RETITLES_EACH; n++) writes.push({ kind: 'retitle', id: recording.id, title: `Recording ${r}, title ${n}` });
    writes.push(...saves.splice(0, Math.ceil(SAVED / RETITLED)), ...deletes.splice(0, Math.ceil(DELETED / RETITLED)));
  }
  writes.push(...saves, ...deletes);

  const savedIds = new Map<string, string>();
  /** Attempts per write: a write sent again after the kill may apply twice (see the titles below). */
  const attemptsOf = new Map<Write, number>();
  let killedAt = Number.POSITIVE_INFINITY;
  const run = await runWritesThroughKill<Write>({
    writes, concurrency: CONCURRENCY, killAfterAcks: KILL_AFTER_ACKS, minInFlight: MIN_IN_FLIGHT,
    async killAndRestart() {
      killedAt = Date.now();
      child!.child.kill('SIGKILL');
      await child!.exited;
      child = await startVaultMedia();
    },
    async send(write) {
      attemptsOf.set(write, (attemptsOf.get(write) ?? 0) + 1);
      switch (write.kind) {
        case 'save': {
          const recording = await saveAgain(write);
          if (recording.title !== write.title || recording.blob_hash !== sha(write.body)) throw new Error(`saved as ${JSON.stringify(recording)}`);
          savedIds.set(sha(write.body), recording.id);
          return Date.parse(recording.created_at);
        }
        case 'retitle': {
          const recording: Recording = await call(VaultMediaRpc.retitle, { id: write.id, title: write.title });
          // A racing writer may have committed after this one and before the answer's read: only the id is certain.
          if (recording.id !== write.id) throw new Error(`answered ${JSON.stringify(recording)}`);
          return;
        }
        case 'delete': {
          const answer = await call(VaultMediaRpc.deleteEntry, { id: write.id });
          if (answer.id !== write.id || !answer.deleted) throw new Error(`answered ${JSON.stringify(answer)}`);
          return;
        }
      }
    },
    // Over NATS, no answer within the timeout; over HTTP, the connection refused or cut (ECONNREFUSED, ECONNRESET, EPIPE).
    unanswered: (error) => (error instanceof DomainError ? error.code === 'SERVICE_UNAVAILABLE' : /^E[A-Z]+$/.test(String((error as NodeJS.ErrnoException).code))),
    describe: (write) => (write.kind === 'save' ? write.title : `${write.kind} ${write.kind === 'retitle' ? write.title : write.id}`),
  });
  expect(run.unexpected).toEqual([]);
  // The kill landed on writes in flight: sent before it, not answered when it came.
  expect(run.acksAtKill).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  expect(run.inFlightAtKill).toBeGreaterThanOrEqual(MIN_IN_FLIGHT);
  expect(run.acknowledged).toBe(writes.length);

  // Every save was answered with its recording, a retried one too (the one the killed process saved, if it had).
  const newBodies = writes.flatMap((w) => (w.kind === 'save' ? [sha(w.body)] : []));
  expect(savedIds.size).toBe(SAVED);

  // The read model: the recordings that were, less the deleted, plus the saved; each once.
  const expectedIds = new Set([...existing.map((r) => r.id), ...savedIds.values()]);
  for (const r of deleted) expectedIds.delete(r.id);
  const listed: Recording[] = await call(VaultMediaRpc.listRecordings, { limit: 100 });
  expect(listed).toHaveLength(EXISTING - DELETED + SAVED);
  expect(new Set(listed.map((r) => r.id))).toEqual(expectedIds);
  expect(new Set(listed.map((r) => r.blob_hash)).size).toBe(listed.length);

  // The store: one RecordingSaved per body, one RecordingDeleted per deleted recording, every stream's versions 1..n.
  const savedEvents = await sql<{ sha256: string; n: number }>(`select data->>'sha256' as sha256, count(*)::int as n from events where type = 'RecordingSaved' group by 1`);
  expect(savedEvents).toHaveLength(EXISTING + SAVED);
  expect(savedEvents.filter((row) => row.n !== 1)).toEqual([]);
  expect(new Set(savedEvents.map((row) => row.sha256))).toEqual(new Set([...existing.map((r) => r.blob_hash), ...newBodies]));
  const deletedEvents = await sql<{ stream_id: string; deleted_at: string }>(`select stream_id, data->>'deletedAt' as deleted_at from events where type = 'RecordingDeleted'`);
  expect(deletedEvents.map((row) => row.stream_id).sort()).toEqual(deleted.map((r) => recordingStreamId(r.id)).sort());
  // Deletes sent again that the killed process had committed (their answer says no time): each was answered "deleted" above.
  const deletedAt = new Map(deletedEvents.map((row) => [row.stream_id, Date.parse(row.deleted_at)]));
  const deletesCommittedBeforeKill = writes.filter((w) => w.kind === 'delete' && (attemptsOf.get(w) ?? 0) > 1 && deletedAt.get(recordingStreamId(w.id))! < killedAt).length;
  expect(await streamsWithVersionGaps(db)).toEqual([]);
  // A deleted recording's object is gone, or marked for the sweeper when the kill came between the two.
  const objectStates = await sql<{ state: string; n: number }>('select state, count(*)::int as n from media_objects where recording_id = any(?::uuid[]) group by state', [`{${deleted.map((r) => r.id).join(',')}}`]);
  expect(objectStates.filter((row) => row.state !== 'removed' && row.state !== 'removing')).toEqual([]);

  // No lost update: each title sent for a recording is in its stream, whatever raced it, and the read
  // model shows the title its stream ended with. A title sent once is there once; one sent again after
  // the kill may be there twice, when the killed process had committed it and a racing title came in
  // between (the resent write applies again, as the owner's second click would), never twice in a row.
  const store = sealedStore();
  let reapplied = 0;
  for (const [r, recording] of retitled.entries()) {
    const { events } = await store.readStream<RecordingEvent>(db.orm.em.fork(), recordingStreamId(recording.id));
    const titles = events.flatMap((e) => (e.type === 'RecordingRetitled' ? [e.data.title] : []));
    const sentTitles = writes.flatMap((w) => (w.kind === 'retitle' && w.id === recording.id ? [w] : []));
    expect(new Set(titles)).toEqual(new Set(Array.from({ length: RETITLES_EACH }, (_, n) => `Recording ${r}, title ${n}`)));
    for (const write of sentTitles) {
      const times = titles.filter((t) => t === write.title).length;
      const attempts = attemptsOf.get(write) ?? 0;
      // Never more often than it was sent; once when it was sent once.
      expect(`${write.title}: ${times}`).toBe(`${write.title}: ${attempts === 1 ? 1 : Math.min(times, attempts)}`);
      reapplied += times - 1;
    }
    expect(titles.filter((t, i) => i > 0 && titles[i - 1] === t)).toEqual([]);
    expect(listed.find((l) => l.id === recording.id)?.title).toBe(titles.at(-1));
  }

  // JetStream: once the relay has drained the outbox, each published event once, by its id.
  const publishedIds = (await sql<{ event_id: string }>(`select event_id from events where type in ('RecordingSaved', 'RecordingDeleted', 'RecordingHashVerified', 'RecordingHashMismatch')`)).map((row) => row.event_id);
  const eventIds = await publishedEventIds(db, NATS_URL, 'vault-media', STACK_ID);
  expect(eventIds).toHaveLength(publishedIds.length);
  expect(new Set(eventIds)).toEqual(new Set(publishedIds));

  console.log(`[vault-media kill test] ${SAVED} saves, ${RETITLED * RETITLES_EACH} racing retitles, ${DELETED} deletes: ${run.summary}; `
    + `read model ${listed.length} recordings, store ${savedEvents.length} RecordingSaved / ${deletedEvents.length} RecordingDeleted, `
    + `${deletesCommittedBeforeKill} retried deletes committed by the killed process, deleted objects ${JSON.stringify(Object.fromEntries(objectStates.map((row) => [row.state, row.n])))}, ${reapplied} retitles applied again by their resend; JetStream ${eventIds.length} messages / ${new Set(eventIds).size} distinct events`);
});
