import type { DeliveryState } from '../if-im-not-there/delivery-release.decider.js';
import { pendingWake, type InactivityState } from '../if-im-not-there/inactivity.decider.js';
import { reminderTimes, type TrusteesState } from '../trustees/trustees.decider.js';

/**
 * What the event stores say should be waiting in Redis: one timed step, under the job id its normal
 * path adds it with (so adding it again while it is there is a no-op), and when it is due. Pure: the
 * reconciler (timer-rearm.ts) reads the streams and Redis; these decide. Key and invitation expiry
 * notices do not exist as timed jobs (a key or link simply stops working), so there is none here.
 */
export type PlannedTimer =
  | { queue: 'delivery-timing'; jobId: string; dueAt: string; ownerId: string; releaseId: string }
  | { queue: 'inactivity-timing'; jobId: string; dueAt: string; ownerId: string }
  | { queue: 'trustee-report-notices'; jobId: string; dueAt: string; ownerId: string; reportId: string; noticeId: string; kind: 'reported' | 'reminder' };

/** A delivery's wake at its due time (one that wakes early sleeps again as the same job: sleepUntil). */
export const deliveryJobId = (releaseId: string, dueAt: string) => `delivery-${releaseId}-${Date.parse(dueAt)}`;
/** An inactivity watch's wake at `at` (one that wakes early sleeps again as the same job). */
export const inactivityJobId = (ownerId: string, at: string) => `inactivity-${ownerId}-${Date.parse(at)}`;
export const reportNoticeJobId = (noticeId: string) => `trustee-report-${noticeId}`;
/** A report's reminders, in time order: `<reportId>-reminder-1`, `-2`. */
export const reminderNoticeId = (reportId: string, index: number) => `${reportId}-reminder-${index + 1}`;

/** A job's delay: until its due time, or none for one due already (it runs at once). */
export const delayUntil = (dueAt: string, now: string) => Math.max(0, Date.parse(dueAt) - Date.parse(now));

/**
 * What the reconciler does with the job it finds under a pending timer's id, by its BullMQ state (`null`
 * or `unknown`: none, as after a flush): add it; keep one that is waiting, delayed or running; replace a finished delivery or wake
 * (dead-lettered; an early wake waits again as the same job, so it is found delayed, not finished) since its stream still shows the step pending.
 * A finished notice is kept: notifications has recorded it sent, or given up on it.
 */
export function rearmAction(timer: Pick<PlannedTimer, 'queue'>, found: string | null): 'add' | 'keep' | 'replace' {
  if (found === null || found === 'unknown') return 'add';
  const finished = found === 'completed' || found === 'failed';
  return finished && timer.queue !== 'trustee-report-notices' ? 'replace' : 'keep';
}

/** A delivery waiting for its due time (the veto window's end included: it is never due before it) has a wake then. */
export function deliveryTimer(ownerId: string, state: DeliveryState): PlannedTimer | null {
  if (state.status !== 'waiting' || state.dueAt === null || state.releaseId === null) return null;
  return { queue: 'delivery-timing', jobId: deliveryJobId(state.releaseId, state.dueAt), dueAt: state.dueAt, ownerId, releaseId: state.releaseId };
}

/** A watch with a warning or its lapse pending has a wake at that time (one past runs at once). */
export function inactivityTimer(ownerId: string, state: InactivityState, lastSignInAt: string | null): PlannedTimer | null {
  const at = pendingWake(state, lastSignInAt);
  return at === null ? null : { queue: 'inactivity-timing', jobId: inactivityJobId(ownerId, at), dueAt: at, ownerId };
}

/**
 * An open report inside its veto window has its owner's notice and reminders (notifications sends each
 * once, and no reminder after the window). A closed report's withdrawn notice is not timed: it is queued
 * in the close's own transaction.
 */
export function reportNoticeTimers(ownerId: string, state: TrusteesState, now: string): PlannedTimer[] {
  const open = state.openReport;
  if (!open || Date.parse(open.vetoEndsAt) <= Date.parse(now)) return [];
  const notice = (noticeId: string, kind: 'reported' | 'reminder', dueAt: string): PlannedTimer =>
    ({ queue: 'trustee-report-notices', jobId: reportNoticeJobId(noticeId), dueAt, ownerId, reportId: open.reportId, noticeId, kind });
  return [
    notice(`${open.reportId}-reported`, 'reported', open.reportedAt),
    ...reminderTimes(open.reportedAt, open.vetoEndsAt).map((at, i) => notice(reminderNoticeId(open.reportId, i), 'reminder', at)),
  ];
}
