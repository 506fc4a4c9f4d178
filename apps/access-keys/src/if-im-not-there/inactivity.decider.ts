import { INACTIVITY_WARNING_DAYS, type InactivityWatch } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

const DAY_MS = 24 * 3600 * 1000;
/** One test warning per 10 minutes at most: each is a real e-mail. */
export const TEST_WARNING_INTERVAL_MS = 10 * 60 * 1000;
/** The stage of a test warning (real ones are 1 and 2). */
export const TEST_WARNING_STAGE = 0;

/**
 * An owner's inactivity watch, one stream per owner: `inactivity-{ownerId}`. The owner chooses a
 * period (off by default), pauses and resumes it; the watch counts from the latest of his last
 * sign-in (identity's UserSignedIn, kept in owner_last_seen and passed in by the service), his last
 * check-in (the "I'm Still Here" button or a warning's link), and when he set or resumed it. Before
 * the period lapses it queues a warning e-mail per stage (14 and 3 days before); once it lapses it
 * records the lapse once for that clock, and the service starts the delivery in the same transaction.
 * `now` and the last sign-in always come with the command: the decider reads no clock.
 */
export type InactivityEvent =
  | { type: 'InactivityWatchSet'; data: { ownerId: string; periodDays: number | null; setAt: string; personal: { ownerEmail: string } | null } }
  | { type: 'InactivityWatchPaused'; data: { ownerId: string; pausedAt: string } }
  | { type: 'InactivityWatchResumed'; data: { ownerId: string; resumedAt: string } }
  | { type: 'OwnerCheckedIn'; data: { ownerId: string; via: CheckInVia; warningId: string | null; checkedInAt: string } }
  | { type: 'InactivityWarningQueued'; data: { ownerId: string; warningId: string; stage: number; lapseAt: string; queuedAt: string } }
  | { type: 'InactivityLapsed'; data: { ownerId: string; lapseAt: string; lapsedAt: string } }
  /** The owner changed his sign-in e-mail in identity: warnings go to the new address; the clock is not touched. */
  | { type: 'InactivityOwnerEmailChanged'; data: { ownerId: string; changedAt: string; personal: { ownerEmail: string } | null } };

/** `link`: the "I'm still here" link of a warning e-mail; `still-here`: the button on /if-im-not-there. */
export type CheckInVia = 'link' | 'still-here';

export interface InactivityState {
  periodDays: number | null;
  paused: boolean;
  ownerEmail: string | null;
  /** The latest check-in, set or resume: the clock's start as the stream knows it. */
  since: string | null;
  /** The warnings queued for one lapse time (a later clock start makes a new lapse time, with new warnings). */
  warned: { lapseAt: string; stages: number[] } | null;
  /** The lapse time of the last lapse recorded: a clock lapses once. */
  lapsedAt: string | null;
  lapsedOn: string | null;
  /** Every warning queued (its check-in link names it): `true` once its link has been used. */
  warnings: Record<string, { lapseAt: string; used: boolean }>;
  /** When the owner last asked for a test warning. */
  lastTestAt: string | null;
}

export type InactivityCommand =
  | { type: 'SetWatch'; ownerId: string; periodDays: number | null; ownerEmail: string; now: string }
  | { type: 'PauseWatch'; ownerId: string; now: string }
  | { type: 'ResumeWatch'; ownerId: string; now: string }
  | { type: 'CheckIn'; ownerId: string; via: CheckInVia; warningId: string | null; now: string }
  /** The owner asks for a test warning now (stage 0), to see that the e-mail and its link reach him. */
  | { type: 'SendTestWarning'; ownerId: string; lastSignInAt: string | null; warningId: string; now: string }
  /** The timing job: `lastSignInAt` from owner_last_seen, `warningId` a fresh id in case a warning is due. */
  | { type: 'CheckInactivity'; ownerId: string; lastSignInAt: string | null; warningId: string; now: string }
  /** identity's EmailChanged: the address the warnings go to follows the account's. */
  | { type: 'FollowOwnerEmail'; ownerId: string; ownerEmail: string; now: string };

export const INACTIVITY_STREAM_TYPE = 'inactivity';
export const inactivityStreamId = (ownerId: string) => `inactivity-${ownerId}`;

const ms = (iso: string) => Date.parse(iso);
const latest = (...times: (string | null)[]) => times.filter((t): t is string => t !== null).reduce<string | null>((a, b) => (a === null || ms(b) > ms(a) ? b : a), null);
const minusDays = (iso: string, days: number) => new Date(ms(iso) - days * DAY_MS).toISOString();

/** Where the watch counts from: the latest sign-in, check-in, set or resume. */
export const clockStart = (state: InactivityState, lastSignInAt: string | null) => latest(state.since, lastSignInAt);

/** When the period lapses (null: off or paused). */
export function lapseTime(state: InactivityState, lastSignInAt: string | null): string | null {
  const start = clockStart(state, lastSignInAt);
  if (state.periodDays === null || state.paused || start === null) return null;
  return new Date(ms(start) + state.periodDays * DAY_MS).toISOString();
}

/** The warning times for a lapse time, stage 1 first (every period is longer than the first warning). */
export const warningTimes = (lapseAt: string) => INACTIVITY_WARNING_DAYS.map((days) => minusDays(lapseAt, days));

/**
 * The watch's first pending time (a warning not yet queued, or the lapse), past or not; null when off,
 * paused or lapsed for this clock. Reads no clock: the timer reconciler keys its wake on it.
 */
export function pendingWake(state: InactivityState, lastSignInAt: string | null): string | null {
  const lapseAt = lapseTime(state, lastSignInAt);
  if (lapseAt === null || state.lapsedAt === lapseAt) return null;
  const warned = state.warned?.lapseAt === lapseAt ? state.warned.stages : [];
  // A stage passed over by a later one (after an outage) is no longer pending.
  const [first] = [...warningTimes(lapseAt).filter((_, i) => !warned.some((s) => s >= i + 1)), lapseAt];
  return first!;
}

/**
 * The next time the watch may have something to do after `now` (a warning not yet queued, or the
 * lapse), or `now` itself when something is due already; null when off, paused or lapsed for this clock.
 */
export function nextWake(state: InactivityState, lastSignInAt: string | null, now: string): string | null {
  const first = pendingWake(state, lastSignInAt);
  if (first === null) return null;
  return ms(first) <= ms(now) ? now : first;
}

/** The watch as the owner's page shows it. */
export function watchView(state: InactivityState, lastSignInAt: string | null): InactivityWatch {
  const lapseAt = lapseTime(state, lastSignInAt);
  return {
    period_days: state.periodDays,
    paused: state.paused,
    last_seen_at: clockStart(state, lastSignInAt),
    warnings_at: lapseAt ? warningTimes(lapseAt) : [],
    lapse_at: lapseAt && state.lapsedAt !== lapseAt ? lapseAt : null,
    lapsed_at: state.lapsedOn,
  };
}

export const inactivityDecider: Decider<InactivityState, InactivityCommand, InactivityEvent> = {
  initialState: () => ({ periodDays: null, paused: false, ownerEmail: null, since: null, warned: null, lapsedAt: null, lapsedOn: null, warnings: {}, lastTestAt: null }),

  decide(command, state) {
    switch (command.type) {
      case 'SetWatch':
        // The same choice again (a retry, a double click) records nothing and keeps the clock.
        if (state.periodDays === command.periodDays && state.ownerEmail === command.ownerEmail) return [];
        return [{ type: 'InactivityWatchSet', data: { ownerId: command.ownerId, periodDays: command.periodDays, setAt: command.now, personal: { ownerEmail: command.ownerEmail } } }];
      case 'FollowOwnerEmail':
        // Only a watch that was ever set holds an address; the same one again (a redelivery) records nothing.
        if (state.ownerEmail === null || state.ownerEmail === command.ownerEmail) return [];
        return [{ type: 'InactivityOwnerEmailChanged', data: { ownerId: command.ownerId, changedAt: command.now, personal: { ownerEmail: command.ownerEmail } } }];
      case 'PauseWatch':
        if (state.periodDays === null) throw new DomainError('CONFLICT', 'Choose an inactivity period before pausing the watch.');
        return state.paused ? [] : [{ type: 'InactivityWatchPaused', data: { ownerId: command.ownerId, pausedAt: command.now } }];
      case 'ResumeWatch':
        return state.paused ? [{ type: 'InactivityWatchResumed', data: { ownerId: command.ownerId, resumedAt: command.now } }] : [];
      case 'CheckIn': {
        if (command.via === 'link') {
          // A link names one warning of this owner's, and works once: never say which of these it was.
          const warning = command.warningId ? state.warnings[command.warningId] : undefined;
          if (!warning || warning.used) throw new DomainError('CHECK_IN_LINK_INVALID');
        }
        return [{ type: 'OwnerCheckedIn', data: { ownerId: command.ownerId, via: command.via, warningId: command.warningId, checkedInAt: command.now } }];
      }
      case 'SendTestWarning': {
        const lapseAt = lapseTime(state, command.lastSignInAt);
        if (lapseAt === null) throw new DomainError('CONFLICT', 'Choose an inactivity period (and resume the watch if it is paused) before sending a test warning.');
        if (state.lastTestAt && ms(command.now) - ms(state.lastTestAt) < TEST_WARNING_INTERVAL_MS) {
          throw new DomainError('RATE_LIMITED', 'A test warning was sent a few minutes ago. Please check your inbox, and your spam folder.');
        }
        return [{ type: 'InactivityWarningQueued', data: { ownerId: command.ownerId, warningId: command.warningId, stage: TEST_WARNING_STAGE, lapseAt, queuedAt: command.now } }];
      }
      case 'CheckInactivity': {
        const lapseAt = lapseTime(state, command.lastSignInAt);
        // Off, paused, or this clock has lapsed already: nothing (a stale, repeated or racing job).
        if (lapseAt === null || state.lapsedAt === lapseAt) return [];
        // Never early: the lapse only once its time has come.
        if (ms(command.now) >= ms(lapseAt)) return [{ type: 'InactivityLapsed', data: { ownerId: command.ownerId, lapseAt, lapsedAt: command.now } }];
        // The latest warning stage due now, once per lapse time (after a long outage, one warning, not two).
        const due = warningTimes(lapseAt).reduce((stage, at, i) => (ms(command.now) >= ms(at) ? i + 1 : stage), 0);
        const warned = state.warned?.lapseAt === lapseAt ? state.warned.stages : [];
        if (due === 0 || warned.some((s) => s >= due)) return [];
        return [{ type: 'InactivityWarningQueued', data: { ownerId: command.ownerId, warningId: command.warningId, stage: due, lapseAt, queuedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'InactivityWatchSet':
        return { ...state, periodDays: event.data.periodDays, ownerEmail: event.data.personal?.ownerEmail ?? state.ownerEmail, since: latest(state.since, event.data.setAt) };
      case 'InactivityWatchPaused':
        return { ...state, paused: true };
      case 'InactivityWatchResumed':
        return { ...state, paused: false, since: latest(state.since, event.data.resumedAt) };
      case 'OwnerCheckedIn': {
        const { warningId, checkedInAt } = event.data;
        const warnings = warningId && state.warnings[warningId] ? { ...state.warnings, [warningId]: { ...state.warnings[warningId], used: true } } : state.warnings;
        return { ...state, since: latest(state.since, checkedInAt), warnings };
      }
      case 'InactivityWarningQueued': {
        const { lapseAt, stage, warningId, queuedAt } = event.data;
        const warnings = { ...state.warnings, [warningId]: { lapseAt, used: false } };
        // A test warning counts for nothing but its link and the pace of tests.
        if (stage === TEST_WARNING_STAGE) return { ...state, warnings, lastTestAt: queuedAt };
        const stages = state.warned?.lapseAt === lapseAt ? [...state.warned.stages, stage] : [stage];
        return { ...state, warned: { lapseAt, stages }, warnings };
      }
      case 'InactivityLapsed':
        return { ...state, lapsedAt: event.data.lapseAt, lapsedOn: event.data.lapsedAt };
      case 'InactivityOwnerEmailChanged':
        return { ...state, ownerEmail: event.data.personal?.ownerEmail ?? state.ownerEmail };
    }
  },
};
