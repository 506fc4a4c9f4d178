import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AccessKeysRpc, Queues, type DeliveryTimingJob, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import { connectNats, scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import { RpcClient } from '@lv/platform/nest';
import { queuePrefix } from '@lv/platform/queues';
import { compileForChildProcess, createTestDatabase, generateTestKeys, startChild, uniqueStackId, waitFor, type ChildService, type TestDatabase } from '@lv/testing';
import { accessKeysMigrations } from '../src/migrations.js';

// The delivery fault test: 120 owners' deliveries fall due at once and access-keys, which processes
// them (its delivery-timing worker), is SIGKILLed while it works through them, then started again.
// The process is a real child (this checkout compiled to a scratch directory). BullMQ hands the job
// the killed worker held to the new one once its lock has lapsed. Afterwards every delivery must be
// released exactly once: one DeliveryReleased per owner and one key per emergency contact.

jest.setTimeout(360_000);

const OWNERS = 120;
const CONTACTS = 2;
const KILL_AFTER_RELEASES = 40;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const STACK_ID = uniqueStackId('delfault');
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);

let db: TestDatabase;
let scratch: string;
let script: string;
let child: ChildService | undefined;
let rpc: RpcClient;
let redis: Redis;

const childEnv = () => ({
  DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey,
  KEY_MAIL_SECRET: 'delivery-fault-key-mail-secret-'.padEnd(48, 'x'), STACK_ID, LOG_LEVEL: 'info',
});
const startAccessKeys = async () => {
  const started = startChild(script, [], childEnv());
  // Its readiness log line, waited for as long as it takes (the test's timeout is the bound): a loaded machine is slow, not wrong.
  await started.waitForLine(/access-keys is listening on NATS/, null);
  return started;
};
const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token: string) =>
  rpc.callUnchecked({ ...declaration, subject: scopedSubject(declaration, STACK_ID) } as D, payload, { accessToken: token, meta: { requestId: 'delivery-fault' } });
const released = async () => (await db.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where type = 'DeliveryReleased'`))[0]!.n;

beforeAll(async () => {
  db = await createTestDatabase(accessKeysMigrations.slice(1), 'delfault');
  scratch = await compileForChildProcess(['libs/contracts', 'libs/platform', 'apps/access-keys'], 'delivery-fault');
  script = join(scratch, 'apps', 'access-keys', 'main.js');
  rpc = new RpcClient(NATS_URL, 10_000, 'delivery-fault-client');
  await rpc.connect();
  redis = new Redis(REDIS_URL);
  child = await startAccessKeys();
});

afterAll(async () => {
  await child?.kill('SIGKILL');
  await rpc?.close();
  for (const name of [Queues.DeliveryTiming.name, Queues.KeyEmails.name, Queues.TrusteeNotices.name]) {
    const queue = new Queue(name, { connection: redis, prefix: queuePrefix(STACK_ID) });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  redis?.disconnect();
  const nc = await connectNats(NATS_URL, 'delivery-fault-cleanup');
  await (await jetstreamManager(nc)).streams.delete(scopedStreamName('access-keys', STACK_ID)).catch(() => undefined);
  await nc.close();
  await db?.drop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

it('releases every delivery exactly once when the process working through them is SIGKILLed and restarted', async () => {
  const operator = signOperatorToken(signer, 'delivery-fault');
  const owners = Array.from({ length: OWNERS }, () => {
    const id = randomUUID();
    return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 3600).token };
  });
  for (const owner of owners) {
    for (let i = 0; i < CONTACTS; i++) {
      await call(AccessKeysRpc.addContact, { id: randomUUID(), name: `Contact ${i}`, label: 'My Child', email: `c${i}-${owner.id}@example.com` }, owner.token);
    }
    await call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: 'immediately', require_legal_verification: false, allow_preview: true, notify_trustee: false, trustee_name: '', trustee_email: '', final_thoughts: '',
    }, owner.token);
  }

  // Every owner's absence reported at once: 120 due jobs for one worker to work through.
  const started = Date.now();
  await Promise.all(owners.map((owner) => call(AccessKeysRpc.reportAbsence, { owner_id: owner.id, owner_email: `${owner.id}@example.com` }, operator)));
  await waitFor(async () => (await released()) >= KILL_AFTER_RELEASES, 60_000, `${KILL_AFTER_RELEASES} deliveries released`);
  child!.child.kill('SIGKILL');
  await child!.exited;
  const releasedAtKill = await released();
  const deliveryQueue = new Queue<DeliveryTimingJob>(Queues.DeliveryTiming.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
  // Jobs the killed worker had taken and not finished stay active (locked) until their lock lapses: the
  // kill landed on releases in flight. The new worker then takes them up.
  const { active: inFlightAtKill, completed: finishedAtKill } = await deliveryQueue.getJobCounts('active', 'completed');
  expect(inFlightAtKill).toBeGreaterThan(0);
  child = await startAccessKeys();
  await waitFor(async () => (await released()) === OWNERS, 120_000, 'every delivery released');
  // The job the killed worker held comes back once its lock has lapsed (BullMQ's lockDuration, 30 s)
  // and a stalled-job check of the new worker has seen it twice (stalledInterval, 30 s): up to 90 s.
  await waitFor(async () => (await deliveryQueue.getActiveCount()) + (await deliveryQueue.getWaitingCount()) === 0, 120_000, 'the queue to drain')
    .catch(async (error: Error) => {
      throw new Error(`${error.message}; the queue's jobs: ${JSON.stringify(await deliveryQueue.getJobCounts())}`);
    });
  await deliveryQueue.close();

  const sql = <T>(text: string) => db.orm.em.fork().execute<T[]>(text);
  const perOwner = await sql<{ owner: string; releases: number }>(`select stream_id as owner, count(*)::int as releases from events where type = 'DeliveryReleased' group by stream_id`);
  expect(perOwner).toHaveLength(OWNERS);
  expect(perOwner.filter((row) => row.releases !== 1)).toEqual([]);
  const keysPerContact = await sql<{ recipient_email: string; n: number }>(`select recipient_email, count(*)::int as n from access_keys where source = 'delivery' group by recipient_email`);
  expect(keysPerContact).toHaveLength(OWNERS * CONTACTS);
  expect(keysPerContact.filter((row) => row.n !== 1)).toEqual([]);
  for (const owner of owners.slice(0, 5)) {
    expect(await call(AccessKeysRpc.delivery, {}, owner.token)).toMatchObject({ status: 'released' });
  }
  console.log(`[delivery fault test] ${OWNERS} deliveries due at once; SIGKILL after ${releasedAtKill} releases (${finishedAtKill} jobs finished, ${inFlightAtKill} in flight); `
    + `all ${OWNERS} released in ${((Date.now() - started) / 1000).toFixed(1)} s, each exactly once (${perOwner.length} DeliveryReleased), ${keysPerContact.length} contacts with exactly one key each`);
});
