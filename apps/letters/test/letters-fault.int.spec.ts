import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { LettersEvents, LettersRpc, type Letter, type LetterPage, type PublishedEvent, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { connectNats, scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import { RpcClient } from '@lv/platform/nest';
import { createTestDatabase, generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import { lettersMigrations } from '../src/migrations.js';
import { compileService, startServiceProcess, stopServiceProcess, type ServiceChild } from './support/service-process.js';

// The fault test: 500 letters written through the service's RPC API (as the gateway does) while the
// letters process is SIGKILLed and restarted mid-way. The process is a real child (this checkout's
// sources compiled to a scratch directory), with its outbox relay inside it, so the kill can land
// between a commit and its answer, or between a publish and the outbox row's deletion.
//
// The client does what the SPA does: one UUID per letter, and a save that got no answer is sent
// again with the same id and words until it is acknowledged. Afterwards every acknowledged letter
// must be in the owner's list and on JetStream exactly once, and nothing else may be.

// The only bound on the run, restarts included: a loaded machine makes it slow, not wrong.
const TEST_TIMEOUT_MS = 300_000;
jest.setTimeout(TEST_TIMEOUT_MS);

const TOTAL = 500;
const KILL_AFTER_ACKS = 250;
const CONCURRENCY = 8;
const RPC_TIMEOUT_MS = 2000;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const STACK_ID = uniqueStackId('letterfault');
const keys = generateTestKeys();
const ownerId = randomUUID();
const token = new AccessTokenSigner(keys.privateKey).sign({ sub: ownerId, sid: randomUUID(), email: 'fault@example.com', tier: 'none', admin: false, kind: 'user' }, 3600).token;

let db: TestDatabase;
let scratch: string;
let entry: string;
let child: ServiceChild | undefined;
let rpc: RpcClient;
let nc: NatsConnection;

const childEnv = () => ({
  DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, STACK_ID, LOG_LEVEL: 'info', DATABASE_POOL_MAX: '10',
});
// Ready once it logs that it listens (after its readiness flips): waited for as long as it takes.
const startLetters = () => startServiceProcess(entry, childEnv(), 'letters is listening on NATS', [], null);

beforeAll(async () => {
  db = await createTestDatabase(lettersMigrations.slice(1), 'lettersfault');
  scratch = await compileService('apps/letters', 'letters-fault');
  entry = join(scratch, 'app', 'main.js');
  // `migrate` on an up-to-date database is a no-op that exits 0.
  await startServiceProcess(entry, childEnv(), null, ['migrate']);
  child = await startLetters();
  rpc = new RpcClient(NATS_URL, RPC_TIMEOUT_MS, 'letters-fault-client');
  await rpc.connect();
  nc = await connectNats(NATS_URL, 'letters-fault-observer');
});

afterAll(async () => {
  await stopServiceProcess(child);
  await rpc?.close();
  if (nc) {
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('letters', STACK_ID)).catch(() => undefined);
    await nc.close();
  }
  await db?.drop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const call = <D extends RpcDeclaration>(declaration: D, payload: unknown) =>
  rpc.callUnchecked({ ...declaration, subject: scopedSubject(declaration, STACK_ID) } as D, payload, { accessToken: token, meta: { requestId: 'fault' } });

it('acknowledged writes survive a SIGKILL of the letters process: each is in the list and on JetStream exactly once', async () => {
  const started = Date.now();
  const acknowledged = new Map<string, Letter>();
  const unexpected: string[] = [];
  let attempts = 0;
  let retried = 0;
  let killedAt = -1;
  let killTime = Number.POSITIVE_INFINITY;
  /** Retried letters that the killed process had already committed: the retry got the first save back. */
  let committedBeforeKill = 0;
  // Typed by a cast, not an annotation: TypeScript would narrow an annotated `null` for good, not seeing
  // the workers assign it, and `await restart` below would look like awaiting null.
  let restart = null as Promise<void> | null;
  let next = 0;
  /** Writes sent and writes answered (or failed) so far: their difference is what is in flight. */
  let sent = 0;
  let finished = 0;
  let inFlightAtKill = -1;
  /** Writes sent before the kill that never got an answer: the kill cut them off. */
  let cutOff = 0;
  let restartFailed: Error | undefined;

  const killAndRestart = async () => {
    killedAt = acknowledged.size;
    killTime = Date.now();
    inFlightAtKill = sent - finished;
    child!.process.kill('SIGKILL');
    await child!.exited;
    await new Promise((r) => setTimeout(r, 1000)); // down for a while: callers time out and retry
    child = await startLetters();
  };

  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= TOTAL) return;
      const letter = { id: randomUUID(), title: `Letter ${i}`, content: `Dear child, this is letter number ${i}. I love you.` };
      for (let attempt = 1; ; attempt++) {
        if (restartFailed) throw restartFailed;
        attempts++;
        if (attempt === 2) retried++;
        const sentBeforeKill = killTime === Number.POSITIVE_INFINITY;
        sent++;
        try {
          const saved = await call(LettersRpc.write, letter).finally(() => finished++);
          if (saved.id !== letter.id || saved.title !== letter.title) unexpected.push(`letter ${i}: answered ${JSON.stringify(saved)}`);
          acknowledged.set(letter.id, saved);
          if (attempt > 1 && Date.parse(saved.created_at) < killTime) committedBeforeKill++;
          if (acknowledged.size === KILL_AFTER_ACKS && !restart) restart = killAndRestart().catch((error: Error) => void (restartFailed = error));
          break;
        } catch (error) {
          // No answer (the process is down or was killed mid-request): send the same letter again.
          if (error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE') {
            if (sentBeforeKill) cutOff++;
            await new Promise((r) => setTimeout(r, 100));
            continue;
          }
          unexpected.push(`letter ${i}: ${String((error as Error).message)}`);
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await restart;
  expect(unexpected).toEqual([]);
  expect(killedAt).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  // The kill landed on writes in flight: sent before it, not answered when it came.
  expect(inFlightAtKill).toBeGreaterThan(0);
  expect(acknowledged.size).toBe(TOTAL);

  // The list holds exactly the acknowledged letters.
  const listed: string[] = [];
  let cursor: string | null = null;
  do {
    const page: LetterPage = await call(LettersRpc.list, { limit: 200, ...(cursor ? { cursor } : {}) });
    listed.push(...page.letters.map((l) => l.id));
    cursor = page.nextCursor;
  } while (cursor);
  expect(listed).toHaveLength(TOTAL);
  expect(new Set(listed)).toEqual(new Set(acknowledged.keys()));

  // One LetterWritten per letter in the store.
  const [stored] = await db.orm.em.fork().execute<{ events: number; streams: number }[]>(
    `select count(*)::int as events, count(distinct stream_id)::int as streams from events where type = 'LetterWritten'`);
  expect(stored).toEqual({ events: TOTAL, streams: TOTAL });

  // JetStream: once the relay has drained the outbox, one message per letter, no event twice.
  await waitFor(async () => (await db.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from outbox'))[0]!.n === 0, 30_000, 'the outbox to drain');
  const jsm = await jetstreamManager(nc);
  const stream = scopedStreamName('letters', STACK_ID);
  const info = await jsm.streams.info(stream);
  const eventIds = new Set<string>();
  const letterIds: string[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (!message) continue;
    const event = JSON.parse(message.string()) as PublishedEvent<{ letterId: string }>;
    expect(message.subject).toBe(scopedSubject(LettersEvents.LetterWritten, STACK_ID));
    eventIds.add(event.eventId);
    letterIds.push(event.data.letterId);
  }
  expect(info.state.messages).toBe(TOTAL);
  expect(eventIds.size).toBe(TOTAL);
  expect(letterIds).toHaveLength(TOTAL);
  expect(new Set(letterIds)).toEqual(new Set(acknowledged.keys()));

  console.log(`[letters fault test] ${TOTAL} letters acknowledged in ${((Date.now() - started) / 1000).toFixed(1)} s; `
    + `SIGKILL after ${killedAt} acknowledgements with ${inFlightAtKill} writes in flight (${cutOff} of them never answered); ${retried} letters needed a retry (${attempts} calls in all), `
    + `${committedBeforeKill} of them already committed by the killed process; `
    + `list ${listed.length}, store ${stored!.events}, JetStream ${info.state.messages} messages / ${eventIds.size} distinct events`);
});
