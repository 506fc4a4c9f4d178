import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessKeysRpc, Queues, type DeliveryTimingJob } from '@lv/contracts';
import { signOperatorToken } from '@lv/platform/auth';
import { waitFor } from '@lv/testing';
import { AccessKeysProcess } from './support/access-keys-process.js';

// The delivery fault test: 120 owners' deliveries fall due at once and access-keys, which processes
// them (its delivery-timing worker), is SIGKILLed while it works through them, then started again.
// The process is a real child (this checkout compiled to a scratch directory). BullMQ hands the job
// the killed worker held to the new one once its lock has lapsed. Afterwards every delivery must be
// released exactly once: one DeliveryReleased per owner and one key per emergency contact.

jest.setTimeout(360_000);

const OWNERS = 120;
const CONTACTS = 2;
const KILL_AFTER_RELEASES = 40;

const accessKeys = new AccessKeysProcess('delfault', 10_000);
const signer = accessKeys.signer;
const call = accessKeys.call.bind(accessKeys);
const released = async () => (await accessKeys.db.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from events where type = 'DeliveryReleased'`))[0]!.n;

beforeAll(() => accessKeys.setUp());
afterAll(() => accessKeys.tearDown());

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
  await accessKeys.kill();
  const releasedAtKill = await released();
  const deliveryQueue = accessKeys.queue<DeliveryTimingJob>(Queues.DeliveryTiming.name);
  // Jobs the killed worker had taken and not finished stay active (locked) until their lock lapses: the
  // kill landed on releases in flight. The new worker then takes them up.
  const { active: inFlightAtKill, completed: finishedAtKill } = await deliveryQueue.getJobCounts('active', 'completed');
  expect(inFlightAtKill).toBeGreaterThan(0);
  await accessKeys.start();
  await waitFor(async () => (await released()) === OWNERS, 120_000, 'every delivery released');
  // The job the killed worker held comes back once its lock has lapsed (BullMQ's lockDuration, 30 s)
  // and a stalled-job check of the new worker has seen it twice (stalledInterval, 30 s): up to 90 s.
  await waitFor(async () => (await deliveryQueue.getActiveCount()) + (await deliveryQueue.getWaitingCount()) === 0, 120_000, 'the queue to drain')
    .catch(async (error: Error) => {
      throw new Error(`${error.message}; the queue's jobs: ${JSON.stringify(await deliveryQueue.getJobCounts())}`);
    });
  await deliveryQueue.close();

  const sql = <T>(text: string) => accessKeys.db.orm.em.fork().execute<T[]>(text);
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
