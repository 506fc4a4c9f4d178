import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import {
  AccessKeysRpc, IdentityEvents, InactivityMessages, inactivityWarningSealContext, Queues, type DeliveryTimingJob, type InactivityTimingJob, type InactivityWarningJob, type InactivityWatch,
  type RpcDeclaration,
} from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { OwnerLinkSigner } from '@lv/platform/links';
import { scopedSubject } from '@lv/platform/messaging';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import { openFromJob, type TypedQueue } from '@lv/platform/queues';
import { generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import type { AccessKeysConfig } from '../src/config.js';
import { startAccessKeysStack, type AccessKeysStack } from '../src/test-support/access-keys-stack.js';

// The inactivity watch end to end inside access-keys: identity's sign-ins consumed from JetStream, the
// owner's settings over NATS as the gateway calls them, warnings queued for notifications with their
// check-in links, and the lapse starting the vault delivery; the timing decisions on a fake clock.

jest.setTimeout(180_000);

const STACK_ID = uniqueStackId('inactive');
process.env.STACK_ID = STACK_ID;

const keys = generateTestKeys();
const KEY_MAIL_SECRET = 'inactivity-spec-key-mail-secret-'.padEnd(48, 'q');
const signer = new AccessTokenSigner(keys.privateKey);
const DAY = 86_400_000;

interface Owner { id: string; token: string }
const newOwner = (emailVerified = true): Owner => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified, kind: 'user' }, 600).token };
};

describe('access-keys: the inactivity watch', () => {
  let stack: AccessKeysStack;
  let db: TestDatabase;
  let service: RunningService<AccessKeysConfig>;
  let rpc: RpcClient;
  let timing: TypedQueue<InactivityTimingJob>;
  let warnings: TypedQueue<InactivityWarningJob>;
  let deliveryJobs: TypedQueue<DeliveryTimingJob>;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'inactivity-spec', ip: '192.0.2.44', userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);
  const watch = (owner: Owner) => call(AccessKeysRpc.inactivity, {}, owner.token) as Promise<InactivityWatch>;
  const save = (owner: Owner, period: number | null) => call(AccessKeysRpc.saveInactivity, { period_days: period }, owner.token) as Promise<InactivityWatch>;
  const lapses = (owner: Owner) => sql(`select data from events where stream_id = ? and type = 'InactivityLapsed'`, [`inactivity-${owner.id}`]);
  const triggers = (owner: Owner) => sql<{ data: { trigger: string } }>(`select data from events where stream_id = ? and type = 'DeliveryTriggered'`, [`delivery-${owner.id}`]);
  const warningJobs = async (owner: Owner) => (await warnings.getJobs(['wait', 'delayed', 'active', 'completed', 'failed'])).filter((j) => j.data.ownerId === owner.id);

  /** identity's event, as its outbox relay publishes it (Nats-Msg-Id: the event id). */
  const publishSignIn = async (userId: string, signedInAt: string, eventId = randomUUID()) => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', eventId);
    const body = { eventId, type: 'UserSignedIn', streamId: `user-activity-${userId}`, version: 1, occurredAt: signedInAt, data: { userId, sessionId: randomUUID(), signedInAt }, metadata: {} };
    await jetstream(service.core.nats).publish(scopedSubject(IdentityEvents.UserSignedIn, STACK_ID), JSON.stringify(body), { headers: h });
  };

  /** identity's EmailChanged, as its outbox relay publishes it. */
  const publishEmailChange = async (userId: string, email: string, previousEmail: string, eventId = randomUUID()) => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', eventId);
    const body = { eventId, type: 'EmailChanged', streamId: `user-${userId}`, version: 2, occurredAt: new Date().toISOString(), data: { userId, email, previousEmail }, metadata: {} };
    await jetstream(service.core.nats).publish(scopedSubject(IdentityEvents.EmailChanged, STACK_ID), JSON.stringify(body), { headers: h });
    return eventId;
  };

  /** An InactivityService (and its delivery service) on the running one's store, with a clock the spec moves. */
  const onFakeClock = async (start: number) => {
    const { AccessKeysService } = await import('../src/access-keys.service.js');
    const { DeliveryService } = await import('../src/if-im-not-there/delivery.service.js');
    const { InactivityService, CHECK_IN_PURPOSE, CHECK_IN_LINK_DAYS } = await import('../src/if-im-not-there/inactivity.service.js');
    const keysService = service.app.get(AccessKeysService);
    const clock = { now: start };
    const now = () => new Date(clock.now);
    const delivery = new DeliveryService({ orm: db.orm, store: keysService.store, keys: keysService, jobs: deliveryJobs, now });
    const links = new OwnerLinkSigner({ namespace: 'access-keys/check-in', secret: KEY_MAIL_SECRET, secretName: 'KEY_MAIL_SECRET', purposes: [CHECK_IN_PURPOSE], ttlSeconds: CHECK_IN_LINK_DAYS * 86_400, now: () => clock.now });
    // Its warnings go where notifications would take them.
    const inactivity = new InactivityService({ orm: db.orm, store: keysService.store, delivery, jobs: timing, warnings, links, keyMailSecret: KEY_MAIL_SECRET, now });
    return { inactivity, clock };
  };

  beforeAll(async () => {
    // The sign-ins below are published as identity would, into its own stream.
    stack = await startAccessKeysStack({ stackId: STACK_ID, label: 'inactive', keys, keyMailSecret: KEY_MAIL_SECRET, ownStreams: ['identity'] });
    ({ db, service, rpc } = stack);
    timing = stack.queue(Queues.InactivityTiming);
    warnings = stack.queue(Queues.InactivityWarnings);
    deliveryJobs = stack.queue(Queues.DeliveryTiming);
  });

  afterAll(() => stack?.close());

  it('keeps each owner’s latest sign-in from identity’s events (a redelivered or older one changes nothing)', async () => {
    const owner = newOwner();
    const first = new Date(Date.now() - 2 * DAY).toISOString();
    const latest = new Date(Date.now() - DAY).toISOString();
    const eventId = randomUUID();
    await publishSignIn(owner.id, latest, eventId);
    await publishSignIn(owner.id, first);
    await publishSignIn(owner.id, latest, randomUUID());
    const lastSeen = async () => (await sql<{ last_sign_in_at: Date | null }>('select last_sign_in_at from owner_last_seen where owner_id = ?', [owner.id]))[0]?.last_sign_in_at;
    await waitFor(async () => (await sql<{ n: number }>(`select count(*)::int as n from inbox where consumer like 'access-keys-sign-ins%'`))[0]!.n >= 3, 15_000, 'the sign-ins to be consumed');
    expect(new Date((await lastSeen())!).toISOString()).toBe(latest);
  });

  it('off by default; the owner chooses a period, pauses and resumes it, each saved and shown with its due times', async () => {
    const owner = newOwner();
    expect(await watch(owner)).toEqual({ period_days: null, paused: false, last_seen_at: null, warnings_at: [], lapse_at: null, lapsed_at: null });
    expect(await codeOf(call(AccessKeysRpc.pauseInactivity, {}, owner.token))).toBe('CONFLICT');
    expect(await codeOf(save(owner, 45))).toBe('VALIDATION_FAILED');
    const saved = await save(owner, 30);
    const start = Date.parse(saved.last_seen_at!);
    expect(saved).toMatchObject({ period_days: 30, paused: false, lapsed_at: null });
    expect(Date.parse(saved.lapse_at!) - start).toBe(30 * DAY);
    expect(saved.warnings_at.map((at) => (Date.parse(saved.lapse_at!) - Date.parse(at)) / DAY)).toEqual([14, 3]);
    // Its first wake is queued, delayed until the first warning.
    const first = await timing.getJob(`inactivity-${owner.id}-${Date.parse(saved.warnings_at[0]!)}`);
    expect(await first?.isDelayed()).toBe(true);
    // The owner's e-mail (for the warnings and the delivery's key e-mails) is sealed in the events.
    expect(JSON.stringify(await sql('select data from events where stream_id = ?', [`inactivity-${owner.id}`]))).not.toContain(`${owner.id}@example.com`);
    const paused = (await call(AccessKeysRpc.pauseInactivity, {}, owner.token)) as InactivityWatch;
    expect(paused).toMatchObject({ period_days: 30, paused: true, warnings_at: [], lapse_at: null });
    expect(await watch(owner)).toEqual(paused);
    const resumed = (await call(AccessKeysRpc.resumeInactivity, {}, owner.token)) as InactivityWatch;
    expect(resumed).toMatchObject({ paused: false, period_days: 30 });
    expect(Date.parse(resumed.lapse_at!)).toBeGreaterThanOrEqual(Date.parse(saved.lapse_at!));
    expect((await save(owner, null)).lapse_at).toBeNull();
    // Another owner sees his own watch only.
    expect((await watch(newOwner())).period_days).toBeNull();
  });

  it('on a fake clock: no warning a millisecond early; two warnings with a check-in link each; the link checks in once; then the lapse starts the delivery once, of 20 racing wakes', async () => {
    const owner = newOwner();
    await call(AccessKeysRpc.addContact, { id: randomUUID(), name: 'Ellie', label: 'My Child', email: `ellie-${owner.id}@example.com` }, owner.token);
    const saved = await save(owner, 30);
    const { inactivity, clock } = await onFakeClock(Date.now());
    const wake = (dueAt: string) => inactivity.wake({ ownerId: owner.id, dueAt });
    const [warn1, warn2] = saved.warnings_at as [string, string];

    clock.now = Date.parse(warn1) - 1;
    expect(await wake(warn1)).toEqual({ outcome: 'early', next: warn1 });
    clock.now = Date.parse(warn1);
    expect(await wake(warn1)).toEqual({ outcome: 'warned', next: warn2 });
    expect(await wake(warn1)).toEqual({ outcome: 'nothing', next: warn2 });
    clock.now = Date.parse(warn2);
    expect((await Promise.all(Array.from({ length: 5 }, () => wake(warn2)))).filter((o) => o.outcome === 'warned')).toHaveLength(1);
    const jobs = await warningJobs(owner);
    expect(jobs.map((j) => j.data.stage).sort()).toEqual([1, 2]);
    expect(jobs[0]!.data).toMatchObject({ ownerEmail: `${owner.id}@example.com`, lapseAt: saved.lapse_at });
    // What notifications asks before sending: still the current warning?
    for (const job of jobs) expect(await call(AccessKeysRpc.inactivityWarningState, { owner_id: owner.id, warning_id: job.data.warningId })).toEqual({ state: 'current' });
    expect(await call(AccessKeysRpc.inactivityWarningState, { owner_id: owner.id, warning_id: randomUUID() })).toEqual({ state: 'unknown' });

    // The link, as the e-mail carries it, sealed in the job.
    const linkOf = (job: (typeof jobs)[number]) => {
      const url = new URL(openFromJob(KEY_MAIL_SECRET, inactivityWarningSealContext(job.data.warningId), job.data.sealedLink), 'http://vault.example');
      expect(url.pathname).toBe('/still-here');
      return Object.fromEntries(url.searchParams) as { w: string; u: string; exp: string; sig: string };
    };
    const link = linkOf(jobs[0]!);
    expect(link.u).toBe(owner.id);
    // Forged, altered, another owner's, expired: refused alike, and nothing is recorded.
    const checkIn = (body: unknown) => call(AccessKeysRpc.checkInByLink, body);
    expect(await codeOf(checkIn({ ...link, sig: link.sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }))).toBe('CHECK_IN_LINK_INVALID');
    expect(await codeOf(checkIn({ ...link, u: newOwner().id }))).toBe('CHECK_IN_LINK_INVALID');
    expect(await codeOf(checkIn({ ...link, exp: String(Number(link.exp) + 86_400) }))).toBe('CHECK_IN_LINK_INVALID');
    const { url: expired } = new OwnerLinkSigner({ namespace: 'access-keys/check-in', secret: KEY_MAIL_SECRET, secretName: 'K', purposes: ['check-in'], ttlSeconds: 1, now: () => Date.now() - 60_000 })
      .signLink('check-in', '/still-here', owner.id, link.w, { w: link.w });
    expect(await codeOf(checkIn(Object.fromEntries(new URL(expired, 'http://x').searchParams)))).toBe('CHECK_IN_LINK_INVALID');
    const checkInsBefore = await sql(`select 1 from events where stream_id = ? and type = 'OwnerCheckedIn'`, [`inactivity-${owner.id}`]);
    expect(checkInsBefore).toEqual([]);
    // The real link: checked in, once.
    const reply = (await checkIn(link)) as { checked_in_at: string; delivery_cancelled: boolean };
    expect(reply.delivery_cancelled).toBe(false);
    expect(await codeOf(checkIn(link))).toBe('CHECK_IN_LINK_INVALID');
    // The check-in moved the clock: both warnings are stale now, and the old lapse time finds nothing due.
    for (const job of jobs) expect(await call(AccessKeysRpc.inactivityWarningState, { owner_id: owner.id, warning_id: job.data.warningId })).toEqual({ state: 'stale' });
    const lapseAt = (await watch(owner)).lapse_at!;
    expect(Date.parse(lapseAt)).toBe(Date.parse(reply.checked_in_at) + 30 * DAY);
    // At the old lapse time (on this clock the check-in was 30 days ago): no delivery, only the new clock's last warning.
    clock.now = Date.parse(saved.lapse_at!);
    expect(await wake(saved.lapse_at!)).toEqual({ outcome: 'warned', next: lapseAt });
    expect(await lapses(owner)).toEqual([]);
    expect((await warningJobs(owner)).filter((j) => j.data.lapseAt === lapseAt).map((j) => j.data.stage)).toEqual([2]);

    // Nobody comes: at the new lapse time, 20 racing wakes start the delivery once, never a millisecond early.
    clock.now = Date.parse(lapseAt) - 1;
    expect((await wake(lapseAt)).outcome).not.toBe('lapsed');
    clock.now = Date.parse(lapseAt);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => wake(lapseAt).catch((e: Error) => ({ outcome: e.name, next: null }))));
    expect(outcomes.filter((o) => o.outcome === 'lapsed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome !== 'lapsed' && o.outcome !== 'nothing')).toEqual([]);
    expect(await lapses(owner)).toHaveLength(1);
    expect((await triggers(owner)).map((t) => t.data.trigger)).toEqual(['inactivity']);
    const delivery = (await call(AccessKeysRpc.delivery, {}, owner.token)) as { status: string; due_at: string };
    // The owner's timing applies as for a trustee's report (the default: 30 days after the trigger).
    expect(delivery.status).toBe('waiting');
    expect(Date.parse(delivery.due_at) - Date.parse(lapseAt)).toBe(30 * DAY);
    expect((await watch(owner)).lapsed_at).toBe(lapseAt);
    // The last warning's link, opened after the lapse, stops the delivery under way and checks in.
    const lastWarning = (await warningJobs(owner)).find((j) => j.data.lapseAt === lapseAt)!;
    expect(await checkIn(linkOf(lastWarning))).toMatchObject({ delivery_cancelled: true });
    expect(((await call(AccessKeysRpc.delivery, {}, owner.token)) as { status: string }).status).toBe('cancelled');
    // "I'm Still Here" checks in too.
    expect(((await call(AccessKeysRpc.cancelDelivery, {}, owner.token)) as { status: string }).status).toBe('cancelled');
    expect(await sql(`select 1 from events where stream_id = ? and type = 'OwnerCheckedIn'`, [`inactivity-${owner.id}`])).toHaveLength(3);
  });

  it('turns a watch on only for an owner whose address is verified (EMAIL_NOT_VERIFIED, 403): nothing recorded, no wake queued; off is always allowed', async () => {
    const owner = newOwner(false);
    const refused = await save(owner, 30).then(() => null, (e: DomainError) => e);
    expect(refused).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: InactivityMessages.verifyEmailFirst });
    expect(await codeOf(call(AccessKeysRpc.testInactivityWarning, {}, owner.token))).toBe('EMAIL_NOT_VERIFIED');
    expect(await sql('select 1 from events where stream_id = ?', [`inactivity-${owner.id}`])).toEqual([]);
    expect((await timing.getJobs(['delayed', 'waiting'])).filter((job) => job?.data.ownerId === owner.id)).toEqual([]);
    expect((await save(owner, null)).period_days).toBeNull();
    expect(await watch(owner)).toMatchObject({ period_days: null, lapse_at: null });
  });

  it('sends a test warning on the owner’s request, with a link that checks him in; not while the watch is off, nor twice in 10 minutes', async () => {
    const owner = newOwner();
    expect(await codeOf(call(AccessKeysRpc.testInactivityWarning, {}, owner.token))).toBe('CONFLICT');
    await save(owner, 90);
    await call(AccessKeysRpc.testInactivityWarning, {}, owner.token);
    expect(await codeOf(call(AccessKeysRpc.testInactivityWarning, {}, owner.token))).toBe('RATE_LIMITED');
    const [job, ...more] = await warningJobs(owner);
    expect(more).toEqual([]);
    expect(job!.data).toMatchObject({ stage: 0, ownerEmail: `${owner.id}@example.com` });
    expect(await call(AccessKeysRpc.inactivityWarningState, { owner_id: owner.id, warning_id: job!.data.warningId })).toEqual({ state: 'current' });
    const url = new URL(openFromJob(KEY_MAIL_SECRET, inactivityWarningSealContext(job!.data.warningId), job!.data.sealedLink), 'http://vault.example');
    expect(await call(AccessKeysRpc.checkInByLink, Object.fromEntries(url.searchParams))).toMatchObject({ delivery_cancelled: false });
  });

  it('sends the warnings to the address the owner changed to in Settings (identity’s EmailChanged), without moving the clock', async () => {
    const owner = newOwner();
    const saved = await save(owner, 30);
    const newAddress = `new-${owner.id}@example.com`;
    const consumed = (eventIds: string[]) => waitFor(async () =>
      (await sql(`select 1 from inbox where consumer = 'access-keys-owner-emails' and event_id = any(?::uuid[])`, [`{${eventIds.join(',')}}`])).length === eventIds.length, 15_000, 'the changes consumed');
    // A redelivery (another event id, the same change) records nothing more.
    await consumed([
      await publishEmailChange(owner.id, newAddress, `${owner.id}@example.com`),
      await publishEmailChange(owner.id, newAddress, `${owner.id}@example.com`),
    ]);
    expect(await sql(`select 1 from events where stream_id = ? and type = 'InactivityOwnerEmailChanged'`, [`inactivity-${owner.id}`])).toHaveLength(1);
    await call(AccessKeysRpc.testInactivityWarning, {}, owner.token);
    const [job] = await warningJobs(owner);
    expect(job!.data).toMatchObject({ stage: 0, ownerEmail: newAddress });
    expect(await call(AccessKeysRpc.inactivity, {}, owner.token)).toMatchObject({ lapse_at: saved.lapse_at, warnings_at: saved.warnings_at });
    // An owner who never set a watch gets no stream from a change of address.
    const other = newOwner();
    await consumed([await publishEmailChange(other.id, `new-${other.id}@example.com`, `${other.id}@example.com`)]);
    expect(await sql(`select 1 from events where stream_id = ?`, [`inactivity-${other.id}`])).toEqual([]);
  });

  it('a sign-in between a warning and the due time means no delivery; a paused watch never fires', async () => {
    const signedIn = newOwner();
    const saved = await save(signedIn, 60);
    const { inactivity, clock } = await onFakeClock(Date.now());
    clock.now = Date.parse(saved.warnings_at[0]!);
    expect((await inactivity.wake({ ownerId: signedIn.id, dueAt: saved.warnings_at[0]! })).outcome).toBe('warned');
    const signInAt = new Date(Date.now() + 60_000).toISOString();
    await publishSignIn(signedIn.id, signInAt);
    await waitFor(async () => (await watch(signedIn)).last_seen_at === signInAt, 15_000, 'the sign-in to reach the watch');
    clock.now = Date.parse(saved.lapse_at!);
    // The clock counts from the sign-in now: no lapse, the new clock's last warning instead, and the next wake at its lapse.
    expect(await inactivity.wake({ ownerId: signedIn.id, dueAt: saved.lapse_at! })).toEqual({ outcome: 'warned', next: new Date(Date.parse(signInAt) + 60 * DAY).toISOString() });
    expect(await lapses(signedIn)).toEqual([]);

    const paused = newOwner();
    const pausedSaved = await save(paused, 30);
    await call(AccessKeysRpc.pauseInactivity, {}, paused.token);
    clock.now = Date.parse(pausedSaved.lapse_at!) + 400 * DAY;
    expect(await inactivity.wake({ ownerId: paused.id, dueAt: pausedSaved.lapse_at! })).toEqual({ outcome: 'nothing', next: null });
    expect(await lapses(paused)).toEqual([]);
    expect(await triggers(paused)).toEqual([]);
    expect(await warningJobs(paused)).toEqual([]);
  });

  it('re-derives every watch’s next wake under its own job id: a wake lost with Redis (or dead-lettered) does not end the watch', async () => {
    const owner = newOwner();
    const saved = await save(owner, 180);
    const paused = newOwner();
    await save(paused, 30);
    await call(AccessKeysRpc.pauseInactivity, {}, paused.token);
    const pending = async (o: Owner) => (await timing.getJobs(['delayed', 'wait'])).filter((j) => j.data.ownerId === o.id);
    const armed = (await pending(owner)).map((j) => j.id);
    expect(armed).toEqual([`inactivity-${owner.id}-${Date.parse(saved.warnings_at[0]!)}`]);
    const pausedJobs = (await pending(paused)).map((j) => j.id);
    for (const job of await pending(owner)) await job.remove();
    expect(await pending(owner)).toEqual([]);
    const { TimerRearm } = await import('../src/timers/timer-rearm.js');
    expect((await service.app.get(TimerRearm).rearm()).added).toBeGreaterThanOrEqual(1);
    expect((await pending(owner)).map((j) => [j.id, j.data.dueAt])).toEqual([[armed[0], saved.warnings_at[0]]]);
    // The paused watch gets none (its wake from before the pause only finds it paused).
    expect((await pending(paused)).map((j) => j.id)).toEqual(pausedJobs);
  });

  it('the running worker takes a wake that is due: a watch whose time has come starts the delivery by itself', async () => {
    const owner = newOwner();
    // Set 31 days ago (on the fake clock), with no sign-in since; then a wake due now reaches the running worker.
    const { inactivity } = await onFakeClock(Date.now() - 31 * DAY);
    await inactivity.save({ kind: 'user', userId: owner.id, sessionId: randomUUID(), email: `${owner.id}@example.com`, tier: 'none', isAdmin: false, emailVerified: true, provedAt: Date.now() }, 30, { requestId: 'spec' });
    await timing.add(Queues.InactivityTiming.name, { ownerId: owner.id, dueAt: new Date().toISOString() }, { jobId: `spec-wake-${owner.id}` });
    await waitFor(async () => (await triggers(owner)).length === 1, 20_000, 'the lapse to start the delivery');
    expect(await lapses(owner)).toHaveLength(1);
  });
});
