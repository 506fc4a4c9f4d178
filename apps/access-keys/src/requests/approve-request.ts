import { randomUUID } from 'node:crypto';
import { ACCESS_KEY_LIFETIME_DAYS, VIEW_SECTIONS, type IssuedAccessKey, type RequestMeta, type ViewSection } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { decideAndAppend, type EventStore } from '@lv/platform/event-store';
import type { IssueKey } from '../keys/issue-key.js';
import { hashAccessKey } from '../secrets.js';
import { REQUEST_STREAM_TYPE, requestDecider, requestStreamId } from './request.decider.js';
import type { RequestsRepository } from './requests.repository.js';

const DAY_MS = 24 * 3600 * 1000;

export interface ApproveRequestDeps {
  requests: Pick<RequestsRepository, 'find'>;
  /** The key is issued in the approval's transaction: the approval is appended to the store beside it. */
  issueKey: Pick<IssueKey, 'issue'>;
  store: EventStore;
  now: () => Date;
}

/** The owner approves a pending request: its requester gets a key by e-mail. */
export class ApproveRequest {
  constructor(private readonly deps: ApproveRequestDeps) {}

  /**
   * Approves a pending request: in one transaction the request is marked approved, a key is issued
   * (a fresh random UUID, stored as its hash) and its e-mail job is queued. The key is returned once.
   */
  async approve(caller: Caller, input: { request_id: string; override_email: string | null; scopes?: ViewSection[]; allow_download?: boolean }, meta: RequestMeta): Promise<IssuedAccessKey> {
    const owner = ownerOf(caller);
    const request = await this.deps.requests.find(owner.userId, input.request_id);
    if (!request) throw new DomainError('NOT_FOUND');
    const key = randomUUID();
    const keyId = randomUUID();
    const now = this.deps.now().toISOString();
    return this.deps.issueKey.issue(owner, meta, {
      type: 'IssueKey', keyId, ownerId: owner.userId, keyHash: hashAccessKey(key), source: 'request', requestId: request.id,
      scopes: input.scopes ?? [...VIEW_SECTIONS], expiresAt: new Date(Date.parse(now) + ACCESS_KEY_LIFETIME_DAYS * DAY_MS).toISOString(),
      recipient: { recipientEmail: input.override_email ?? request.requester_email, name: request.requester_name }, now, ...(input.allow_download ? { allowDownload: true } : {}),
    }, key, (em, metadata) => decideAndAppend(em, this.deps.store, requestDecider, { type: 'ApproveRequest', ownerId: owner.userId, keyId, now }, {
      streamId: requestStreamId(request.id), streamType: REQUEST_STREAM_TYPE, metadata,
    }));
  }
}
