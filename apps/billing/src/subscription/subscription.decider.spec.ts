import { BillingMessages } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { subscriptionDecider, type ProviderFact, type SubscriptionEvent } from './subscription.decider.js';

const spec = deciderSpecification(subscriptionDecider);
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const now = '2026-11-26T10:00:00.000Z';
const t = 1_795_000_000; // provider time, epoch seconds
const iso = (s: number) => new Date(s * 1000).toISOString();
const periodEnd = '2026-12-26T10:00:00.000Z';
const nextPeriodEnd = '2027-01-26T10:00:00.000Z';

const started: SubscriptionEvent = { type: 'CheckoutStarted', data: { ownerId: owner, tier: 'pro', sessionId: 'cs_1', provider: 'local', startedAt: now } };
const completed = (over: Partial<Extract<ProviderFact, { kind: 'checkout-completed' }>> = {}): ProviderFact =>
  ({ kind: 'checkout-completed', eventId: 'evt_done', created: t, sessionId: 'cs_1', subscriptionId: 'sub_1', customerId: 'cus_1', tier: 'pro', ...over });
const state = (over: Partial<Extract<ProviderFact, { kind: 'subscription-state' }>> = {}): ProviderFact =>
  ({ kind: 'subscription-state', eventId: 'evt_state', created: t, subscriptionId: 'sub_1', customerId: 'cus_1', tier: 'pro', status: 'active', periodEnd, cancelAtPeriodEnd: false, ...over });
const deleted = (over: Partial<Extract<ProviderFact, { kind: 'subscription-deleted' }>> = {}): ProviderFact =>
  ({ kind: 'subscription-deleted', eventId: 'evt_deleted', created: t + 100, subscriptionId: 'sub_1', ...over });
const apply = (fact: ProviderFact) => ({ type: 'ApplyProviderFact', ownerId: owner, fact }) as const;

const activated = (over: Partial<Extract<SubscriptionEvent, { type: 'SubscriptionActivated' }>['data']> = {}): SubscriptionEvent => ({
  type: 'SubscriptionActivated',
  data: { providerEventId: 'evt_done', providerCreated: t, ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', customerId: 'cus_1', periodEnd: null, activatedAt: iso(t), ...over },
});
const renewed = (over: Partial<Extract<SubscriptionEvent, { type: 'SubscriptionRenewed' }>['data']> = {}): SubscriptionEvent => ({
  type: 'SubscriptionRenewed', data: { providerEventId: 'evt_state', providerCreated: t, ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', periodEnd, ...over },
});
const ended = (over: Partial<Extract<SubscriptionEvent, { type: 'SubscriptionEnded' }>['data']> = {}): SubscriptionEvent => ({
  type: 'SubscriptionEnded', data: { providerEventId: 'evt_deleted', providerCreated: t + 100, ownerId: owner, tier: 'none', subscriptionId: 'sub_1', endedAt: iso(t + 100), ...over },
});

describe('subscription decider', () => {
  describe('checkout', () => {
    it('starts a checkout for a plan', () => {
      spec.given([]).when({ type: 'StartCheckout', ownerId: owner, tier: 'pro', sessionId: 'cs_1', provider: 'local', now }).then([started]);
    });

    it('refuses a second checkout while a plan is active, naming the plan', () => {
      spec.given([started, activated()]).when({ type: 'StartCheckout', ownerId: owner, tier: 'pro', sessionId: 'cs_2', provider: 'local', now }).thenThrows('CONFLICT');
      expect(() => subscriptionDecider.decide({ type: 'StartCheckout', ownerId: owner, tier: 'legacy', sessionId: 'cs_2', provider: 'local', now }, [started, activated()].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState())))
        .toThrow(BillingMessages.changeWhileActive('Pro'));
    });

    it('refuses a new checkout while a cancelled plan runs to its period end, saying so', () => {
      const cancelled: SubscriptionEvent = { type: 'CancelRequested', data: { ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', accessUntil: periodEnd, requestedAt: now } };
      expect(() => subscriptionDecider.decide({ type: 'StartCheckout', ownerId: owner, tier: 'legacy', sessionId: 'cs_2', provider: 'local', now }, [started, activated(), cancelled].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState())))
        .toThrow(BillingMessages.alreadyCancelling);
    });

    it('lets a new checkout start after the plan ended', () => {
      spec.given([started, activated(), ended()]).when({ type: 'StartCheckout', ownerId: owner, tier: 'legacy', sessionId: 'cs_2', provider: 'local', now })
        .then([{ type: 'CheckoutStarted', data: { ownerId: owner, tier: 'legacy', sessionId: 'cs_2', provider: 'local', startedAt: now } }]);
    });

    it('never writes into another owner’s stream', () => {
      spec.given([started]).when({ type: 'StartCheckout', ownerId: stranger, tier: 'pro', sessionId: 'cs_9', provider: 'local', now }).thenThrows('NOT_FOUND');
    });
  });

  describe('webhooks in order', () => {
    it('activates the plan when the checkout completes', () => {
      spec.given([started]).when(apply(completed())).then([activated()]);
    });

    it('then takes the period end from the subscription’s state', () => {
      spec.given([started, activated()]).when(apply(state({ created: t + 1 }))).then([renewed({ providerCreated: t + 1 })]);
    });

    it('records a renewal when the period moves on, and a plan change when the tier does', () => {
      const given = [started, activated(), renewed()];
      spec.given(given).when(apply(state({ eventId: 'evt_renew', created: t + 50, periodEnd: nextPeriodEnd }))).then([renewed({ providerEventId: 'evt_renew', providerCreated: t + 50, periodEnd: nextPeriodEnd })]);
      spec.given(given).when(apply(state({ eventId: 'evt_up', created: t + 50, tier: 'legacy' }))).then([renewed({ providerEventId: 'evt_up', providerCreated: t + 50, tier: 'legacy' })]);
    });

    it('ends the plan when the provider deletes the subscription: the tier goes back to none', () => {
      spec.given([started, activated(), renewed()]).when(apply(deleted())).then([ended()]);
    });
  });

  describe('replayed webhooks', () => {
    it('applies a provider event once: the same event id again changes nothing', () => {
      spec.given([started, activated()]).when(apply(completed())).then([]);
      spec.given([started, activated(), renewed()]).when(apply(state())).then([]);
      spec.given([started, activated(), ended()]).when(apply(deleted())).then([]);
    });
  });

  describe('webhooks out of order', () => {
    it('activates from the subscription’s state when it arrives before checkout.session.completed, which then changes nothing', () => {
      spec.given([started]).when(apply(state())).then([activated({ providerEventId: 'evt_state', periodEnd })]);
      spec.given([started, activated({ providerEventId: 'evt_state', periodEnd })]).when(apply(completed({ created: t + 1 }))).then([]);
    });

    it('keeps an ended subscription ended when its checkout.session.completed arrives after the deletion', () => {
      spec.given([started]).when(apply(deleted())).then([ended()]);
      spec.given([started, ended()]).when(apply(completed())).then([]);
      spec.given([started, ended()]).when(apply(state({ eventId: 'evt_late' }))).then([]);
    });

    it('ignores an update created before the newest one applied (an older period never overwrites a newer one)', () => {
      const newer = renewed({ providerEventId: 'evt_new', providerCreated: t + 60, periodEnd: nextPeriodEnd });
      spec.given([started, activated(), newer]).when(apply(state({ eventId: 'evt_old', created: t + 30, periodEnd }))).then([]);
    });

    it('ignores a live state that arrives after the deletion', () => {
      spec.given([started, activated(), ended()]).when(apply(state({ eventId: 'evt_late', created: t + 10 }))).then([]);
    });

    it('ending a subscription that is not the current one leaves the current plan alone', () => {
      spec.given([started, activated()]).when(apply(deleted({ subscriptionId: 'sub_old' }))).then([ended({ subscriptionId: 'sub_old', tier: 'pro' })]);
    });
  });

  describe('cancelling', () => {
    it('cancels at the period end: access stays until then', () => {
      const given = [started, activated(), renewed()];
      spec.given(given).when({ type: 'RequestCancel', ownerId: owner, now })
        .then([{ type: 'CancelRequested', data: { ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', accessUntil: periodEnd, requestedAt: now } }]);
      const after = [...given, { type: 'CancelRequested', data: { ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', accessUntil: periodEnd, requestedAt: now } } as SubscriptionEvent]
        .reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
      expect(after).toMatchObject({ status: 'cancelling', tier: 'pro', periodEnd });
    });

    it('records the provider’s confirmation of the cancellation once, and refuses to cancel nothing', () => {
      const requested: SubscriptionEvent = { type: 'CancelRequested', data: { ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', accessUntil: periodEnd, requestedAt: now } };
      spec.given([started, activated(), renewed(), requested]).when(apply(state({ eventId: 'evt_cancel', created: t + 5, cancelAtPeriodEnd: true }))).then([]);
      spec.given([started, activated(), renewed(), requested]).when({ type: 'RequestCancel', ownerId: owner, now }).then([]);
      spec.given([]).when({ type: 'RequestCancel', ownerId: owner, now }).thenThrows('CONFLICT');
      spec.given([started, activated(), ended()]).when({ type: 'RequestCancel', ownerId: owner, now }).thenThrows('CONFLICT');
    });

    it('takes a cancellation made at the provider (its portal) from the subscription’s state', () => {
      spec.given([started, activated(), renewed()]).when(apply(state({ eventId: 'evt_cancel', created: t + 5, cancelAtPeriodEnd: true })))
        .then([{ type: 'CancelRequested', data: { providerEventId: 'evt_cancel', providerCreated: t + 5, ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', accessUntil: periodEnd, requestedAt: iso(t + 5) } }]);
    });
  });

  describe('changing plan', () => {
    const change = (tier: 'essentials' | 'pro' | 'legacy') => ({ type: 'ChangePlan', ownerId: owner, tier, now }) as const;
    const requested: SubscriptionEvent = { type: 'PlanChangeRequested', data: { ownerId: owner, fromTier: 'pro', toTier: 'legacy', subscriptionId: 'sub_1', requestedAt: now } };
    const fold = (events: SubscriptionEvent[]) => events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    const refusal = (events: SubscriptionEvent[], tier: 'essentials' | 'pro' | 'legacy') => () => subscriptionDecider.decide(change(tier), fold(events));

    it('records the request for another paid plan, and leaves the tier until the provider confirms it', () => {
      spec.given([started, activated(), renewed()]).when(change('legacy')).then([requested]);
      expect(fold([started, activated(), renewed(), requested])).toMatchObject({ status: 'active', tier: 'pro', periodEnd });
    });

    it('moves the tier on the provider’s subscription.updated naming the new plan, once', () => {
      const given = [started, activated(), renewed(), requested];
      const updated = state({ eventId: 'evt_plan', created: t + 10, tier: 'legacy', periodEnd: null });
      spec.given(given).when(apply(updated)).then([renewed({ providerEventId: 'evt_plan', providerCreated: t + 10, tier: 'legacy', periodEnd: null })]);
      const after = [...given, renewed({ providerEventId: 'evt_plan', providerCreated: t + 10, tier: 'legacy', periodEnd: null })];
      expect(fold(after)).toMatchObject({ status: 'active', tier: 'legacy', periodEnd });
      spec.given(after).when(apply(updated)).then([]);
      // An older state (the plan before the change) arriving late does not switch it back.
      spec.given(after).when(apply(state({ eventId: 'evt_old', created: t + 5, tier: 'pro' }))).then([]);
    });

    it('refuses the same plan, no subscription, and a cancelled one, saying why', () => {
      expect(refusal([started, activated()], 'pro')).toThrow(BillingMessages.alreadySubscribed('Pro'));
      expect(refusal([], 'legacy')).toThrow(BillingMessages.noPlanToChange);
      expect(refusal([started], 'legacy')).toThrow(BillingMessages.noPlanToChange);
      expect(refusal([started, activated(), ended()], 'legacy')).toThrow(BillingMessages.noPlanToChange);
      const cancelled: SubscriptionEvent = { type: 'CancelRequested', data: { ownerId: owner, tier: 'pro', subscriptionId: 'sub_1', accessUntil: periodEnd, requestedAt: now } };
      expect(refusal([started, activated(), cancelled], 'legacy')).toThrow(BillingMessages.changeWhileCancelling);
      spec.given([started, activated(), cancelled]).when(change('legacy')).thenThrows('CONFLICT');
    });

    it('never writes into another owner’s stream', () => {
      spec.given([started, activated()]).when({ type: 'ChangePlan', ownerId: stranger, tier: 'legacy', now }).thenThrows('NOT_FOUND');
    });
  });

  it('ends on a status after which the provider will not charge again, and ignores one not yet paid', () => {
    spec.given([started, activated()]).when(apply(state({ eventId: 'evt_unpaid', created: t + 9, status: 'unpaid' })))
      .then([ended({ providerEventId: 'evt_unpaid', providerCreated: t + 9, endedAt: iso(t + 9) })]);
    spec.given([started]).when(apply(state({ status: 'incomplete' }))).then([]);
  });
});
