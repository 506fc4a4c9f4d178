import { deciderSpecification, propertySeeds, seededRandom } from '@lv/testing';
import type { DeliveryTiming } from '@lv/contracts';
import { deliveryDecider, type DeliveryCommand, type DeliveryEvent, type DeliveryState } from './delivery-release.decider.js';

const spec = deciderSpecification(deliveryDecider);
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const release = 'a1b2c3d4-0000-4000-8000-000000000001';
const DAY = 24 * 3600 * 1000;
const t0 = '2026-11-25T10:00:00.000Z';
const at = (days: number, ms = 0) => new Date(Date.parse(t0) + days * DAY + ms).toISOString();

const trigger = (timing: DeliveryTiming, requireLegalVerification = false, now = t0): DeliveryCommand => ({
  type: 'TriggerDelivery', releaseId: release, ownerId: owner, trigger: 'trustee-report', timing, requireLegalVerification, now,
});
const triggered = (timing: DeliveryTiming, dueAt: string | null, needsVerification = false): DeliveryEvent => ({
  type: 'DeliveryTriggered', data: { releaseId: release, ownerId: owner, trigger: 'trustee-report', timing, needsVerification, dueAt, triggeredAt: t0 },
});
const releaseAt = (now: string, releaseId = release): DeliveryCommand => ({ type: 'ReleaseDelivery', ownerId: owner, releaseId, keyIds: ['k1'], now });
const released = (dueAt: string, releasedAt: string): DeliveryEvent => ({ type: 'DeliveryReleased', data: { releaseId: release, ownerId: owner, keyIds: ['k1'], dueAt, releasedAt } });

describe('delivery decider', () => {
  it('immediately: due at the trigger, released then', () => {
    spec.given([]).when(trigger('immediately')).then([triggered('immediately', t0)]);
    spec.given([triggered('immediately', t0)]).when(releaseAt(t0)).then([released(t0, t0)]);
  });

  it('after 30 days: never a millisecond early', () => {
    spec.given([]).when(trigger('after_30_days')).then([triggered('after_30_days', at(30))]);
    spec.given([triggered('after_30_days', at(30))]).when(releaseAt(at(30, -1))).thenThrows('CONFLICT');
    spec.given([triggered('after_30_days', at(30))]).when(releaseAt(at(30))).then([released(at(30), at(30))]);
  });

  it('legal verification: nothing is due until an administrator verifies; then due at once (or at the 30 days, whichever is later)', () => {
    spec.given([]).when(trigger('legal_verification')).then([triggered('legal_verification', null, true)]);
    spec.given([triggered('legal_verification', null, true)]).when(releaseAt(at(400))).then([]);
    const verified: DeliveryEvent = { type: 'DeliveryVerified', data: { releaseId: release, ownerId: owner, dueAt: at(2), verifiedAt: at(2) } };
    spec.given([triggered('legal_verification', null, true)]).when({ type: 'VerifyDelivery', ownerId: owner, now: at(2) }).then([verified]);
    spec.given([triggered('legal_verification', null, true), verified]).when(releaseAt(at(2))).then([released(at(2), at(2))]);
    // 30 days and "require legal verification": verified on day 2, due on day 30.
    spec.given([]).when(trigger('after_30_days', true)).then([triggered('after_30_days', null, true)]);
    spec.given([triggered('after_30_days', null, true)]).when({ type: 'VerifyDelivery', ownerId: owner, now: at(2) })
      .then([{ type: 'DeliveryVerified', data: { releaseId: release, ownerId: owner, dueAt: at(30), verifiedAt: at(2) } }]);
  });

  it('released exactly once: a duplicate job, a retry or a second report changes nothing', () => {
    const history = [triggered('immediately', t0), released(t0, t0)];
    spec.given(history).when(releaseAt(at(1))).then([]);
    spec.given(history).when(trigger('immediately', false, at(1))).then([]);
    spec.given(history).when({ type: 'CancelDelivery', ownerId: owner, now: at(1) }).thenThrows('CONFLICT');
  });

  it("a trustee's report: nothing is due before the owner's veto window ends, whatever the timing", () => {
    const vetoEnds = at(3);
    const reported = (timing: DeliveryTiming, dueAt: string | null, needsVerification = false): DeliveryEvent => ({
      type: 'DeliveryTriggered', data: { ...(triggered(timing, dueAt, needsVerification).data as object), notBefore: vetoEnds } as never,
    });
    spec.given([]).when({ ...trigger('immediately'), notBefore: vetoEnds } as DeliveryCommand).then([reported('immediately', vetoEnds)]);
    spec.given([reported('immediately', vetoEnds)]).when(releaseAt(at(3, -1))).thenThrows('CONFLICT');
    spec.given([reported('immediately', vetoEnds)]).when(releaseAt(vetoEnds)).then([released(vetoEnds, vetoEnds)]);
    // 30 days is later than the window: the 30 days stand.
    spec.given([]).when({ ...trigger('after_30_days'), notBefore: vetoEnds } as DeliveryCommand).then([reported('after_30_days', at(30))]);
    // Verified on day 1: still due only when the window ends.
    spec.given([reported('legal_verification', null, true)]).when({ type: 'VerifyDelivery', ownerId: owner, now: at(1) })
      .then([{ type: 'DeliveryVerified', data: { releaseId: release, ownerId: owner, dueAt: vetoEnds, verifiedAt: at(1) } }]);
  });

  it('cancelled by the owner before it happens: its job finds nothing to release', () => {
    const cancelled: DeliveryEvent = { type: 'DeliveryCancelled', data: { releaseId: release, ownerId: owner, cancelledAt: at(1) } };
    spec.given([triggered('after_30_days', at(30))]).when({ type: 'CancelDelivery', ownerId: owner, now: at(1) }).then([cancelled]);
    spec.given([triggered('after_30_days', at(30)), cancelled]).when(releaseAt(at(31))).then([]);
    // A job of an earlier delivery never releases a later one.
    spec.given([triggered('immediately', t0)]).when(releaseAt(t0, 'b0000000-0000-4000-8000-000000000009')).then([]);
  });

  describe('review by an operator', () => {
    const operator = 'op-7';
    const waiting = [triggered('legal_verification', null, true)];
    const opened: DeliveryEvent = { type: 'DeliveryReviewOpened', data: { releaseId: release, ownerId: owner, operatorId: operator, openedAt: at(1) } };
    const rejected: DeliveryEvent = { type: 'DeliveryRejected', data: { releaseId: release, ownerId: owner, operatorId: operator, rejectedAt: at(2), personal: { reason: 'The certificate is for someone else.' } } };
    const open = (now = at(1)): DeliveryCommand => ({ type: 'OpenDeliveryReview', ownerId: owner, operatorId: operator, now });
    const reject = (reason = 'The certificate is for someone else.'): DeliveryCommand => ({ type: 'RejectDelivery', ownerId: owner, operatorId: operator, reason, now: at(2) });

    it('every opening is recorded with the operator, a second one too; nothing else changes', () => {
      spec.given(waiting).when(open()).then([opened]);
      spec.given([...waiting, opened]).when(open()).then([opened]);
      spec.given([...waiting, opened]).when(releaseAt(at(400))).then([]);
    });

    it('only a delivery waiting for verification can be opened', () => {
      spec.given([]).when(open()).thenThrows('CONFLICT');
      spec.given([triggered('immediately', t0)]).when(open()).thenThrows('CONFLICT');
      spec.given([...waiting, rejected]).when(open()).thenThrows('CONFLICT');
    });

    it('verify records the operator who verified', () => {
      spec.given([...waiting, opened]).when({ type: 'VerifyDelivery', ownerId: owner, operatorId: operator, now: at(2) })
        .then([{ type: 'DeliveryVerified', data: { releaseId: release, ownerId: owner, dueAt: at(2), verifiedAt: at(2), operatorId: operator } }]);
    });

    it('reject ends the delivery with its reason (trimmed): no job releases it, the owner has nothing to cancel', () => {
      spec.given([...waiting, opened]).when(reject('  The certificate is for someone else. ')).then([rejected]);
      spec.given([...waiting, rejected]).when(releaseAt(at(400))).then([]);
      spec.given([...waiting, rejected]).when({ type: 'CancelDelivery', ownerId: owner, now: at(3) }).then([]);
      spec.given([...waiting, rejected]).when({ type: 'VerifyDelivery', ownerId: owner, operatorId: operator, now: at(3) }).thenThrows('CONFLICT');
    });

    it('a reject needs a reason, and a delivery still waiting for verification', () => {
      spec.given(waiting).when(reject('   ')).thenThrows('VALIDATION_FAILED');
      spec.given(waiting).when(reject('x'.repeat(2001))).thenThrows('VALIDATION_FAILED');
      spec.given([]).when(reject()).thenThrows('CONFLICT');
      spec.given([triggered('immediately', t0)]).when(reject()).thenThrows('CONFLICT');
      spec.given([triggered('immediately', t0), released(t0, t0)]).when(reject()).thenThrows('CONFLICT');
    });

    it('after a rejection, a new report starts a new delivery', () => {
      spec.given([...waiting, rejected]).when(trigger('legal_verification', false, at(5)))
        .then([{ type: 'DeliveryTriggered', data: { releaseId: release, ownerId: owner, trigger: 'trustee-report', timing: 'legal_verification', needsVerification: true, dueAt: null, triggeredAt: at(5) } }]);
    });
  });
});

describe('delivery decider on a fake clock: 2,000 random histories', () => {
  const seeds = propertySeeds('delivery-release.decider.spec');

  it.each(seeds.all)('never releases early, never twice, never a cancelled, rejected or unverified delivery (seed %i)', (seed) => {
    const random = seededRandom(seed);
    const timings: DeliveryTiming[] = ['immediately', 'after_30_days', 'legal_verification'];
    let releases = 0;
    for (let run = 0; run < 2000; run++) {
      let state: DeliveryState = deliveryDecider.initialState();
      let clock = Date.parse(t0);
      const events: DeliveryEvent[] = [];
      let generation = 0;
      for (let step = 0; step < 25; step++) {
        // Time moves forward by up to 20 days, or not at all (a duplicate job in the same instant).
        clock += random() < 0.3 ? 0 : Math.floor(random() * 20 * DAY);
        const now = new Date(clock).toISOString();
        const roll = random();
        const releaseId = `r-${generation}`;
        const command: DeliveryCommand =
          roll < 0.2 ? { type: 'TriggerDelivery', releaseId: `r-${++generation}`, ownerId: owner, trigger: 'inactivity', timing: timings[Math.floor(random() * 3)]!, requireLegalVerification: random() < 0.3, now }
            : roll < 0.3 ? { type: 'VerifyDelivery', ownerId: owner, now }
              : roll < 0.4 ? { type: 'CancelDelivery', ownerId: owner, now }
                : roll < 0.45 ? { type: 'RejectDelivery', ownerId: owner, operatorId: 'op', reason: random() < 0.9 ? 'Not the owner.' : ' ', now }
                  : roll < 0.5 ? { type: 'OpenDeliveryReview', ownerId: owner, operatorId: 'op', now }
                // Jobs for the current delivery, and stale ones of earlier deliveries.
                : { type: 'ReleaseDelivery', ownerId: owner, releaseId: random() < 0.8 ? (state.releaseId ?? releaseId) : `r-${Math.floor(random() * (generation + 1))}`, keyIds: [], now };
        let produced: DeliveryEvent[] = [];
        try {
          produced = deliveryDecider.decide(command, state);
        } catch {
          produced = [];
        }
        for (const event of produced) {
          state = deliveryDecider.evolve(state, event);
          events.push(event);
        }
      }
      const releasedEvents = events.filter((e) => e.type === 'DeliveryReleased');
      releases += releasedEvents.length;
      expect({ seed, run, released: releasedEvents.length }).toEqual({ seed, run, released: Math.min(releasedEvents.length, 1) });
      for (const e of releasedEvents) {
        if (e.type !== 'DeliveryReleased') continue;
        const triggeredEvent = events.find((t) => t.type === 'DeliveryTriggered' && t.data.releaseId === e.data.releaseId);
        expect(triggeredEvent).toBeDefined();
        if (triggeredEvent?.type !== 'DeliveryTriggered') continue;
        const early = Date.parse(e.data.releasedAt) < Date.parse(e.data.dueAt);
        const beforeThirtyDays = triggeredEvent.data.timing === 'after_30_days' && Date.parse(e.data.releasedAt) < Date.parse(triggeredEvent.data.triggeredAt) + 30 * DAY;
        const unverified = triggeredEvent.data.needsVerification && !events.some((v) => v.type === 'DeliveryVerified' && v.data.releaseId === e.data.releaseId);
        const cancelled = events.some((c) => (c.type === 'DeliveryCancelled' || c.type === 'DeliveryRejected') && c.data.releaseId === e.data.releaseId);
        expect({ seed, run, early, beforeThirtyDays, unverified, cancelled }).toEqual({ seed, run, early: false, beforeThirtyDays: false, unverified: false, cancelled: false });
      }
    }
    // The runs did reach releases, so the checks above were exercised.
    expect(releases).toBeGreaterThan(100);
  });
});
