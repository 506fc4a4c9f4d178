import { DELIVERY_REJECTION_REASON_MAX, type DeliveryTiming } from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

const DAY_MS = 24 * 3600 * 1000;
/** Spec: "after_30_days". */
export const DELIVERY_WAIT_DAYS = 30;

/** What set a delivery off: a trustee's report an operator confirmed, or the owner's inactivity. */
export type DeliveryTrigger = 'trustee-report' | 'inactivity';

/**
 * An owner's vault delivery: one stream per owner, `delivery-{ownerId}`. Triggered (with the timing
 * the owner chose), reviewed by an operator when legal verification is needed (every opening of the
 * review and its outcome, verified or rejected with a reason, recorded with the operator's id),
 * cancelled by the owner before it happens, and released exactly once, never before its due time.
 * Once released it is final. `now` always comes with the command: the decider reads no clock.
 */
export type DeliveryEvent =
  | {
      type: 'DeliveryTriggered';
      data: { releaseId: string; ownerId: string; trigger: DeliveryTrigger; timing: DeliveryTiming; needsVerification: boolean; dueAt: string | null; triggeredAt: string;
        /** A trustee's report: the end of the owner's veto window, before which nothing is due (absent in older events). */
        notBefore?: string | null };
    }
  /** `operatorId`: who verified (absent in older events, verified before the review queue). */
  | { type: 'DeliveryVerified'; data: { releaseId: string; ownerId: string; dueAt: string; verifiedAt: string; operatorId?: string } }
  /** An operator opened the delivery's review: the documents and trustees were shown to them. */
  | { type: 'DeliveryReviewOpened'; data: { releaseId: string; ownerId: string; operatorId: string; openedAt: string } }
  /**
   * An operator refused the verification: the delivery ends, as a cancel does. The reason is free text
   * about the owner: sealed under the owner's key like his other personal data (null once erased).
   */
  | { type: 'DeliveryRejected'; data: { releaseId: string; ownerId: string; operatorId: string; rejectedAt: string; personal: { reason: string } | null } }
  | { type: 'DeliveryCancelled'; data: { releaseId: string; ownerId: string; cancelledAt: string } }
  | { type: 'DeliveryReleased'; data: { releaseId: string; ownerId: string; keyIds: string[]; dueAt: string; releasedAt: string } };

export type DeliveryStatus = 'none' | 'awaiting-verification' | 'waiting' | 'cancelled' | 'rejected' | 'released';


export interface DeliveryState {
  status: DeliveryStatus;
  releaseId: string | null;
  trigger: DeliveryTrigger | null;
  timing: DeliveryTiming | null;
  triggeredAt: string | null;
  dueAt: string | null;
  notBefore: string | null;
}

export type DeliveryCommand =
  | { type: 'TriggerDelivery'; releaseId: string; ownerId: string; trigger: DeliveryTrigger; timing: DeliveryTiming; requireLegalVerification: boolean; now: string; notBefore?: string | null }
  | { type: 'VerifyDelivery'; ownerId: string; now: string; operatorId?: string }
  | { type: 'OpenDeliveryReview'; ownerId: string; operatorId: string; now: string }
  | { type: 'RejectDelivery'; ownerId: string; operatorId: string; reason: string; now: string }
  | { type: 'CancelDelivery'; ownerId: string; now: string }
  /** The due job: `keyIds` are the keys the service issues in the same transaction when it is due. */
  | { type: 'ReleaseDelivery'; ownerId: string; releaseId: string; keyIds: string[]; now: string };

export const DELIVERY_STREAM_TYPE = 'delivery';
export const deliveryStreamId = (ownerId: string) => `delivery-${ownerId}`;

const NOTHING_TO_REVIEW = 'There is no delivery waiting for verification.';
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();
const later = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);

/** When a delivery becomes due once nothing is awaited any more: the timing counted from the trigger, never before `from`. */
export function dueTime(timing: DeliveryTiming, triggeredAt: string, from: string): string {
  return later(timing === 'after_30_days' ? plusDays(triggeredAt, DELIVERY_WAIT_DAYS) : triggeredAt, from);
}

/** A release is due at `now` only once it is waiting and its due time has come. */
export const isDue = (state: DeliveryState, now: string) => state.status === 'waiting' && state.dueAt !== null && Date.parse(now) >= Date.parse(state.dueAt);

export const deliveryDecider: Decider<DeliveryState, DeliveryCommand, DeliveryEvent> = {
  initialState: () => ({ status: 'none', releaseId: null, trigger: null, timing: null, triggeredAt: null, dueAt: null, notBefore: null }),

  decide(command, state) {
    switch (command.type) {
      case 'TriggerDelivery': {
        // One delivery at a time, and a released vault stays released: a second report changes nothing.
        // After a rejection or a cancel, a new report starts a new delivery.
        if (state.status === 'waiting' || state.status === 'awaiting-verification' || state.status === 'released') return [];
        const needsVerification = command.timing === 'legal_verification' || command.requireLegalVerification;
        // A report's veto window holds back every timing, "immediately" included.
        const notBefore = command.notBefore ?? null;
        return [{
          type: 'DeliveryTriggered',
          data: {
            releaseId: command.releaseId, ownerId: command.ownerId, trigger: command.trigger, timing: command.timing, needsVerification,
            dueAt: needsVerification ? null : dueTime(command.timing, command.now, notBefore ? later(notBefore, command.now) : command.now), triggeredAt: command.now,
            ...(notBefore ? { notBefore } : {}),
          },
        }];
      }
      case 'VerifyDelivery':
        if (state.status === 'waiting' || state.status === 'released') return [];
        if (state.status !== 'awaiting-verification') throw new DomainError('CONFLICT', NOTHING_TO_REVIEW);
        return [{ type: 'DeliveryVerified', data: {
          releaseId: state.releaseId!, ownerId: command.ownerId, dueAt: dueTime(state.timing!, state.triggeredAt!, state.notBefore ? later(state.notBefore, command.now) : command.now), verifiedAt: command.now,
          ...(command.operatorId ? { operatorId: command.operatorId } : {}),
        } }];
      case 'OpenDeliveryReview':
        // Every opening is recorded, a second one too: who saw the review, and when.
        if (state.status !== 'awaiting-verification') throw new DomainError('CONFLICT', NOTHING_TO_REVIEW);
        return [{ type: 'DeliveryReviewOpened', data: { releaseId: state.releaseId!, ownerId: command.ownerId, operatorId: command.operatorId, openedAt: command.now } }];
      case 'RejectDelivery': {
        // Not idempotent like a verify: a rejection after another decision would hide which one stood.
        if (state.status !== 'awaiting-verification') throw new DomainError('CONFLICT', NOTHING_TO_REVIEW);
        const reason = command.reason.trim();
        if (!reason || reason.length > DELIVERY_REJECTION_REASON_MAX) {
          throw validationError({ reason: `A reason of 1 to ${DELIVERY_REJECTION_REASON_MAX} characters is required.` });
        }
        return [{ type: 'DeliveryRejected', data: { releaseId: state.releaseId!, ownerId: command.ownerId, operatorId: command.operatorId, rejectedAt: command.now, personal: { reason } } }];
      }
      case 'CancelDelivery':
        if (state.status === 'released') throw new DomainError('CONFLICT', 'Your vault has already been delivered.');
        if (state.status !== 'waiting' && state.status !== 'awaiting-verification') return [];
        return [{ type: 'DeliveryCancelled', data: { releaseId: state.releaseId!, ownerId: command.ownerId, cancelledAt: command.now } }];
      case 'ReleaseDelivery':
        // A job of an earlier (cancelled) delivery, a duplicate or a retry after the release: nothing.
        if (command.releaseId !== state.releaseId || state.status !== 'waiting') return [];
        // Never early: a job that fires before its time is refused, and the service schedules it again.
        if (!isDue(state, command.now)) throw new DomainError('CONFLICT', 'This delivery is not due yet.');
        return [{ type: 'DeliveryReleased', data: { releaseId: state.releaseId, ownerId: command.ownerId, keyIds: command.keyIds, dueAt: state.dueAt!, releasedAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DeliveryTriggered':
        return {
          status: event.data.needsVerification ? 'awaiting-verification' : 'waiting', releaseId: event.data.releaseId, trigger: event.data.trigger, timing: event.data.timing, triggeredAt: event.data.triggeredAt,
          dueAt: event.data.dueAt, notBefore: event.data.notBefore ?? null,
        };
      case 'DeliveryVerified':
        return { ...state, status: 'waiting', dueAt: event.data.dueAt };
      case 'DeliveryReviewOpened':
        return state;
      case 'DeliveryRejected':
        return { ...state, status: 'rejected' };
      case 'DeliveryCancelled':
        return { ...state, status: 'cancelled' };
      case 'DeliveryReleased':
        return { ...state, status: 'released' };
    }
  },
};
