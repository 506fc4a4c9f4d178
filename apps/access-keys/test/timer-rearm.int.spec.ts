import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Queue } from 'bullmq';
import {
  AccessKeysRpc, Queues, trusteeLinkSealContext, type DeliveryTimingJob, type DeliveryView, type RpcDeclaration, type Trustee, type TrusteeLinkJob, type TrusteeReportNoticeJob,
  type TrusteeView,
} from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import { createQueue, openFromJob, queuePrefix, type TypedQueue } from '@lv/platform/queues';
import { generateTestKeys, uniqueStackId, waitFor } from '@lv/testing';
import { startAccessKeysStack, type AccessKeysStack } from '../src/test-support/access-keys-stack.js';
import { TimerRearm } from '../src/timers/timer-rearm.js';

// Timers are derived, never stored only in Redis: with a delivery (and a trustee report's notices) due
// in a few seconds, this spec's own queue keys are deleted, as a flushed or replaced Redis would lose
// them; the reconciler adds each back under the same id, twice run adds nothing more, and the delivery
// still happens at its time, exactly once. One whose time passed while Redis had lost it runs at once.

jest.setTimeout(180_000);

const STACK_ID = uniqueStackId('timers');
process.env.STACK_ID = STACK_ID;
const keys = generateTestKeys();
const KEY_MAIL_SECRET = 'timers-spec-key-mail-secret-'.padEnd(48, 'q');
const signer = new AccessTokenSigner(keys.privateKey);
const DAY = 86_400_000;
/** The owner's veto window here (production refuses below 72 hours): the delivery is due this long after the report. */
const VETO_MS = 8000;

interface Owner { id: string; token: string }
const newOwner = (): Owner => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 600).token };
};

describe('access-keys: timed jobs re-derived from the event streams', () => {
  let stack: AccessKeysStack;
  let links: TypedQueue<TrusteeLinkJob>;
  let deliveries: TypedQueue<DeliveryTimingJob>;
  let notices: TypedQueue<TrusteeReportNoticeJob>;
  let ip = 0;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) =>
    stack.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'timers-spec', ip: `198.51.${++ip % 250}.9`, userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const sql = <T>(text: string, params: unknown[] = []) => stack.db.orm.em.fork().execute<T[]>(text, params);
  const delivery = (owner: Owner) => call(AccessKeysRpc.delivery, {}, owner.token) as Promise<DeliveryView>;
  const released = (owner: Owner) => sql<{ data: { releasedAt: string; dueAt: string } }>(`select data from events where stream_id = ? and type = 'DeliveryReleased'`, [`delivery-${owner.id}`]);
  const ALL = ['wait', 'delayed', 'active', 'completed', 'failed'] as const;
  const deliveryJobs = async (owner: Owner) => (await deliveries.getJobs([...ALL])).filter((j) => j.data.ownerId === owner.id);
  const noticeJobs = async (owner: Owner) => (await notices.getJobs([...ALL])).filter((j) => j.data.ownerId === owner.id);
  const ids = (jobs: { id?: string }[]) => jobs.map((j) => j.id).sort();
  const rearm = () => stack.service.app.get(TimerRearm).rearm();
  /** What a flushed Redis leaves of these queues: nothing (only this spec's own stack's keys are deleted). */
  const wipe = async (...queueNames: string[]) => {
    for (const name of queueNames) {
      const found = await stack.redis.keys(`${queuePrefix(STACK_ID)}:${name}:*`);
      if (found.length) await stack.redis.del(...found);
    }
  };

  /** An accepted trustee's own link: invited, accepted, then "send me my trustee link". */
  const acceptedTrusteeLink = async (owner: Owner) => {
    const trustee = (await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: 'Ann', email: `ann-${owner.id}@example.com`, relationship: 'My Sibling' }, owner.token)) as Trustee;
    const linkOf = async (kind: TrusteeLinkJob['kind']) => {
      let job: { data: TrusteeLinkJob } | undefined;
      await waitFor(async () => Boolean(job = (await links.getJobs([...ALL])).find((j) => j.data.trusteeId === trustee.id && j.data.kind === kind)), 5000, `the trustee's ${kind} job`);
      return Object.fromEntries(new URL(openFromJob(KEY_MAIL_SECRET, trusteeLinkSealContext(job!.data.linkId), job!.data.sealedLink), 'http://vault.example').searchParams);
    };
    await call(AccessKeysRpc.answerTrustee, { ...(await linkOf('invitation')), answer: 'accept' });
    await call(AccessKeysRpc.requestTrusteeLink, { email: trustee.email });
    return linkOf('link');
  };

  beforeAll(async () => {
    stack = await startAccessKeysStack({
      stackId: STACK_ID, label: 'timers', keys, keyMailSecret: KEY_MAIL_SECRET, ownerName: 'Sam Taylor', env: { TRUSTEE_REPORT_VETO_HOURS: String(VETO_MS / 3_600_000) },
    });
    links = stack.queue(Queues.TrusteeLinks);
    deliveries = stack.queue(Queues.DeliveryTiming);
    notices = stack.queue(Queues.TrusteeReportNotices);
  });

  afterAll(() => stack?.close());

  it('a report’s delivery (due at the veto window’s end) and its notices, lost with Redis: added back under the same ids, once; released at its time, exactly once', async () => {
    const owner = newOwner();
    await call(AccessKeysRpc.addContact, { id: randomUUID(), name: 'Kid', label: 'My Child', email: `kid-${owner.id}@example.com` }, owner.token);
    await call(AccessKeysRpc.saveDeliverySettings, { delivery_timing: 'immediately', require_legal_verification: false, allow_preview: true, notify_trustee: false, final_thoughts: '' }, owner.token);
    const link = await acceptedTrusteeLink(owner);
    const view = (await call(AccessKeysRpc.reportOwner, { ...link, kind: 'died', note: '' })) as TrusteeView;
    const due = await delivery(owner);
    expect(due.status).toBe('waiting');
    expect(Date.parse(due.due_at!)).toBeGreaterThanOrEqual(Date.parse(view.report!.vetoEndsAt));
    const armedDeliveries = ids(await deliveryJobs(owner));
    const armedNotices = ids(await noticeJobs(owner));
    expect(armedDeliveries).toEqual([`delivery-${due.release_id}-${Date.parse(due.due_at!)}`]);
    expect(armedNotices.length).toBeGreaterThanOrEqual(2);

    await wipe(Queues.DeliveryTiming.name, Queues.TrusteeReportNotices.name);
    expect(await deliveryJobs(owner)).toEqual([]);
    expect(await noticeJobs(owner)).toEqual([]);

    expect((await rearm()).added).toBeGreaterThanOrEqual(armedDeliveries.length + armedNotices.length);
    const [job] = await deliveryJobs(owner);
    expect(ids(await deliveryJobs(owner))).toEqual(armedDeliveries);
    expect(ids(await noticeJobs(owner))).toEqual(armedNotices);
    expect(job!.data).toEqual({ subjectType: 'delivery', subjectId: due.release_id, ownerId: owner.id, dueAt: due.due_at, sharedBy: 'Sam Taylor' });
    expect(await job!.getState()).toBe('delayed');
    // Not before its time: the delay runs to the due time (give or take the time since the pass).
    expect(job!.timestamp + job!.opts.delay!).toBeGreaterThanOrEqual(Date.parse(due.due_at!) - 1000);

    // A second pass (and the periodic ones) finds every job there: nothing more.
    expect(await rearm()).toMatchObject({ added: 0 });
    expect(ids(await deliveryJobs(owner))).toEqual(armedDeliveries);
    expect(ids(await noticeJobs(owner))).toEqual(armedNotices);

    await waitFor(async () => (await delivery(owner)).status === 'released', 30_000, 'the re-derived delivery to be released');
    const releases = await released(owner);
    expect(releases).toHaveLength(1);
    expect(Date.parse(releases[0]!.data.releasedAt)).toBeGreaterThanOrEqual(Date.parse(due.due_at!));
    // Released: a pass adds no wake for it, and the one key was issued once.
    await waitFor(async () => (await deliveryJobs(owner)).every((j) => j.finishedOn), 10_000, 'the delivery job to finish');
    await rearm();
    expect(ids(await deliveryJobs(owner))).toEqual(armedDeliveries);
    expect(await sql(`select id from access_keys where owner_id = ? and source = 'delivery'`, [owner.id])).toHaveLength(1);
    expect(await released(owner)).toHaveLength(1);
  });

  it('a delivery job that wakes before its time (clock skew) waits again as the same job: a pass keeps it, adds no second wake, and it is released once, at its time', async () => {
    const owner = newOwner();
    await call(AccessKeysRpc.addContact, { id: randomUUID(), name: 'Kid', label: 'My Child', email: `kid-${owner.id}@example.com` }, owner.token);
    await call(AccessKeysRpc.saveDeliverySettings, { delivery_timing: 'immediately', require_legal_verification: false, allow_preview: true, notify_trustee: false, final_thoughts: '' }, owner.token);
    await call(AccessKeysRpc.reportOwner, { ...(await acceptedTrusteeLink(owner)), kind: 'died', note: '' });
    const due = await delivery(owner);
    const jobId = `delivery-${due.release_id}-${Date.parse(due.due_at!)}`;
    const job = await deliveries.getJob(jobId);
    expect(await job!.getState()).toBe('delayed');
    // Woken now, seconds before its due time, as a skewed clock would wake it.
    await job!.promote();
    await waitFor(async () => (await deliveries.getJob(jobId))!.processedOn !== undefined, 10_000, 'the early wake to run');
    await waitFor(async () => (await deliveries.getJob(jobId))!.getState().then((state) => state === 'delayed'), 10_000, 'the early wake to wait again');
    expect(await released(owner)).toEqual([]);
    expect(ids(await deliveryJobs(owner))).toEqual([jobId]);
    expect(await rearm()).toMatchObject({ added: 0 });
    expect(ids(await deliveryJobs(owner))).toEqual([jobId]);

    await waitFor(async () => (await released(owner)).length === 1, 30_000, 'the delivery to be released at its time');
    expect(Date.parse((await released(owner))[0]!.data.releasedAt)).toBeGreaterThanOrEqual(Date.parse(due.due_at!));
    await waitFor(async () => (await deliveries.getJob(jobId))!.getState().then((state) => state === 'completed'), 10_000, 'the wake to finish');
    expect(ids(await deliveryJobs(owner))).toEqual([jobId]);
    expect(await released(owner)).toHaveLength(1);
  });

  it('a delivery whose due time passed while Redis had lost its job runs at once, once; a job dead-lettered meanwhile is replaced', async () => {
    const { AccessKeysService } = await import('../src/access-keys.service.js');
    const { DeliveryService } = await import('../src/if-im-not-there/delivery.service.js');
    const keysService = stack.service.app.get(AccessKeysService);
    // Triggered "30 days and a second ago" with the 30-day timing: due a second ago. Its job went to a
    // queue nobody works, as if Redis had lost it, and a failed job holds its id in the real one.
    const nowhere = createQueue(Queues.DeliveryTiming, stack.redis, { prefix: `${queuePrefix(STACK_ID)}-nowhere` });
    const past = new DeliveryService({ orm: stack.db.orm, store: keysService.store, keys: keysService, jobs: nowhere, now: () => new Date(Date.now() - 30 * DAY - 1000) });
    const owner = newOwner();
    await call(AccessKeysRpc.addContact, { id: randomUUID(), name: 'Kid', label: 'My Child', email: `kid-${owner.id}@example.com` }, owner.token);
    await call(AccessKeysRpc.saveDeliverySettings, { delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: true, notify_trustee: false, final_thoughts: '' }, owner.token);
    const due = await past.trigger(owner.id, `${owner.id}@example.com`, 'inactivity', {});
    await nowhere.obliterate({ force: true });
    await nowhere.close();
    expect(due.status).toBe('waiting');
    expect(Date.parse(due.due_at!)).toBeLessThan(Date.now());
    expect(await deliveryJobs(owner)).toEqual([]);
    const jobId = `delivery-${due.release_id}-${Date.parse(due.due_at!)}`;
    const raw = new Queue(Queues.DeliveryTiming.name, { connection: stack.redis, prefix: queuePrefix(STACK_ID) });
    await raw.add(Queues.DeliveryTiming.name, { broken: true }, { jobId });
    await raw.close();
    await waitFor(async () => (await deliveries.getJob(jobId))?.failedReason !== undefined, 10_000, 'the broken job to be dead-lettered');
    expect(await released(owner)).toEqual([]);

    const started = Date.now();
    await rearm();
    await waitFor(async () => (await released(owner)).length === 1, 15_000, 'the overdue delivery to be released');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ids(await deliveryJobs(owner))).toEqual([jobId]);
    await rearm();
    expect(await released(owner)).toHaveLength(1);
  });
});
