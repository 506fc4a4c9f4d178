import { AccessMessages, RequestLinkMessages, type AccessKeysRpc, type AccessRequestNoticeJob, type PayloadOf, type RequestMeta, type RequestFormInfo } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { takeOrRefuse, type RateBudgets } from '@lv/platform/limits';
import { addressOf } from '../address-limits.js';
import type { KeysRepository } from '../keys/keys.repository.js';
import { hashAccessKey } from '../secrets.js';
import type { StreamCommands } from '../stream-commands.js';
import { requestIdOf } from './request-id.js';
import { REQUEST_STREAM_TYPE, requestDecider, requestStreamId } from './request.decider.js';
import type { RequestsRepository } from './requests.repository.js';

export interface SubmitRequestDeps {
  keys: Pick<KeysRepository, 'byHash'>;
  requests: Pick<RequestsRepository, 'isOpen'>;
  commands: StreamCommands;
  limits: RateBudgets;
  limitValues: { requestsPerHour: number; requestFormLookupsPerMinute: number };
  /** Queues the owner's e-mail about a request (notifications sends it), inside the request's transaction. */
  queueNotice: (job: AccessRequestNoticeJob, jobId: string) => Promise<unknown>;
  /** identity's display name for a vault owner (null when they gave none, or there is no such owner). */
  ownerName: (ownerId: string, meta: RequestMeta) => Promise<string | null>;
  now: () => Date;
}

/**
 * The owner's notice job of one attempt at saving a request: its id and the id of the event that
 * attempt appended (new on every attempt, the request's own id is not: see requestIdOf).
 */
export const requestNoticeJobId = (requestId: string, submittedEventId: string) => `request-notice-${requestId}-${submittedEventId}`;

/** The public request page of an owner's link, and the request sent from it. Both are limited per client address. */
export class SubmitRequest {
  constructor(private readonly deps: SubmitRequestDeps) {}

  /**
   * Records a request for the owner of the link, refused with REQUESTS_CLOSED while he has turned his
   * link off. The owner's notice job is queued inside the transaction that records the request, before
   * its commit: a committed request always has its job, and a job whose request did not commit finds it
   * 'unknown' and sends nothing. The job is named by the request and this attempt's RequestSubmitted
   * event (requestNoticeJobId): an attempt that died before its commit left a job under another id, so
   * the retry that commits the same request id is not taken for it by BullMQ; notifications sends once
   * per request whatever the number of jobs. A retry of a saved submission
   * (same `submission_id`, same form) is answered the same and saves and queues nothing; another form
   * under a used `submission_id` is refused (CONFLICT).
   */
  async submit(input: PayloadOf<typeof AccessKeysRpc.submitRequest>, meta: RequestMeta): Promise<{ success: true }> {
    const address = addressOf(meta.ip);
    await takeOrRefuse(this.deps.limits, [{ key: `request:${address}`, limit: this.deps.limitValues.requestsPerHour }], 3600, AccessMessages.tooManyRequests);
    if (!(await this.deps.requests.isOpen(input.user_id))) throw new DomainError('REQUESTS_CLOSED', RequestLinkMessages.requestsClosed);
    // A key the requester says they hold is looked up among this owner's keys only, and never stored.
    const held = input.access_key ? await this.deps.keys.byHash(hashAccessKey(input.access_key)) : undefined;
    const requestId = requestIdOf(input.user_id, input.submission_id);
    const notice: AccessRequestNoticeJob = { requestId, ownerId: input.user_id };
    await this.deps.commands.run(requestDecider, { streamId: requestStreamId(requestId), streamType: REQUEST_STREAM_TYPE }, {
      type: 'SubmitRequest',
      requestId,
      ownerId: input.user_id,
      heldKeyId: held && held.owner_id === input.user_id ? held.id : null,
      details: {
        requesterEmail: input.requester_email, requesterName: input.requester_name, relationship: input.relationship, message: input.message,
        childName: input.child_name, childDob: input.child_dob,
      },
      now: this.deps.now().toISOString(),
    }, { correlationId: meta.requestId }, async ([submittedEventId]) => void (await this.deps.queueNotice(notice, requestNoticeJobId(requestId, submittedEventId!))));
    return { success: true };
  }

  /**
   * The request page opened from an owner's link: whether it takes requests, and the owner's name.
   * Limited per client address (REQUEST_FORM_LOOKUPS_PER_MINUTE). An id that names no owner answers
   * as an owner who never closed his link and gave no name ({ open: true, owner_name: null }): the
   * form itself accepts a request for any id, so this says no more about which accounts exist.
   */
  async form(input: { user_id: string }, meta: RequestMeta): Promise<RequestFormInfo> {
    const address = addressOf(meta.ip);
    await takeOrRefuse(this.deps.limits, [{ key: `request-form:${address}`, limit: this.deps.limitValues.requestFormLookupsPerMinute }], 60, AccessMessages.tooManyKeyAttempts);
    const ownerId = input.user_id.toLowerCase();
    const [open, ownerName] = await Promise.all([this.deps.requests.isOpen(ownerId), this.deps.ownerName(ownerId, meta)]);
    return { open, owner_name: ownerName };
  }
}
