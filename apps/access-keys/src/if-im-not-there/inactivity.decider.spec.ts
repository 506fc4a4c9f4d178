import { deciderSpecification, propertySeeds, seededRandom } from '@lv/testing';
import { INACTIVITY_PERIODS } from '@lv/contracts';
import { inactivityDecider, nextWake, watchView, type InactivityCommand, type InactivityEvent, type InactivityState } from './inactivity.decider.js';

const spec = deciderSpecification(inactivityDecider);
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const email = 'dad@example.com';
const w1 = 'a1b2c3d4-0000-4000-8000-000000000001';
const w2 = 'a1b2c3d4-0000-4000-8000-000000000002';
const DAY = 24 * 3600 * 1000;
const t0 = '2026-11-25T10:00:00.000Z';
const at = (days: number, ms = 0) => new Date(Date.parse(t0) + days * DAY + ms).toISOString();

const set = (periodDays: number | null, setAt = t0): InactivityEvent => ({ type: 'InactivityWatchSet', data: { ownerId: owner, periodDays, setAt, personal: { ownerEmail: email } } });
const check = (now: string, lastSignInAt: string | null = null, warningId = w1): InactivityCommand => ({ type: 'CheckInactivity', ownerId: owner, lastSignInAt, warningId, now });
const warned = (stage: number, lapseAt: string, queuedAt: string, warningId = w1): InactivityEvent => ({ type: 'InactivityWarningQueued', data: { ownerId: owner, warningId, stage, lapseAt, queuedAt } });
const lapsed = (lapseAt: string, lapsedAt: string): InactivityEvent => ({ type: 'InactivityLapsed', data: { ownerId: owner, lapseAt, lapsedAt } });
const paused = (pausedAt: string): InactivityEvent => ({ type: 'InactivityWatchPaused', data: { ownerId: owner, pausedAt } });
const checkedIn = (checkedInAt: string, warningId: string | null = null): InactivityEvent => ({
  type: 'OwnerCheckedIn', data: { ownerId: owner, via: warningId ? 'link' : 'still-here', warningId, checkedInAt },
});

describe('inactivity decider', () => {
  it('off by default: nothing is ever due', () => {
    spec.given([]).when(check(at(1000))).then([]);
    expect(watchView(inactivityDecider.initialState(), null)).toEqual({ period_days: null, paused: false, last_seen_at: null, warnings_at: [], lapse_at: null, lapsed_at: null });
  });

  it('a period counts from when it is set: warnings 14 and 3 days before, the lapse at the end, never a millisecond early', () => {
    spec.given([]).when({ type: 'SetWatch', ownerId: owner, periodDays: 30, ownerEmail: email, now: t0 }).then([set(30)]);
    spec.given([set(30)]).when(check(at(16, -1))).then([]);
    spec.given([set(30)]).when(check(at(16))).then([warned(1, at(30), at(16))]);
    spec.given([set(30), warned(1, at(30), at(16))]).when(check(at(20), null, w2)).then([]);
    spec.given([set(30), warned(1, at(30), at(16))]).when(check(at(27), null, w2)).then([warned(2, at(30), at(27), w2)]);
    spec.given([set(30), warned(1, at(30), at(16))]).when(check(at(30, -1), null, w2)).then([warned(2, at(30), at(30, -1), w2)]);
    spec.given([set(30), warned(1, at(30), at(16)), warned(2, at(30), at(27), w2)]).when(check(at(30, -1))).then([]);
    spec.given([set(30), warned(1, at(30), at(16)), warned(2, at(30), at(27), w2)]).when(check(at(30))).then([lapsed(at(30), at(30))]);
  });

  it('the same choice again records nothing (and keeps the clock)', () => {
    spec.given([set(30)]).when({ type: 'SetWatch', ownerId: owner, periodDays: 30, ownerEmail: email, now: at(5) }).then([]);
  });

  it('follows the account’s e-mail (warnings go to the new address) without touching the clock; nothing for a watch never set', () => {
    const follow = (ownerEmail: string, now = at(10)): InactivityCommand => ({ type: 'FollowOwnerEmail', ownerId: owner, ownerEmail, now });
    const changed: InactivityEvent = { type: 'InactivityOwnerEmailChanged', data: { ownerId: owner, changedAt: at(10), personal: { ownerEmail: 'dad.new@example.com' } } };
    spec.given([set(30)]).when(follow('dad.new@example.com')).then([changed]);
    spec.given([set(30), changed]).when(follow('dad.new@example.com', at(11))).then([]);
    spec.given([]).when(follow('dad.new@example.com')).then([]);
    const state = [set(30), changed].reduce(inactivityDecider.evolve, inactivityDecider.initialState());
    expect(state.ownerEmail).toBe('dad.new@example.com');
    expect(watchView(state, null)).toEqual(watchView(inactivityDecider.evolve(inactivityDecider.initialState(), set(30)), null));
  });

  it('lapses once per clock: a repeated or racing wake finds it lapsed', () => {
    spec.given([set(30), lapsed(at(30), at(30))]).when(check(at(31))).then([]);
    // A sign-in after the lapse starts a new clock, which lapses again a full period later.
    spec.given([set(30), lapsed(at(30), at(30))]).when(check(at(59), at(31))).then([warned(2, at(61), at(59))]);
    spec.given([set(30), lapsed(at(30), at(30))]).when(check(at(61), at(31))).then([lapsed(at(61), at(61))]);
  });

  it('a sign-in between the warning and the due time means no lapse', () => {
    const history = [set(30), warned(1, at(30), at(16))];
    spec.given(history).when(check(at(30), at(20))).then([]);
    spec.given(history).when(check(at(36), at(20))).then([warned(1, at(50), at(36))]);
  });

  it('a check-in resets the clock; a link works once and only for a warning of this watch', () => {
    const history = [set(30), warned(1, at(30), at(16))];
    spec.given(history).when({ type: 'CheckIn', ownerId: owner, via: 'link', warningId: w1, now: at(17) }).then([checkedIn(at(17), w1)]);
    spec.given([...history, checkedIn(at(17), w1)]).when({ type: 'CheckIn', ownerId: owner, via: 'link', warningId: w1, now: at(18) }).thenThrows('CHECK_IN_LINK_INVALID');
    spec.given(history).when({ type: 'CheckIn', ownerId: owner, via: 'link', warningId: w2, now: at(17) }).thenThrows('CHECK_IN_LINK_INVALID');
    spec.given([...history, checkedIn(at(17), w1)]).when(check(at(30))).then([]);
    spec.given([...history, checkedIn(at(17), w1)]).when(check(at(47))).then([lapsed(at(47), at(47))]);
    spec.given(history).when({ type: 'CheckIn', ownerId: owner, via: 'still-here', warningId: null, now: at(17) }).then([checkedIn(at(17))]);
  });

  it('never while paused; resuming restarts the clock', () => {
    spec.given([]).when({ type: 'PauseWatch', ownerId: owner, now: t0 }).thenThrows('CONFLICT');
    spec.given([set(30)]).when({ type: 'PauseWatch', ownerId: owner, now: at(10) }).then([paused(at(10))]);
    spec.given([set(30), paused(at(10))]).when({ type: 'PauseWatch', ownerId: owner, now: at(11) }).then([]);
    spec.given([set(30), paused(at(10))]).when(check(at(400))).then([]);
    const resumed: InactivityEvent = { type: 'InactivityWatchResumed', data: { ownerId: owner, resumedAt: at(100) } };
    spec.given([set(30), paused(at(10))]).when({ type: 'ResumeWatch', ownerId: owner, now: at(100) }).then([resumed]);
    spec.given([set(30), paused(at(10)), resumed]).when(check(at(129))).then([warned(2, at(130), at(129))]);
    spec.given([set(30), paused(at(10)), resumed]).when(check(at(130))).then([lapsed(at(130), at(130))]);
  });

  it('a test warning, on the owner’s request: only while the watch is on, once per 10 minutes, and it changes no real warning', () => {
    const test = (now: string, warningId = w2): InactivityCommand => ({ type: 'SendTestWarning', ownerId: owner, lastSignInAt: null, warningId, now });
    const sent = warned(0, at(30), at(1), w2);
    spec.given([]).when(test(at(1))).thenThrows('CONFLICT');
    spec.given([set(30), paused(at(0.5))]).when(test(at(1))).thenThrows('CONFLICT');
    spec.given([set(30)]).when(test(at(1))).then([sent]);
    spec.given([set(30), sent]).when(test(at(1, 9 * 60_000))).thenThrows('RATE_LIMITED');
    spec.given([set(30), sent]).when(test(at(1, 10 * 60_000), w1)).then([warned(0, at(30), at(1, 10 * 60_000), w1)]);
    // The real warnings still go at their times, and the test's link checks in once.
    spec.given([set(30), sent]).when(check(at(16))).then([warned(1, at(30), at(16))]);
    spec.given([set(30), sent]).when({ type: 'CheckIn', ownerId: owner, via: 'link', warningId: w2, now: at(2) }).then([checkedIn(at(2), w2)]);
  });

  it('wakes at the next thing that may be due', () => {
    const state = (events: InactivityEvent[]) => events.reduce(inactivityDecider.evolve, inactivityDecider.initialState());
    expect(nextWake(state([set(30)]), null, t0)).toBe(at(16));
    expect(nextWake(state([set(30), warned(1, at(30), at(16))]), null, at(16))).toBe(at(27));
    expect(nextWake(state([set(30), warned(1, at(30), at(16)), warned(2, at(30), at(27))]), null, at(27))).toBe(at(30));
    expect(nextWake(state([set(30), lapsed(at(30), at(30))]), null, at(30))).toBeNull();
    expect(nextWake(state([set(30), paused(at(1))]), null, at(1))).toBeNull();
    expect(nextWake(state([set(null)]), null, at(1))).toBeNull();
    // Already due (the job ran late): now.
    expect(nextWake(state([set(30)]), null, at(40))).toBe(at(40));
  });
});

/**
 * A fake clock drives random histories: the owner sets, pauses and resumes the watch, signs in and
 * checks in at random; wakes run at the times the watch asks for (as the delayed jobs would), plus
 * duplicate and early ones. An independent model of "the owner's last sign of life" judges each lapse.
 */
describe('inactivity watch on a fake clock: 2,000 random histories', () => {
  const seeds = propertySeeds('inactivity.decider.spec');

  it.each(seeds.all)('never lapses early, while paused, after a check-in or twice for one clock; lapses at its due millisecond when nobody comes (seed %i)', (seed) => {
    const random = seededRandom(seed);
    let lapses = 0;
    let onTime = 0;
    for (let run = 0; run < 2000; run++) {
      let state: InactivityState = inactivityDecider.initialState();
      let clock = Date.parse(t0);
      let lastSignIn: string | null = null;
      // The model: what a person would say the watch counts from, and whether it is on.
      let lifeSign: number | null = null;
      let period: number | null = null;
      let isPaused = false;
      let lapsedFor: number | null = null;
      const warnings = new Set<string>();
      let wake: string | null = null;
      let nextId = 0;
      let outage = false;
      const apply = (command: InactivityCommand) => {
        let produced: InactivityEvent[] = [];
        try {
          produced = inactivityDecider.decide(command, state);
        } catch {
          produced = [];
        }
        for (const event of produced) {
          state = inactivityDecider.evolve(state, event);
          const now = Date.parse(command.now);
          if (event.type === 'InactivityWatchSet') [period, lifeSign] = [event.data.periodDays, Math.max(lifeSign ?? 0, now)];
          if (event.type === 'InactivityWatchPaused') isPaused = true;
          if (event.type === 'InactivityWatchResumed') [isPaused, lifeSign] = [false, Math.max(lifeSign ?? 0, now)];
          if (event.type === 'OwnerCheckedIn') lifeSign = Math.max(lifeSign ?? 0, now);
          if (event.type === 'InactivityWarningQueued') {
            const key = `${event.data.lapseAt}/${event.data.stage}`;
            expect({ seed, run, duplicateWarning: warnings.has(key) }).toEqual({ seed, run, duplicateWarning: false });
            warnings.add(key);
            expect(now).toBeLessThan(Date.parse(event.data.lapseAt));
          }
          if (event.type === 'InactivityLapsed') {
            lapses++;
            const early = period === null || lifeSign === null || now < lifeSign + period * DAY;
            const twice = lapsedFor === lifeSign;
            expect({ seed, run, early, whilePaused: isPaused, twice }).toEqual({ seed, run, early: false, whilePaused: false, twice: false });
            if (now === lifeSign! + period! * DAY) onTime++;
            // Liveness: with the service up throughout, the wake comes at the very millisecond due.
            else expect({ seed, run, late: !outage }).toEqual({ seed, run, late: false });
            lapsedFor = lifeSign;
          }
        }
        // The job the change or wake would queue (the service queues the next wake in the same transaction).
        const next = nextWake(state, lastSignIn, command.now);
        if (next !== null && (wake === null || Date.parse(next) < Date.parse(wake) || command.type === 'CheckInactivity')) wake = next;
      };
      for (let step = 0; step < 40; step++) {
        // Time moves on by up to 40 days, or not at all; a pending wake fires at its time on the way,
        // except during an outage (the service down), after which it fires late.
        const jump = random() < 0.2 ? 0 : Math.floor(random() * 40 * DAY);
        if (wake !== null && clock + jump >= Date.parse(wake) && Date.parse(wake) > clock) {
          if (random() < 0.05) [outage, clock] = [true, clock + jump];
          else clock = Date.parse(wake);
        } else clock += jump;
        const now = new Date(clock).toISOString();
        const act = random();
        if (wake !== null && Date.parse(wake) <= clock) {
          wake = null;
          apply({ type: 'CheckInactivity', ownerId: owner, lastSignInAt: lastSignIn, warningId: `w-${nextId++}`, now });
          // A duplicate or racing job at the same instant.
          if (random() < 0.3) apply({ type: 'CheckInactivity', ownerId: owner, lastSignInAt: lastSignIn, warningId: `w-${nextId++}`, now });
        } else if (act < 0.08) {
          apply({ type: 'SetWatch', ownerId: owner, periodDays: random() < 0.15 ? null : INACTIVITY_PERIODS[Math.floor(random() * INACTIVITY_PERIODS.length)]!, ownerEmail: email, now });
        } else if (act < 0.14) {
          apply({ type: 'PauseWatch', ownerId: owner, now });
        } else if (act < 0.2) {
          apply({ type: 'ResumeWatch', ownerId: owner, now });
        } else if (act < 0.3) {
          // A sign-in: the consumer keeps the latest; the model counts it as a sign of life.
          lastSignIn = now;
          lifeSign = Math.max(lifeSign ?? 0, clock);
          if (nextWake(state, lastSignIn, now) !== null && wake === null) wake = nextWake(state, lastSignIn, now);
        } else if (act < 0.36) {
          const known = Object.keys(state.warnings);
          apply({ type: 'CheckIn', ownerId: owner, via: known.length && random() < 0.7 ? 'link' : 'still-here', warningId: known.length ? known[Math.floor(random() * known.length)]! : null, now });
        } else if (act < 0.45) {
          // A job that wakes early (clock skew): a few milliseconds to a minute before the pending wake.
          if (wake !== null && Date.parse(wake) - 60_000 > clock) clock = Date.parse(wake) - 1 - Math.floor(random() * 60_000);
          apply({ type: 'CheckInactivity', ownerId: owner, lastSignInAt: lastSignIn, warningId: `w-${nextId++}`, now: new Date(clock).toISOString() });
        }
      }
    }
    expect(lapses).toBeGreaterThan(200);
    expect(onTime).toBeGreaterThan(lapses / 2);
  });
});
