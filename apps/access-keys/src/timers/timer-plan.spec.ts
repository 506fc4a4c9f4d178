import { foldEvents } from '@lv/platform/event-store';
import { deliveryDecider, type DeliveryEvent } from '../if-im-not-there/delivery-release.decider.js';
import { inactivityDecider, type InactivityEvent } from '../if-im-not-there/inactivity.decider.js';
import { trusteesDecider, type TrusteesEvent } from '../trustees/trustees.decider.js';
import { delayUntil, deliveryJobId, deliveryTimer, inactivityJobId, inactivityTimer, rearmAction, reportNoticeTimers } from './timer-plan.js';

// Given a stream's events, which timed jobs should be waiting, under which ids and for when: what the
// reconciler adds back when Redis has lost them.

const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const release = 'd1e2f3a4-0000-4000-8000-000000000001';
const report = 'b1c2d3e4-0000-4000-8000-000000000002';
const trustee = 'c1d2e3f4-0000-4000-8000-000000000003';
const DAY = 24 * 3600 * 1000;
const t0 = '2026-11-25T10:00:00.000Z';
const at = (days: number, ms = 0) => new Date(Date.parse(t0) + days * DAY + ms).toISOString();

const delivery = (...events: DeliveryEvent[]) => deliveryTimer(owner, foldEvents(deliveryDecider, events));
const triggered = (dueAt: string | null, notBefore?: string): DeliveryEvent => ({
  type: 'DeliveryTriggered',
  data: { releaseId: release, ownerId: owner, trigger: 'trustee-report', timing: dueAt ? 'immediately' : 'legal_verification', needsVerification: dueAt === null, dueAt, triggeredAt: t0, ...(notBefore ? { notBefore } : {}) },
});

describe('timer plan: vault delivery (its due time is also the veto window’s end)', () => {
  it('a waiting delivery has one wake at its due time, under the id the normal path adds it with', () => {
    expect(delivery(triggered(at(3), at(3)))).toEqual({ queue: 'delivery-timing', jobId: `delivery-${release}-${Date.parse(at(3))}`, dueAt: at(3), ownerId: owner, releaseId: release });
    expect(delivery(triggered(at(3)))!.jobId).toBe(deliveryJobId(release, at(3)));
  });

  it('awaiting verification: none; verified: the wake at the verified due time', () => {
    expect(delivery(triggered(null))).toBeNull();
    const verified: DeliveryEvent = { type: 'DeliveryVerified', data: { releaseId: release, ownerId: owner, dueAt: at(30), verifiedAt: at(1) } };
    expect(delivery(triggered(null), verified)).toMatchObject({ jobId: deliveryJobId(release, at(30)), dueAt: at(30) });
  });

  it('nothing for no delivery, a cancelled one or a released one', () => {
    expect(delivery()).toBeNull();
    expect(delivery(triggered(at(3)), { type: 'DeliveryCancelled', data: { releaseId: release, ownerId: owner, cancelledAt: at(1) } })).toBeNull();
    expect(delivery(triggered(at(3)), { type: 'DeliveryReleased', data: { releaseId: release, ownerId: owner, keyIds: [], dueAt: at(3), releasedAt: at(3) } })).toBeNull();
  });

  it('a job due already runs at once; one due later waits exactly until then', () => {
    expect(delayUntil(at(3), at(4))).toBe(0);
    expect(delayUntil(at(3), at(3))).toBe(0);
    expect(delayUntil(at(3), at(2))).toBe(DAY);
  });
});

describe('timer plan: inactivity wakes', () => {
  const set = (periodDays: number | null): InactivityEvent => ({ type: 'InactivityWatchSet', data: { ownerId: owner, periodDays, setAt: t0, personal: { ownerEmail: 'dad@example.com' } } });
  const wake = (lastSignIn: string | null, ...events: InactivityEvent[]) => inactivityTimer(owner, foldEvents(inactivityDecider, events), lastSignIn);

  it('the first pending warning, then the next, then the lapse; its id keyed on that time, not on the clock', () => {
    expect(wake(null, set(30))).toEqual({ queue: 'inactivity-timing', jobId: inactivityJobId(owner, at(16)), dueAt: at(16), ownerId: owner });
    expect(wake(null, set(30))!.jobId).toBe(`inactivity-${owner}-${Date.parse(at(16))}`);
    const first: InactivityEvent = { type: 'InactivityWarningQueued', data: { ownerId: owner, warningId: report, stage: 1, lapseAt: at(30), queuedAt: at(16) } };
    expect(wake(null, set(30), first)?.dueAt).toBe(at(27));
    const second: InactivityEvent = { type: 'InactivityWarningQueued', data: { ownerId: owner, warningId: trustee, stage: 2, lapseAt: at(30), queuedAt: at(27) } };
    expect(wake(null, set(30), first, second)?.dueAt).toBe(at(30));
    // A sign-in moves the clock: the wake follows it.
    expect(wake(at(10), set(30), first)?.dueAt).toBe(at(26));
  });

  it('nothing for a watch that is off, paused or lapsed for this clock', () => {
    expect(wake(null)).toBeNull();
    expect(wake(null, set(null))).toBeNull();
    expect(wake(null, set(30), { type: 'InactivityWatchPaused', data: { ownerId: owner, pausedAt: at(1) } })).toBeNull();
    expect(wake(null, set(30), { type: 'InactivityLapsed', data: { ownerId: owner, lapseAt: at(30), lapsedAt: at(30) } })).toBeNull();
  });
});

describe('timer plan: a trustee report’s notices', () => {
  const vetoEndsAt = at(3);
  const reported: TrusteesEvent = { type: 'TrusteeReported', data: { reportId: report, trusteeId: trustee, ownerId: owner, kind: 'died', reportedAt: t0, vetoEndsAt, personal: { note: '' } } };
  const notices = (now: string, ...events: TrusteesEvent[]) => reportNoticeTimers(owner, foldEvents(trusteesDecider, events), now);

  it('an open report inside its veto window: the owner’s notice (due at once) and both reminders, under their notice ids', () => {
    expect(notices(at(1), reported)).toEqual([
      { queue: 'trustee-report-notices', jobId: `trustee-report-${report}-reported`, dueAt: t0, ownerId: owner, reportId: report, noticeId: `${report}-reported`, kind: 'reported' },
      { queue: 'trustee-report-notices', jobId: `trustee-report-${report}-reminder-1`, dueAt: at(1.5), ownerId: owner, reportId: report, noticeId: `${report}-reminder-1`, kind: 'reminder' },
      { queue: 'trustee-report-notices', jobId: `trustee-report-${report}-reminder-2`, dueAt: at(2), ownerId: owner, reportId: report, noticeId: `${report}-reminder-2`, kind: 'reminder' },
    ]);
  });

  it('nothing once the window has ended, once the report is closed, or without a report', () => {
    expect(notices(vetoEndsAt, reported)).toEqual([]);
    const vetoed: TrusteesEvent = { type: 'TrusteeReportVetoed', data: { reportId: report, trusteeId: trustee, ownerId: owner, vetoedAt: at(1), blockedUntil: at(31), reason: 'veto' } };
    expect(notices(at(1), reported, vetoed)).toEqual([]);
    expect(notices(at(1))).toEqual([]);
  });
});

describe('timer plan: the job found under a pending timer’s id', () => {
  it('none (Redis lost it): added; waiting, delayed or running: kept, so a pass run twice adds nothing twice', () => {
    for (const queue of ['delivery-timing', 'inactivity-timing', 'trustee-report-notices'] as const) {
      expect(rearmAction({ queue }, null)).toBe('add');
      expect(rearmAction({ queue }, 'unknown')).toBe('add');
      for (const state of ['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']) expect(rearmAction({ queue }, state)).toBe('keep');
    }
  });

  it('finished while the stream still shows the step pending: a delivery or a wake is replaced, a notice kept (notifications recorded it)', () => {
    for (const state of ['completed', 'failed']) {
      expect(rearmAction({ queue: 'delivery-timing' }, state)).toBe('replace');
      expect(rearmAction({ queue: 'inactivity-timing' }, state)).toBe('replace');
      expect(rearmAction({ queue: 'trustee-report-notices' }, state)).toBe('keep');
    }
  });
});
