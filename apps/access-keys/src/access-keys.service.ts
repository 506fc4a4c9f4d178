import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  ACCESS_KEY_LIFETIME_DAYS, AccessKeysRpc, AccessMessages, CONSENT_VERSION, RequestLinkMessages, VIEW_SECTIONS, VIEW_SESSION_LIFETIME_DAYS, VIEWER_CONSENT_TEXT, type AccessKeySummary,
  type AccessRequest, type AccessRequestNoticeJob, type AccessRequestPage, type IssuedAccessKey, type OpenedViewSession, type RequestFormInfo, type RequestNoticeState,
  type RequestSetting,
  type PayloadOf, type RequestMeta, type SendKeyEmailJob, type ViewerConsent, type ViewedItem, type ViewerTokenGrant, type ViewSection, type ViewSessionSummary,
} from '@lv/contracts';
import { ownerOf, type Caller, type RevokedViewSessions, type UserCaller, type ViewerTokenSigner } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import {
  decideAndAppend, EventStore, handleCommand, PerStreamSealing, rebuildProjections, retryOnConflict, type Decider, type DomainEvent, type EventMetadata, type RebuildReport,
} from '@lv/platform/event-store';
import { enqueue, type TypedQueue } from '@lv/platform/queues';
import { addressLimited, addressOf, type AddressLimits } from './address-limits.js';
import {
  findKey, findKeyByHash, findKeysOf, findRequest, findRequests, findSession, findSessionBySecretHash, findSessionsOf, findActiveSessionIdsOfKey, findViews,
  keysProjection, requestSettingsProjection, requestsOpen, requestsProjection, sessionsProjection, viewedRecently, type KeyRow, type RequestRow, type SessionRow, type ViewRow,
} from './access.projections.js';
import { accessKeysPublishPolicy } from './publish-policy.js';
import { PersonalDataKeys, personalSealing } from './personal-sealing.js';
import { CONSENT_HASH, hashAccessKey, hashSessionSecret, newSessionSecret, sealKeyForMail } from './secrets.js';
import { KEY_STREAM_TYPE, keyDecider, keyStreamId, type KeyCommand } from './keys/key.decider.js';
import { REQUEST_STREAM_TYPE, requestDecider, requestStreamId, type RequestCommand } from './requests/request.decider.js';
import { REQUEST_SETTING_STREAM_TYPE, requestSettingDecider, requestSettingStreamId } from './requests/request-setting.decider.js';
import { CONTACT_STREAM_TYPE } from './if-im-not-there/contact.decider.js';
import { DELIVERY_SETTINGS_STREAM_TYPE } from './if-im-not-there/delivery-settings.decider.js';
import { contactsProjection, deliverySettingsProjection } from './if-im-not-there/if-im-not-there.projections.js';
import { INACTIVITY_STREAM_TYPE } from './if-im-not-there/inactivity.decider.js';
import { SESSION_STREAM_TYPE, sessionDecider, sessionStreamId, type SessionCommand } from './sessions/session.decider.js';
import { viewerTokenGrant } from './sessions/viewer-grant.js';

const DAY_MS = 24 * 3600 * 1000;
/** A section's views are recorded at most once a minute per session (a viewer switching tabs back and forth). */
const VIEW_RECORD_INTERVAL_SECONDS = 60;
/** The owner sees this many of a session's most recent views. */
const VIEWS_SHOWN = 100;

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
  limits: AddressLimits;
  limitValues: AccessKeysLimits;
  keyEmails: TypedQueue<SendKeyEmailJob>;
  keyMailSecret: string;
  /** The owner's e-mail about each request (notifications sends it), queued with the request. */
  requestNotices: TypedQueue<AccessRequestNoticeJob>;
  /** identity's display name for a vault owner (null when they gave none, or there is no such owner). */
  ownerName: (ownerId: string, meta: RequestMeta) => Promise<string | null>;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
const plusDays = (now: string, days: number) => new Date(Date.parse(now) + days * DAY_MS).toISOString();
const keyStatus = (row: Pick<KeyRow, 'revoked_at' | 'expires_at'>, now = Date.now()) =>
  row.revoked_at ? 'revoked' : new Date(row.expires_at).getTime() <= now ? 'expired' : 'active';
const sessionStatus = (row: Pick<SessionRow, 'status' | 'expires_at'>, now = Date.now()) =>
  row.status === 'active' && new Date(row.expires_at).getTime() <= now ? 'expired' : row.status;

/**
 * Family access: requests, keys, view sessions (If I'm Not There's contacts and settings share its
 * event store: if-im-not-there/). Transport-free (the NATS controller and the specs
 * call it). Owners are always the verified caller; the public paths (request form, redemption, the
 * viewer's session exchange) are limited per client address and never say why a key was refused.
 */
export class AccessKeysService {
  readonly store = new EventStore({
    publish: accessKeysPublishPolicy,
    inlineProjections: [requestsProjection, keysProjection, sessionsProjection, contactsProjection, deliverySettingsProjection, requestSettingsProjection],
    sealing: new PerStreamSealing([
      personalSealing(REQUEST_STREAM_TYPE, new PersonalDataKeys()),
      personalSealing(KEY_STREAM_TYPE, new PersonalDataKeys()),
      personalSealing(CONTACT_STREAM_TYPE, new PersonalDataKeys()),
      personalSealing(DELIVERY_SETTINGS_STREAM_TYPE, new PersonalDataKeys(), { everyEvent: true }),
      personalSealing(INACTIVITY_STREAM_TYPE, new PersonalDataKeys(), { everyEvent: true }),
    ]),
  });

  constructor(private readonly deps: AccessKeysServiceDeps) {}

  get orm(): MikroORM {
    return this.deps.orm;
  }

  private get em() {
    return this.deps.orm.em.fork();
  }

  // --- public: the request form ----------------------------------------------------------------

  /**
   * Records a request for the owner of the link, refused with REQUESTS_CLOSED while he has turned his
   * link off. The owner's notice job (`request-notice-<requestId>`) is queued inside the transaction
   * that records the request, before its commit: a committed request always has its job, and a job
   * whose request did not commit finds it 'unknown' and sends nothing.
   */
  async submitRequest(input: PayloadOf<typeof AccessKeysRpc.submitRequest>, meta: RequestMeta): Promise<{ success: true }> {
    const address = addressOf(meta.ip);
    if ((await this.deps.limits.add('request', address, 3600)) > this.deps.limitValues.requestsPerHour) {
      throw addressLimited(AccessMessages.tooManyRequests, 3600);
    }
    if (!(await requestsOpen(this.em, input.user_id))) throw new DomainError('REQUESTS_CLOSED', RequestLinkMessages.requestsClosed);
    // A key the requester says they hold is looked up among this owner's keys only, and never stored.
    const held = input.access_key ? await findKeyByHash(this.em, hashAccessKey(input.access_key)) : undefined;
    const requestId = randomUUID();
    const notice: AccessRequestNoticeJob = { requestId, ownerId: input.user_id };
    await handleCommand(this.deps.orm.em, this.store, requestDecider, {
      type: 'SubmitRequest',
      requestId,
      ownerId: input.user_id,
      heldKeyId: held && held.owner_id === input.user_id ? held.id : null,
      details: {
        requesterEmail: input.requester_email, requesterName: input.requester_name, relationship: input.relationship, message: input.message,
        childName: input.child_name, childDob: input.child_dob,
      },
      now: new Date().toISOString(),
    }, {
      streamId: requestStreamId(requestId), streamType: REQUEST_STREAM_TYPE, metadata: { correlationId: meta.requestId },
      alsoInTransaction: async () => void (await enqueue(this.deps.requestNotices, notice, `request-notice-${requestId}`)),
    });
    return { success: true };
  }

  /**
   * The request page opened from an owner's link: whether it takes requests, and the owner's name.
   * Limited per client address (REQUEST_FORM_LOOKUPS_PER_MINUTE). An id that names no owner answers
   * as an owner who never closed his link and gave no name ({ open: true, owner_name: null }): the
   * form itself accepts a request for any id, so this says no more about which accounts exist.
   */
  async requestForm(input: { user_id: string }, meta: RequestMeta): Promise<RequestFormInfo> {
    const address = addressOf(meta.ip);
    if ((await this.deps.limits.add('request-form', address, 60)) > this.deps.limitValues.requestFormLookupsPerMinute) {
      throw addressLimited(AccessMessages.tooManyKeyAttempts, 60);
    }
    const ownerId = input.user_id.toLowerCase();
    const [open, ownerName] = await Promise.all([requestsOpen(this.em, ownerId), this.deps.ownerName(ownerId, meta)]);
    return { open, owner_name: ownerName };
  }

  consent(): ViewerConsent {
    return { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH };
  }

  // --- owner: requests -------------------------------------------------------------------------

  async listRequests(caller: Caller, query: { status: 'pending'; limit: number }): Promise<AccessRequestPage> {
    return this.pendingOf(ownerOf(caller).userId, query.limit);
  }

  /** Operators (ops CLI): an owner's pending requests. */
  async pendingOf(ownerId: string, limit = 50): Promise<AccessRequestPage> {
    const em = this.em;
    const rows = await findRequests(em, ownerId, 'pending', limit);
    return { items: await this.withHeldKeys(em, rows) };
  }

  /**
   * Approves a pending request: in one transaction the request is marked approved, a key is issued
   * (a fresh random UUID, stored as its hash) and its e-mail job is queued. The key is returned once.
   */
  async approveRequest(caller: Caller, input: { request_id: string; override_email: string | null; scopes?: ViewSection[]; allow_download?: boolean }, meta: RequestMeta): Promise<IssuedAccessKey> {
    const owner = ownerOf(caller);
    const request = await findRequest(this.em, owner.userId, input.request_id);
    if (!request) throw new DomainError('NOT_FOUND');
    const key = randomUUID();
    const keyId = randomUUID();
    const now = new Date().toISOString();
    return this.issueKey(owner, meta, {
      type: 'IssueKey', keyId, ownerId: owner.userId, keyHash: hashAccessKey(key), source: 'request', requestId: request.id,
      scopes: input.scopes ?? [...VIEW_SECTIONS], expiresAt: plusDays(now, ACCESS_KEY_LIFETIME_DAYS),
      recipient: { recipientEmail: input.override_email ?? request.requester_email, name: request.requester_name }, now, ...(input.allow_download ? { allowDownload: true } : {}),
    }, key, (em, metadata) => decideAndAppend(em, this.store, requestDecider, { type: 'ApproveRequest', ownerId: owner.userId, keyId, now }, {
      streamId: requestStreamId(request.id), streamType: REQUEST_STREAM_TYPE, metadata,
    }));
  }

  async declineRequest(caller: Caller, requestId: string, meta: RequestMeta): Promise<AccessRequest> {
    const owner = ownerOf(caller);
    await this.run<RequestCommand>(requestDecider, requestStreamId(requestId), REQUEST_STREAM_TYPE, { type: 'DeclineRequest', ownerId: owner.userId, now: new Date().toISOString() }, this.actor(owner, meta));
    const em = this.em;
    const row = await findRequest(em, owner.userId, requestId);
    if (!row) throw new DomainError('NOT_FOUND');
    return (await this.withHeldKeys(em, [row]))[0]!;
  }

  // --- owner: the request link's switch -------------------------------------------------------

  async requestSetting(caller: Caller): Promise<RequestSetting> {
    return { open: await requestsOpen(this.em, ownerOf(caller).userId) };
  }

  /** Opens or closes the owner's request link (RequestSettingChanged on his own stream; the same choice again records nothing). */
  async saveRequestSetting(caller: Caller, input: RequestSetting, meta: RequestMeta): Promise<RequestSetting> {
    const owner = ownerOf(caller);
    await handleCommand(this.deps.orm.em, this.store, requestSettingDecider, { type: 'SetRequestsOpen', ownerId: owner.userId, open: input.open, now: new Date().toISOString() }, {
      streamId: requestSettingStreamId(owner.userId), streamType: REQUEST_SETTING_STREAM_TYPE, metadata: this.actor(owner, meta),
    });
    return this.requestSetting(caller);
  }

  // --- owner: keys -----------------------------------------------------------------------------

  /** Generate Keys tab: the key the owner's browser generated, for a named family member. */
  async createKey(caller: Caller, input: { access_key: string; name: string; email: string; expires_in_days: number; scopes?: ViewSection[]; allow_download?: boolean }, meta: RequestMeta): Promise<IssuedAccessKey> {
    const owner = ownerOf(caller);
    const now = new Date().toISOString();
    return this.issueKey(owner, meta, {
      type: 'IssueKey', keyId: randomUUID(), ownerId: owner.userId, keyHash: hashAccessKey(input.access_key), source: 'owner', requestId: null,
      scopes: input.scopes ?? [...VIEW_SECTIONS], expiresAt: plusDays(now, input.expires_in_days), recipient: { recipientEmail: input.email, name: input.name }, now,
      ...(input.allow_download ? { allowDownload: true } : {}),
    }, input.access_key);
  }

  async listKeys(caller: Caller): Promise<AccessKeySummary[]> {
    const rows = await findKeysOf(this.em, ownerOf(caller).userId);
    return rows.map((row) => toKeySummary(row, row.sessions, row.last_viewed_at));
  }

  /** Revokes a key and, at once, every view session opened with it (their tokens stop everywhere). */
  async revokeKey(caller: Caller, keyId: string, meta: RequestMeta): Promise<AccessKeySummary> {
    const owner = ownerOf(caller);
    const now = new Date().toISOString();
    await this.run<KeyCommand>(keyDecider, keyStreamId(keyId), KEY_STREAM_TYPE, { type: 'RevokeKey', ownerId: owner.userId, now }, this.actor(owner, meta));
    for (const sessionId of await findActiveSessionIdsOfKey(this.em, keyId)) {
      await this.endSession(sessionId, { type: 'RevokeSession', ownerId: owner.userId, by: 'key-revoked', now }, this.actor(owner, meta));
    }
    const summary = (await this.listKeys(caller)).find((k) => k.id === keyId);
    if (!summary) throw new DomainError('NOT_FOUND');
    return summary;
  }

  // --- owner: sessions -------------------------------------------------------------------------

  async listSessions(caller: Caller): Promise<ViewSessionSummary[]> {
    const em = this.em;
    const rows = await findSessionsOf(em, ownerOf(caller).userId);
    const views = await findViews(em, rows.map((r) => r.id), VIEWS_SHOWN);
    return rows.map((row) => toSessionSummary(row, views.filter((v) => v.session_id === row.id)));
  }

  async revokeSession(caller: Caller, sessionId: string, meta: RequestMeta): Promise<ViewSessionSummary> {
    const owner = ownerOf(caller);
    await this.endSession(sessionId, { type: 'RevokeSession', ownerId: owner.userId, by: 'owner', now: new Date().toISOString() }, this.actor(owner, meta));
    const summary = (await this.listSessions(caller)).find((s) => s.id === sessionId);
    if (!summary) throw new DomainError('NOT_FOUND');
    return summary;
  }

  // --- public: redemption and the viewer's session ---------------------------------------------

  /**
   * Opens a view session with a key, after the viewer's consent. Unknown, expired, revoked keys and
   * keys of another vault all answer INVALID_OR_EXPIRED_KEY and count against the address; once an
   * address has failed REDEEM_FAILURES_PER_MINUTE times this minute, it is refused even a good key.
   */
  async redeem(input: { access_key: string; owner: string | null; consent: { version: string; text_hash: string } }, meta: RequestMeta): Promise<OpenedViewSession> {
    const address = addressOf(meta.ip);
    await this.refuseLimited(address);
    if (input.consent.version !== CONSENT_VERSION || input.consent.text_hash !== CONSENT_HASH) throw new DomainError('CONSENT_REQUIRED', AccessMessages.consentRequired);
    // The attempt is counted before the key is looked up and given back if the key opens: only failures spend the budget.
    const attempt = await this.takeRedeemAttempt(address);
    const key = await findKeyByHash(this.em, hashAccessKey(input.access_key));
    if (!key || keyStatus(key) !== 'active' || (input.owner !== null && input.owner !== key.owner_id)) {
      throw new DomainError('INVALID_OR_EXPIRED_KEY', AccessMessages.keyInvalid);
    }
    await attempt.release();
    const now = new Date().toISOString();
    const sessionId = randomUUID();
    const secret = newSessionSecret();
    // A session never outlives its key.
    const expiresAt = new Date(Math.min(Date.parse(plusDays(now, VIEW_SESSION_LIFETIME_DAYS)), new Date(key.expires_at).getTime())).toISOString();
    const scopes = key.scopes as ViewSection[];
    await this.run<SessionCommand>(sessionDecider, sessionStreamId(sessionId), SESSION_STREAM_TYPE, {
      type: 'OpenSession', sessionId, ownerId: key.owner_id, keyId: key.id, secretHash: hashSessionSecret(secret), scopes, expiresAt,
      consent: { version: CONSENT_VERSION, text: VIEWER_CONSENT_TEXT, hash: CONSENT_HASH, userAgent: meta.userAgent ?? null, origin: meta.origin ?? null },
      now, ...(key.letter_id ? { letterId: key.letter_id } : {}), ...(key.allow_download ? { mayDownload: true } : {}),
    }, { actor: { kind: 'viewer', id: sessionId }, correlationId: meta.requestId });
    const session = { id: sessionId, owner_id: key.owner_id, scopes, expires_at: new Date(expiresAt), letter_id: key.letter_id ?? null, may_download: key.allow_download };
    return { ...viewerTokenGrant(this.deps.viewerTokens, session, key), session: secret };
  }

  /** A fresh viewer token for a live session (the viewer's client renews it before it expires). */
  async viewToken(secret: string, meta: RequestMeta): Promise<ViewerTokenGrant> {
    const address = addressOf(meta.ip);
    await this.refuseLimited(address);
    const attempt = await this.takeRedeemAttempt(address);
    const session = await findSessionBySecretHash(this.em, hashSessionSecret(secret));
    if (!session) throw new DomainError('VIEW_SESSION_ENDED', AccessMessages.viewExpired);
    await attempt.release();
    const key = await findKey(this.em, session.key_id);
    if (sessionStatus(session) !== 'active' || !key || keyStatus(key) !== 'active') {
      throw new DomainError('VIEW_SESSION_ENDED', AccessMessages.viewExpired);
    }
    return viewerTokenGrant(this.deps.viewerTokens, session, key);
  }

  /** "Clear access": the viewer ends their own session; an unknown secret is simply not closed. */
  async closeSession(secret: string, meta: RequestMeta): Promise<{ closed: boolean }> {
    const session = await findSessionBySecretHash(this.em, hashSessionSecret(secret));
    if (!session) return { closed: false };
    await this.endSession(session.id, { type: 'CloseSession', now: new Date().toISOString() }, { actor: { kind: 'viewer', id: session.id }, correlationId: meta.requestId });
    return { closed: true };
  }

  /**
   * Records that a viewer opened a section (who viewed what and when), after checking the session is
   * still live: the gateway calls it before every read, so an ended session reads nothing.
   */
  async recordView(caller: Caller, section: ViewSection, item: ViewedItem | undefined, meta: RequestMeta): Promise<{ recorded: true }> {
    if (caller.kind !== 'viewer') throw new DomainError('FORBIDDEN');
    const em = this.em;
    const session = await findSession(em, caller.viewSessionId);
    if (!session || session.owner_id !== caller.vaultOwnerId || sessionStatus(session) !== 'active') throw new DomainError('VIEW_SESSION_ENDED', AccessMessages.viewExpired);
    if (!caller.scopes.includes(section)) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
    // At most one row a minute per list or item: a viewer scrubbing through a video is one opening.
    if (await viewedRecently(em, session.id, section, item, VIEW_RECORD_INTERVAL_SECONDS)) return { recorded: true };
    await this.run<SessionCommand>(sessionDecider, sessionStreamId(session.id), SESSION_STREAM_TYPE, { type: 'RecordView', section, ...(item ? { item } : {}), now: new Date().toISOString() }, {
      actor: { kind: 'viewer', id: session.id }, correlationId: meta.requestId,
    });
    return { recorded: true };
  }

  // --- notifications ---------------------------------------------------------------------------

  /** Whether a key's e-mail may go: the key is committed and active ('unknown' until its transaction commits). */
  async keyMailState(keyId: string): Promise<{ state: 'active' | 'expired' | 'revoked' | 'unknown' }> {
    const key = await findKey(this.em, keyId);
    return { state: key ? keyStatus(key) : 'unknown' };
  }

  /**
   * Whether the owner's e-mail about a request may go: 'pending' (committed, not decided yet) with what
   * the requester wrote of themselves, 'decided', or 'unknown' (not committed yet, or not this owner's).
   */
  async requestNoticeState(ownerId: string, requestId: string): Promise<RequestNoticeState> {
    const request = await findRequest(this.em, ownerId, requestId);
    if (!request) return { state: 'unknown', requester_name: null, relationship: null };
    if (request.status !== 'pending') return { state: 'decided', requester_name: null, relationship: null };
    return { state: 'pending', requester_name: request.requester_name, relationship: request.relationship };
  }

  /** notifications reported a key's e-mail as sent or failed (its durable consumer calls this). */
  async recordEmailStatus(report: { keyId: string; status: 'sent' | 'failed'; at: string; messageId: string | null; reason: string | null }): Promise<void> {
    await this.run<KeyCommand>(keyDecider, keyStreamId(report.keyId), KEY_STREAM_TYPE, { type: 'RecordEmailStatus', ...report }, { actor: { kind: 'system', id: 'notifications' } });
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }

  // --- internals -------------------------------------------------------------------------------

  /** Refuses an address that has spent its redeem budget this minute, before anything else is checked. */
  private async refuseLimited(address: string): Promise<void> {
    if ((await this.deps.limits.count('redeem', address, 60)) >= this.deps.limitValues.redeemFailuresPerMinute) {
      throw addressLimited(AccessMessages.tooManyKeyAttempts, 60);
    }
  }

  /** One attempt of the address's redeem budget, taken atomically (see AddressLimits.reserve); refused past the budget. */
  private async takeRedeemAttempt(address: string): Promise<{ release: () => Promise<void> }> {
    const attempt = await this.deps.limits.reserve('redeem', address, 60, this.deps.limitValues.redeemFailuresPerMinute);
    if (!attempt.allowed) throw addressLimited(AccessMessages.tooManyKeyAttempts, 60);
    return attempt;
  }

  /**
   * Issues a key, and whatever the key is for (an approved request, a contact's toggle: `alongside`),
   * in one transaction, queueing its e-mail job before the commit: a committed key always has its
   * job, and a job whose key did not commit finds it 'unknown' and is never sent. A key hash already
   * issued (any vault) is KEY_TAKEN.
   */
  async issueKey(
    owner: UserCaller, meta: RequestMeta, command: Extract<KeyCommand, { type: 'IssueKey' }>, key: string,
    alongside?: (em: EntityManager, metadata: EventMetadata) => Promise<unknown>,
  ): Promise<IssuedAccessKey> {
    const metadata = this.actor(owner, meta);
    try {
      await retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em) => {
        if (alongside) await alongside(em, metadata);
        await this.issueKeyIn(em, metadata, command, key, owner.email);
      }));
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('KEY_TAKEN', AccessMessages.keyTaken);
      throw error;
    }
    return { key_id: command.keyId, access_key: key, recipient_email: command.recipient.recipientEmail, expires_at: command.expiresAt, scopes: command.scopes, emailed: true };
  }

  /** Appends a key and queues its e-mail inside the caller's transaction (a delivery issues several in one). */
  async issueKeyIn(em: EntityManager, metadata: EventMetadata, command: Extract<KeyCommand, { type: 'IssueKey' }>, key: string, sharedBy: string): Promise<void> {
    await decideAndAppend(em, this.store, keyDecider, command, { streamId: keyStreamId(command.keyId), streamType: KEY_STREAM_TYPE, metadata });
    await enqueue(this.deps.keyEmails, {
      keyId: command.keyId, ownerId: command.ownerId, recipientEmail: command.recipient.recipientEmail, recipientName: command.recipient.name, sharedBy,
      sealedKey: sealKeyForMail(this.deps.keyMailSecret, command.keyId, key), expiresAt: command.expiresAt, scopes: command.scopes,
      ...(command.letterId ? { oneLetter: true as const } : {}),
    }, `key-${command.keyId}`, { removeOnComplete: true });
  }

  private async endSession(sessionId: string, command: SessionCommand, metadata: EventMetadata): Promise<void> {
    await this.run<SessionCommand>(sessionDecider, sessionStreamId(sessionId), SESSION_STREAM_TYPE, command, metadata);
    // Tokens already handed out stop at every service on their next request, not at their expiry.
    await this.deps.revokedViewSessions.revoke(sessionId);
  }

  private run<C>(decider: Decider<unknown, C, DomainEvent>, streamId: string, streamType: string, command: C, metadata: EventMetadata) {
    return handleCommand(this.deps.orm.em, this.store, decider, command, { streamId, streamType, metadata });
  }

  private actor(owner: UserCaller, meta: RequestMeta): EventMetadata {
    return { actor: { kind: 'user', id: owner.userId }, ...(meta.requestId ? { correlationId: meta.requestId } : {}) };
  }

  private async withHeldKeys(em: EntityManager, rows: RequestRow[]): Promise<AccessRequest[]> {
    const held = new Map<string, KeyRow>();
    for (const id of new Set(rows.map((r) => r.held_key_id).filter((id): id is string => !!id))) {
      const key = await findKey(em, id);
      if (key) held.set(id, key);
    }
    return rows.map((row) => toAccessRequest(row, row.held_key_id ? held.get(row.held_key_id) : undefined));
  }
}

function toAccessRequest(row: RequestRow, held: KeyRow | undefined): AccessRequest {
  return {
    id: row.id, owner_id: row.owner_id, requester_email: row.requester_email, requester_name: row.requester_name, relationship: row.relationship,
    message: row.message, child_name: row.child_name, child_dob: row.child_dob, created_at: iso(row.created_at)!, status: row.status,
    decided_at: iso(row.decided_at), key_id: row.key_id,
    held_key: held ? { key_id: held.id, name: held.name, status: keyStatus(held) } : null,
  };
}

function toKeySummary(row: KeyRow, sessions: number, lastViewedAt: Date | null): AccessKeySummary {
  return {
    id: row.id, name: row.name, recipient_email: row.recipient_email, source: row.source, request_id: row.request_id, scopes: row.scopes as ViewSection[],
    created_at: iso(row.created_at)!, expires_at: iso(row.expires_at)!, status: keyStatus(row), revoked_at: iso(row.revoked_at), email_status: row.email_status,
    email_sent_at: iso(row.email_sent_at), sessions, last_viewed_at: iso(lastViewedAt), allow_download: row.allow_download === true,
  };
}

function toSessionSummary(row: SessionRow & { key_name: string | null; recipient_email: string }, views: ViewRow[]): ViewSessionSummary {
  return {
    id: row.id, key_id: row.key_id, key_name: row.key_name, recipient_email: row.recipient_email, scopes: row.scopes as ViewSection[],
    opened_at: iso(row.opened_at)!, expires_at: iso(row.expires_at)!, status: sessionStatus(row), ended_at: iso(row.ended_at),
    consent: {
      consent_version: row.consent_version, consent_text: row.consent_text, consent_hash: row.consent_hash, user_agent: row.user_agent, origin: row.origin,
      accepted_at: iso(row.opened_at)!,
    },
    // Titles are the owning services' words: the gateway adds them at read time, with the owner's token.
    views: views.map((v) => ({
      section: v.section as ViewSection, at: iso(v.viewed_at)!,
      ...(v.item_kind ? { item: { kind: v.item_kind as ViewedItem['kind'], id: v.item_id, title: null } } : {}),
    })),
  };
}
