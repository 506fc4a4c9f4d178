import { AccessMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/** What the requester wrote: sealed in the event store under the request's own key (personal-sealing.ts). */
export interface RequesterDetails {
  requesterEmail: string;
  requesterName: string | null;
  relationship: string;
  message: string;
  childName: string | null;
  childDob: string | null;
}

export type RequestEvent =
  | { type: 'AccessRequestSubmitted'; data: { requestId: string; ownerId: string; heldKeyId: string | null; submittedAt: string; personal: RequesterDetails | null } }
  | { type: 'AccessRequestApproved'; data: { requestId: string; ownerId: string; keyId: string; approvedAt: string } }
  | { type: 'AccessRequestDeclined'; data: { requestId: string; ownerId: string; declinedAt: string } };

export interface RequestState {
  status: 'none' | 'pending' | 'approved' | 'declined';
  requestId: string | null;
  ownerId: string | null;
  requesterEmail: string | null;
  /** What was submitted, to tell a retry of it from another form under the same id (null once erased). */
  submitted: { heldKeyId: string | null; details: RequesterDetails | null } | null;
}

/** `ownerId` of a decision is the verified caller; `now` is when the service received the command. */
export type RequestCommand =
  | { type: 'SubmitRequest'; requestId: string; ownerId: string; heldKeyId: string | null; details: RequesterDetails; now: string }
  | { type: 'ApproveRequest'; ownerId: string; keyId: string; now: string }
  | { type: 'DeclineRequest'; ownerId: string; now: string };

export const REQUEST_STREAM_TYPE = 'access-request';
export const requestStreamId = (requestId: string) => `access-request-${requestId}`;

const sameDetails = (a: RequesterDetails | null, b: RequesterDetails) => a !== null
  && a.requesterEmail === b.requesterEmail && a.requesterName === b.requesterName && a.relationship === b.relationship
  && a.message === b.message && a.childName === b.childName && a.childDob === b.childDob;

/** Another owner's request and one that never existed look the same. */
function requirePendingOf(state: RequestState, ownerId: string): void {
  if (state.status === 'none' || state.ownerId !== ownerId) throw new DomainError('NOT_FOUND');
  if (state.status !== 'pending') throw new DomainError('ALREADY_DECIDED');
}

export const requestDecider: Decider<RequestState, RequestCommand, RequestEvent> = {
  initialState: () => ({ status: 'none', requestId: null, ownerId: null, requesterEmail: null, submitted: null }),

  decide(command, state) {
    switch (command.type) {
      case 'SubmitRequest':
        if (state.status !== 'none') {
          // The request id comes from the owner and the client's submission id: the same form again (a
          // retry after a lost answer, even once decided) records nothing; another form under it is refused.
          const same = state.ownerId === command.ownerId && state.submitted !== null
            && state.submitted.heldKeyId === command.heldKeyId && sameDetails(state.submitted.details, command.details);
          if (same) return [];
          throw new DomainError('CONFLICT', AccessMessages.submissionReused);
        }
        return [{
          type: 'AccessRequestSubmitted',
          data: { requestId: command.requestId, ownerId: command.ownerId, heldKeyId: command.heldKeyId, submittedAt: command.now, personal: command.details },
        }];
      case 'ApproveRequest':
        requirePendingOf(state, command.ownerId);
        return [{ type: 'AccessRequestApproved', data: { requestId: state.requestId!, ownerId: command.ownerId, keyId: command.keyId, approvedAt: command.now } }];
      case 'DeclineRequest':
        requirePendingOf(state, command.ownerId);
        return [{ type: 'AccessRequestDeclined', data: { requestId: state.requestId!, ownerId: command.ownerId, declinedAt: command.now } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccessRequestSubmitted':
        return {
          status: 'pending', requestId: event.data.requestId, ownerId: event.data.ownerId, requesterEmail: event.data.personal?.requesterEmail ?? null,
          submitted: { heldKeyId: event.data.heldKeyId, details: event.data.personal },
        };
      case 'AccessRequestApproved':
        return { ...state, status: 'approved' };
      case 'AccessRequestDeclined':
        return { ...state, status: 'declined' };
    }
  },
};

