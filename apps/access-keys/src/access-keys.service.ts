import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  CONSENT_VERSION, SUDO_WINDOW_SECONDS, VIEWER_CONSENT_TEXT, type AccessKeySummary, type AccessKeysRpc, type AccessRequest, type AccessRequestNoticeJob, type AccessRequestPage, type CreateAccessKeyInput, type IssuedAccessKey, type KeyDraft,
  type OpenedViewSession, type PayloadOf, type RequestFormInfo, type RequestMeta, type RequestNoticeState, type RequestSetting, type SendKeyEmailJob, type ViewedItem,
  type ViewerConsent, type ViewerTokenGrant, type ViewSection, type ViewSessionSummary,
} from '@lv/contracts';
import { ownerOf, requireRecentProof, type Caller, type RevokedViewSessions, type UserCaller, type ViewerTokenSigner } from '@lv/platform/auth';
import { EventStore, PerStreamSealing, rebuildProjections, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { enqueue, type TypedQueue } from '@lv/platform/queues';
import type { RateBudgets } from '@lv/platform/limits';
import { RedeemBudget } from './address-limits.js';
import { keysProjection, requestSettingsProjection, requestsProjection, sessionsProjection } from './access.projections.js';
import { accessKeysPublishPolicy } from './publish-policy.js';
import { PersonalDataKeys, personalSealing } from './personal-sealing.js';
import { TrusteeSealing } from './trustees/trustee-sealing.js';
import { TRUSTEES_STREAM_TYPE } from './trustees/trustees.decider.js';
import { trusteesProjection } from './trustees/trustees.projection.js';
import { CONSENT_HASH } from './secrets.js';
import { IssueKey, type IssueKeyCommand } from './keys/issue-key.js';
import { KEY_STREAM_TYPE } from './keys/key.decider.js';
import { SqlKeysRepository } from './keys/keys.repository.js';
import { OwnerKeys } from './keys/owner-keys.js';
import { NotificationStates } from './notification-states.js';
import { ApproveRequest } from './requests/approve-request.js';
import { OwnerRequests } from './requests/owner-requests.js';
import { REQUEST_STREAM_TYPE } from './requests/request.decider.js';
import { RequestLinkSetting } from './requests/request-link-setting.js';
import { SqlRequestsRepository } from './requests/requests.repository.js';
import { SubmitRequest } from './requests/submit-request.js';
import { CONTACT_STREAM_TYPE } from './if-im-not-there/contact.decider.js';
import { DELIVERY_STREAM_TYPE } from './if-im-not-there/delivery-release.decider.js';
import { DELIVERY_SETTINGS_STREAM_TYPE } from './if-im-not-there/delivery-settings.decider.js';
import { contactsProjection, deliverySettingsProjection } from './if-im-not-there/if-im-not-there.projections.js';
import { INACTIVITY_STREAM_TYPE } from './if-im-not-there/inactivity.decider.js';
import { OwnerSessions } from './sessions/owner-sessions.js';
import { RedeemKey } from './sessions/redeem-key.js';
import { SqlSessionsRepository } from './sessions/sessions.repository.js';
import { ViewerSession } from './sessions/viewer-session.js';
import { EventStoreCommands } from './stream-commands.js';

export interface AccessKeysLimits {
  redeemFailuresPerMinute: number;
  requestsPerHour: number;
  /** The request page's lookups of a link's vault (request-form) per client address a minute. */
  requestFormLookupsPerMinute: number;
}

export interface AccessKeysServiceDeps {
  orm: MikroORM;
  viewerTokens: ViewerTokenSigner;
  revokedViewSessions: RevokedViewSessions;
  limits: RateBudgets;
  limitValues: AccessKeysLimits;
  keyEmails: TypedQueue<SendKeyEmailJob>;
  keyMailSecret: string;
  /** The owner's e-mail about each request (notifications sends it), queued with the request. */
  requestNotices: TypedQueue<AccessRequestNoticeJob>;
  /** identity's display name for a vault owner (null when they gave none, or there is no such owner). */
  ownerName: (ownerId: string, meta: RequestMeta) => Promise<string | null>;
}

/**
 * Family access: requests, keys, view sessions (If I'm Not There's contacts and settings share its
 * event store: if-im-not-there/). Transport-free (the NATS controller and the specs call it); each
 * use case lives in its own file over the read models' repositories, and this wires them. Owners
 * are always the verified caller; the public paths (request form, redemption, the viewer's session
 * exchange) are limited per client address and never say why a key was refused.
 */
export class AccessKeysService {
  /** Personal data sealed per stream, and each trustee's name and address under a key of his own (shredded when he is removed). */
  readonly sealing = new TrusteeSealing(new PerStreamSealing([
    personalSealing(REQUEST_STREAM_TYPE, new PersonalDataKeys()),
    personalSealing(KEY_STREAM_TYPE, new PersonalDataKeys()),
    personalSealing(CONTACT_STREAM_TYPE, new PersonalDataKeys()),
    personalSealing(DELIVERY_SETTINGS_STREAM_TYPE, new PersonalDataKeys(), { everyEvent: true }),
    personalSealing(INACTIVITY_STREAM_TYPE, new PersonalDataKeys(), { everyEvent: true }),
    personalSealing(TRUSTEES_STREAM_TYPE, new PersonalDataKeys(), { everyEvent: true }),
    // Only a rejection's reason, written about the owner by an operator.
    personalSealing(DELIVERY_STREAM_TYPE, new PersonalDataKeys(), { everyEvent: true }),
  ]));

  readonly store = new EventStore({
    publish: accessKeysPublishPolicy,
    inlineProjections: [requestsProjection, keysProjection, sessionsProjection, contactsProjection, deliverySettingsProjection, requestSettingsProjection, trusteesProjection],
    sealing: this.sealing,
  });

  private readonly keys: IssueKey;
  private readonly ownerKeys: OwnerKeys;
  private readonly ownerRequests: OwnerRequests;
  private readonly approval: ApproveRequest;
  private readonly requestLink: RequestLinkSetting;
  private readonly requestPage: SubmitRequest;
  private readonly ownerSessions: OwnerSessions;
  private readonly redemption: RedeemKey;
  private readonly viewerSession: ViewerSession;
  private readonly notifications: NotificationStates;

  constructor(private readonly deps: AccessKeysServiceDeps) {
    const now = () => new Date();
    const keys = new SqlKeysRepository(deps.orm);
    const requests = new SqlRequestsRepository(deps.orm);
    const sessions = new SqlSessionsRepository(deps.orm);
    const commands = new EventStoreCommands(deps.orm, this.store);
    const revokedViewSessions = deps.revokedViewSessions;
    this.keys = new IssueKey({ orm: deps.orm, store: this.store, keyEmails: deps.keyEmails, keyMailSecret: deps.keyMailSecret, keys, now });
    this.ownerKeys = new OwnerKeys({ keys, sessions, commands, revokedViewSessions, now });
    this.ownerRequests = new OwnerRequests({ keys, requests, commands, now });
    this.approval = new ApproveRequest({ requests, issueKey: this.keys, store: this.store, now });
    this.requestLink = new RequestLinkSetting({ requests, commands, now });
    this.requestPage = new SubmitRequest({
      keys, requests, commands, limits: deps.limits, limitValues: deps.limitValues, ownerName: deps.ownerName, now,
      queueNotice: (job, jobId) => enqueue(deps.requestNotices, job, jobId),
    });
    this.ownerSessions = new OwnerSessions({ sessions, commands, revokedViewSessions, now });
    const budget = new RedeemBudget(deps.limits, deps.limitValues.redeemFailuresPerMinute);
    this.redemption = new RedeemKey({ keys, sessions, commands, budget, viewerTokens: deps.viewerTokens, now });
    this.viewerSession = new ViewerSession({ sessions, commands, revokedViewSessions, now });
    this.notifications = new NotificationStates({ keys, requests, commands, now });
  }

  get orm(): MikroORM {
    return this.deps.orm;
  }

  // --- public: the request form ----------------------------------------------------------------

  submitRequest(input: PayloadOf<typeof AccessKeysRpc.submitRequest>, meta: RequestMeta): Promise<{ success: true }> {
    return this.requestPage.submit(input, meta);
  }

  requestForm(input: { user_id: string }, meta: RequestMeta): Promise<RequestFormInfo> {
    return this.requestPage.form(input, meta);
  }

  consent(): ViewerConsent {
    return { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH };
  }

  // --- owner: requests and the request link's switch -------------------------------------------

  listRequests(caller: Caller, query: { status: 'pending'; limit: number }): Promise<AccessRequestPage> {
    return this.ownerRequests.pending(ownerOf(caller).userId, query.limit);
  }

  /** Operators (ops CLI): an owner's pending requests. */
  pendingOf(ownerId: string, limit = 50): Promise<AccessRequestPage> {
    return this.ownerRequests.pending(ownerId, limit);
  }

  async approveRequest(caller: Caller, input: { request_id: string; override_email: string | null; scopes?: ViewSection[]; allow_download?: boolean }, meta: RequestMeta): Promise<IssuedAccessKey> {
    requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    return this.approval.approve(caller, input, meta);
  }

  declineRequest(caller: Caller, requestId: string, meta: RequestMeta): Promise<AccessRequest> {
    return this.ownerRequests.decline(caller, requestId, meta);
  }

  requestSetting(caller: Caller): Promise<RequestSetting> {
    return this.requestLink.get(caller);
  }

  saveRequestSetting(caller: Caller, input: RequestSetting, meta: RequestMeta): Promise<RequestSetting> {
    return this.requestLink.save(caller, input, meta);
  }

  // --- owner: keys and sessions ----------------------------------------------------------------
  // Issuing a key (created, or a request approved) and revoking one are sudo-mode actions: a session
  // whose last proof is older than SUDO_WINDOW_SECONDS gives the password again first.

  draftKey(caller: Caller): KeyDraft {
    return this.keys.draft(caller);
  }

  async createKey(caller: Caller, input: CreateAccessKeyInput, meta: RequestMeta): Promise<IssuedAccessKey> {
    requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    return this.keys.create(caller, input, meta);
  }

  listKeys(caller: Caller): Promise<AccessKeySummary[]> {
    return this.ownerKeys.list(caller);
  }

  async revokeKey(caller: Caller, keyId: string, meta: RequestMeta): Promise<AccessKeySummary> {
    requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    return this.ownerKeys.revoke(caller, keyId, meta);
  }

  listSessions(caller: Caller): Promise<ViewSessionSummary[]> {
    return this.ownerSessions.list(caller);
  }

  revokeSession(caller: Caller, sessionId: string, meta: RequestMeta): Promise<ViewSessionSummary> {
    return this.ownerSessions.revoke(caller, sessionId, meta);
  }

  /** Issues a key with its e-mail, and `alongside` what it is for, in one transaction (keys/issue-key.ts). */
  issueKey(owner: UserCaller, meta: RequestMeta, command: IssueKeyCommand, key: string, alongside?: (em: EntityManager, metadata: EventMetadata) => Promise<unknown>): Promise<IssuedAccessKey> {
    return this.keys.issue(owner, meta, command, key, alongside);
  }

  /** Appends a key and queues its e-mail inside the caller's transaction (a delivery issues several in one). */
  issueKeyIn(em: EntityManager, metadata: EventMetadata, command: IssueKeyCommand, key: string, sharedBy: string): Promise<void> {
    return this.keys.issueIn(em, metadata, command, key, sharedBy);
  }

  // --- public: redemption and the viewer's session ---------------------------------------------

  redeem(input: { access_key: string; owner: string | null; consent: { version: string; text_hash: string } }, meta: RequestMeta): Promise<OpenedViewSession> {
    return this.redemption.redeem(input, meta);
  }

  viewToken(secret: string, meta: RequestMeta): Promise<ViewerTokenGrant> {
    return this.redemption.viewToken(secret, meta);
  }

  closeSession(secret: string, meta: RequestMeta): Promise<{ closed: boolean }> {
    return this.viewerSession.close(secret, meta);
  }

  recordView(caller: Caller, section: ViewSection, item: ViewedItem | undefined, meta: RequestMeta): Promise<{ recorded: true }> {
    return this.viewerSession.recordView(caller, section, item, meta);
  }

  // --- notifications and operators -------------------------------------------------------------

  keyMailState(keyId: string): Promise<{ state: 'active' | 'expired' | 'revoked' | 'unknown' }> {
    return this.notifications.keyMailState(keyId);
  }

  requestNoticeState(ownerId: string, requestId: string): Promise<RequestNoticeState> {
    return this.notifications.requestNoticeState(ownerId, requestId);
  }

  recordEmailStatus(report: { keyId: string; status: 'sent' | 'failed'; at: string; messageId: string | null; reason: string | null }): Promise<void> {
    return this.notifications.recordEmailStatus(report);
  }

  /** An erased account's keys: all revoked, their sessions ended (account-erasure.ts). */
  revokeEveryKeyOf(ownerId: string, metadata: EventMetadata): Promise<number> {
    return this.ownerKeys.revokeAllOf(ownerId, metadata);
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }
}
