// access-keys' subjects: its RPC (family access, If I'm Not There, the inactivity watch, milestone keys) and its events.
import { z } from 'zod';
import {
  accessKeySummarySchema, accessRequestPageSchema, accessRequestSchema, approveAccessRequestPayloadSchema, createAccessKeyBodySchema, issuedAccessKeySchema, keyDraftSchema,
  keyIdPayloadSchema, listAccessRequestsPayloadSchema, openedViewSessionSchema, ownerIdPayloadSchema, recordViewPayloadSchema, redeemKeyBodySchema,
  requestIdPayloadSchema, sessionIdPayloadSchema, submitAccessRequestBodySchema, submitAccessRequestReplySchema, viewerConsentSchema, viewerTokenGrantSchema,
  viewSessionBodySchema, viewSessionSummarySchema,
} from './access-keys.schemas.js';
import {
  requestFormInfoSchema, requestFormPayloadSchema, type RequestNoticeState, requestNoticeStatePayloadSchema, requestSettingSchema,
} from './access-requests.schemas.js';
import {
  addContactBodySchema, contactByIdPayloadSchema, contactKeyReplySchema, deliveryChecksSchema, deliveryOperatorPayloadSchema, deliverySettingsSchema, deliveryViewSchema,
  emergencyContactSchema, finalAccessSchema, finalEntriesSchema, removeContactReplySchema, saveDeliverySettingsBodySchema, setContactKeyPayloadSchema,
} from './if-im-not-there.schemas.js';
import {
  checkInLinkBodySchema, checkInReplySchema, inactivityWarningStatePayloadSchema, inactivityWarningStateReplySchema, inactivityWatchSchema, saveInactivityBodySchema,
} from './inactivity.schemas.js';
import {
  deliveryHistorySchema, deliveryReviewPayloadSchema, deliveryReviewSchema, deliveryReviewSummarySchema, rejectDeliveryPayloadSchema,
} from './delivery-reviews.schemas.js';
import {
  addTrusteeBodySchema, trusteeAnswerBodySchema, trusteeByIdPayloadSchema, trusteeLinkBodySchema, trusteeLinkRequestBodySchema, trusteeLinkRequestReplySchema,
  trusteeLinkStatePayloadSchema, trusteeLinkStateReplySchema, trusteeReportNoticeStatePayloadSchema, trusteeReportNoticeStateReplySchema, trusteeSchema, trusteeViewSchema, trusteeReportBodySchema, openTrusteeReportReplySchema, vetoTrusteeReportReplySchema,
} from './trustees.schemas.js';
import { keyStatusBodySchema, keyStatusReplySchema } from './key-status.schemas.js';
import { milestoneReleasePayloadSchema } from './letters.schemas.js';
import { emptyPayload, healthRpc, rebuildRpc, replayErasuresRpc, replyType, rpc } from './rpc.js';
import { ACCESS_KEY_SOURCES, VIEW_SECTIONS } from './access-keys.js';
import { event } from './events.js';

/**
 * Family access (access-keys.ts): requests, keys (kept as hashes), view sessions and their consent.
 * Public handlers limit per client address (meta.ip); redemption answers one code for every bad key.
 */
export const AccessKeysRpc = {
  health: healthRpc('access-keys'),
  // Public: the request form, the consent text, redemption and the viewer's session exchange.
  submitRequest: rpc('rpc.access-keys.submit-request', { payload: submitAccessRequestBodySchema, reply: submitAccessRequestReplySchema }),
  consent: rpc('rpc.access-keys.consent', { payload: emptyPayload, reply: viewerConsentSchema }),
  redeem: rpc('rpc.access-keys.redeem', { payload: redeemKeyBodySchema, reply: openedViewSessionSchema }),
  /** A key's landing page, before the disclaimer: active, expired or revoked, and whose vault (limited like redeem). */
  keyStatus: rpc('rpc.access-keys.key-status', { payload: keyStatusBodySchema, reply: keyStatusReplySchema }),
  /** The request page opened from an owner's link: does the vault take requests, and whose is it. */
  requestForm: rpc('rpc.access-keys.request-form', { payload: requestFormPayloadSchema, reply: requestFormInfoSchema }),
  viewToken: rpc('rpc.access-keys.view-token', { payload: viewSessionBodySchema, reply: viewerTokenGrantSchema }),
  closeSession: rpc('rpc.access-keys.close-session', { payload: viewSessionBodySchema, reply: z.object({ closed: z.boolean() }) }),
  // Owner.
  listRequests: rpc('rpc.access-keys.list-requests', { payload: listAccessRequestsPayloadSchema, reply: accessRequestPageSchema }),
  approveRequest: rpc('rpc.access-keys.approve-request', { payload: approveAccessRequestPayloadSchema, reply: issuedAccessKeySchema }),
  declineRequest: rpc('rpc.access-keys.decline-request', { payload: requestIdPayloadSchema, reply: accessRequestSchema }),
  /** The owner's switch for his request link (open by default). */
  requestSetting: rpc('rpc.access-keys.request-setting.get', { payload: emptyPayload, reply: requestSettingSchema }),
  saveRequestSetting: rpc('rpc.access-keys.request-setting.save', { payload: requestSettingSchema, reply: requestSettingSchema }),
  listKeys: rpc('rpc.access-keys.list-keys', { payload: emptyPayload, reply: z.array(accessKeySummarySchema) }),
  draftKey: rpc('rpc.access-keys.draft-key', { payload: emptyPayload, reply: keyDraftSchema }),
  createKey: rpc('rpc.access-keys.create-key', { payload: createAccessKeyBodySchema, reply: issuedAccessKeySchema }),
  revokeKey: rpc('rpc.access-keys.revoke-key', { payload: keyIdPayloadSchema, reply: accessKeySummarySchema }),
  listSessions: rpc('rpc.access-keys.list-sessions', { payload: emptyPayload, reply: z.array(viewSessionSummarySchema) }),
  revokeSession: rpc('rpc.access-keys.revoke-session', { payload: sessionIdPayloadSchema, reply: viewSessionSummarySchema }),
  // Owner: If I'm Not There (emergency contacts, their keys, delivery settings).
  listContacts: rpc('rpc.access-keys.contacts.list', { payload: emptyPayload, reply: z.array(emergencyContactSchema) }),
  addContact: rpc('rpc.access-keys.contacts.add', { payload: addContactBodySchema, reply: emergencyContactSchema }),
  removeContact: rpc('rpc.access-keys.contacts.remove', { payload: contactByIdPayloadSchema, reply: removeContactReplySchema }),
  setContactKey: rpc('rpc.access-keys.contacts.set-key', { payload: setContactKeyPayloadSchema, reply: contactKeyReplySchema }),
  deliverySettings: rpc('rpc.access-keys.delivery-settings.get', { payload: emptyPayload, reply: deliverySettingsSchema }),
  saveDeliverySettings: rpc('rpc.access-keys.delivery-settings.save', { payload: saveDeliverySettingsBodySchema, reply: deliverySettingsSchema }),
  /** The owner's, or a key holder's of if-im-not-there: what the viewer's tab lists (titles only). */
  finalEntries: rpc('rpc.access-keys.final-entries', { payload: emptyPayload, reply: finalEntriesSchema }),
  /** Whether a key holder of if-im-not-there may open its words and messages (preview allowed, or released), with the final thoughts when so. */
  finalAccess: rpc('rpc.access-keys.final-access', { payload: emptyPayload, reply: finalAccessSchema }),
  /** The owner's vault delivery, and cancelling it before it happens. */
  delivery: rpc('rpc.access-keys.delivery.get', { payload: emptyPayload, reply: deliveryViewSchema }),
  cancelDelivery: rpc('rpc.access-keys.delivery.cancel', { payload: emptyPayload, reply: deliveryViewSchema }),
  /** /test-vault-delivery: the delivery pipeline's checks for the caller's vault (they change nothing). */
  deliveryChecks: rpc('rpc.access-keys.delivery.checks', { payload: emptyPayload, reply: deliveryChecksSchema }),
  // Viewer: the gateway records each tab a viewer opens (who viewed what and when).
  recordView: rpc('rpc.access-keys.record-view', { payload: recordViewPayloadSchema, reply: z.object({ recorded: z.literal(true) }) }),
  /**
   * notifications' worker, before it sends a key e-mail: is the key committed and still active? Public on
   * NATS, but only notifications' NATS user may publish it (deploy/nats); it answers a state, never a key.
   */
  keyMailState: rpc('rpc.access-keys.key-mail-state', { payload: keyIdPayloadSchema, reply: z.object({ state: z.enum(['active', 'expired', 'revoked', 'unknown']) }) }),
  /**
   * notifications' worker, before it sends a trustee notice: has that step of the delivery committed?
   * Public on NATS like key-mail-state, publishable by notifications only; it answers a state, nothing else.
   */
  trusteeNoticeState: rpc('rpc.access-keys.trustee-notice-state', {
    payload: z.object({ owner_id: z.uuid(), release_id: z.uuid() }),
    reply: z.object({ state: z.enum(['started', 'released', 'cancelled', 'unknown']) }),
  }),
  /**
   * notifications' worker, before it e-mails the owner about a request: is it committed and still pending,
   * and who asked. Public on NATS like key-mail-state, publishable by notifications only.
   */
  requestNoticeState: rpc('rpc.access-keys.request-notice-state', { payload: requestNoticeStatePayloadSchema, reply: replyType<RequestNoticeState>() }),
  /** The owner's inactivity watch (If I'm Not There): the period, pause and resume. */
  inactivity: rpc('rpc.access-keys.inactivity.get', { payload: emptyPayload, reply: inactivityWatchSchema }),
  saveInactivity: rpc('rpc.access-keys.inactivity.save', { payload: saveInactivityBodySchema, reply: inactivityWatchSchema }),
  pauseInactivity: rpc('rpc.access-keys.inactivity.pause', { payload: emptyPayload, reply: inactivityWatchSchema }),
  resumeInactivity: rpc('rpc.access-keys.inactivity.resume', { payload: emptyPayload, reply: inactivityWatchSchema }),
  /** A test warning e-mailed to the owner now, with a working check-in link (one per 10 minutes). */
  testInactivityWarning: rpc('rpc.access-keys.inactivity.test-warning', { payload: emptyPayload, reply: inactivityWatchSchema }),
  /** Public: the "I'm still here" link of a warning e-mail (signed, expiring, for one owner, used once). */
  checkInByLink: rpc('rpc.access-keys.inactivity.check-in-link', { payload: checkInLinkBodySchema, reply: checkInReplySchema }),
  /** notifications' warning worker only (like trustee-notice-state): is this warning still current? */
  inactivityWarningState: rpc('rpc.access-keys.inactivity.warning-state', { payload: inactivityWarningStatePayloadSchema, reply: inactivityWarningStateReplySchema }),
  /** The owner's trustees (If I'm Not There): named, invited by e-mail, answered, removed. */
  listTrustees: rpc('rpc.access-keys.trustees.list', { payload: emptyPayload, reply: z.array(trusteeSchema) }),
  addTrustee: rpc('rpc.access-keys.trustees.add', { payload: addTrusteeBodySchema, reply: trusteeSchema }),
  resendTrusteeInvitation: rpc('rpc.access-keys.trustees.resend', { payload: trusteeByIdPayloadSchema, reply: trusteeSchema }),
  removeTrustee: rpc('rpc.access-keys.trustees.remove', { payload: trusteeByIdPayloadSchema, reply: trusteeSchema }),
  /** Public: a trustee's page, opened from their e-mailed link (the link is the credential). */
  trusteeView: rpc('rpc.access-keys.trustee.view', { payload: trusteeLinkBodySchema, reply: trusteeViewSchema }),
  answerTrustee: rpc('rpc.access-keys.trustee.answer', { payload: trusteeAnswerBodySchema, reply: trusteeViewSchema }),
  /** Public: an accepted trustee's report (their link is the credential); starts the delivery, held back by the owner's veto window. */
  reportOwner: rpc('rpc.access-keys.trustee.report', { payload: trusteeReportBodySchema, reply: trusteeViewSchema }),
  /** The owner: the trustee report under way, if any (the banner), and his veto ("I'm still here"). */
  openTrusteeReport: rpc('rpc.access-keys.trustees.open-report', { payload: emptyPayload, reply: openTrusteeReportReplySchema }),
  vetoTrusteeReport: rpc('rpc.access-keys.trustees.veto-report', { payload: emptyPayload, reply: vetoTrusteeReportReplySchema }),
  /** Public: "send me my trustee link" (the same answer whether or not the address is a trustee; limited per client address). */
  requestTrusteeLink: rpc('rpc.access-keys.trustee.request-link', { payload: trusteeLinkRequestBodySchema, reply: trusteeLinkRequestReplySchema }),
  /** notifications' trustee-link worker only (like trustee-notice-state): is this link still the trustee's current one? */
  trusteeLinkState: rpc('rpc.access-keys.trustee.link-state', { payload: trusteeLinkStatePayloadSchema, reply: trusteeLinkStateReplySchema }),
  /** notifications' report-notice worker only (like trustee-notice-state): is this report committed, open or closed, and what to say. */
  trusteeReportNoticeState: rpc('rpc.access-keys.trustee.report-notice-state', { payload: trusteeReportNoticeStatePayloadSchema, reply: trusteeReportNoticeStateReplySchema }),
  // Operator commands (ops CLI).
  listPendingForOwner: rpc('rpc.access-keys.op.list-pending', { payload: ownerIdPayloadSchema, reply: accessRequestPageSchema }),
  reportAbsence: rpc('rpc.access-keys.op.report-absence', { payload: deliveryOperatorPayloadSchema, reply: deliveryViewSchema }),
  verifyDelivery: rpc('rpc.access-keys.op.verify-delivery', { payload: deliveryOperatorPayloadSchema, reply: deliveryViewSchema }),
  /** `delivery:show`: the owner's delivery state and its history, event by event. */
  deliveryHistory: rpc('rpc.access-keys.op.delivery-history', { payload: ownerIdPayloadSchema, reply: deliveryHistorySchema }),
  /**
   * The admin dashboard's review queue (issue 31): deliveries waiting for legal verification. Admins only
   * (the token's admin claim; the gateway may not publish op subjects). Opening one and every decision
   * are recorded on the owner's delivery stream with the admin's id.
   */
  listDeliveryReviews: rpc('rpc.access-keys.admin.delivery-reviews.list', { payload: emptyPayload, reply: z.array(deliveryReviewSummarySchema) }),
  openDeliveryReview: rpc('rpc.access-keys.admin.delivery-reviews.open', { payload: deliveryReviewPayloadSchema, reply: deliveryReviewSchema }),
  approveDeliveryReview: rpc('rpc.access-keys.admin.delivery-reviews.approve', { payload: deliveryReviewPayloadSchema, reply: deliveryViewSchema }),
  rejectDeliveryReview: rpc('rpc.access-keys.admin.delivery-reviews.reject', { payload: rejectDeliveryPayloadSchema, reply: deliveryViewSchema }),
  /**
   * letters, once a milestone letter's release has committed: issue its recipient a key limited to that
   * letter and queue its e-mail (once per release, whatever the retries). Public on NATS, publishable by
   * letters only (deploy/nats); access-keys asks letters back who the release is for, never the payload.
   */
  issueLetterKey: rpc('rpc.access-keys.issue-letter-key', { payload: milestoneReleasePayloadSchema, reply: z.object({ key_id: z.uuid().nullable() }) }),
  rebuildProjections: rebuildRpc('access-keys'),
  replayErasures: replayErasuresRpc('access-keys'),
} as const;


const scopes = z.array(z.enum(VIEW_SECTIONS));

/** Published payloads carry ids, scopes and times only: never an address, a name, a message or a key. */
export const AccessKeysEvents = {
  AccessRequestSubmitted: event('access-keys.request.submitted.v1', z.object({ requestId: z.string(), ownerId: z.string(), submittedAt: z.string() })),
  AccessRequestApproved: event('access-keys.request.approved.v1', z.object({ requestId: z.string(), ownerId: z.string(), keyId: z.string(), approvedAt: z.string() })),
  AccessRequestDeclined: event('access-keys.request.declined.v1', z.object({ requestId: z.string(), ownerId: z.string(), declinedAt: z.string() })),
  AccessKeyIssued: event('access-keys.key.issued.v1', z.object({
    keyId: z.string(), ownerId: z.string(), source: z.enum(ACCESS_KEY_SOURCES), requestId: z.string().nullable(), scopes, expiresAt: z.string(), issuedAt: z.string(),
  })),
  AccessKeyRevoked: event('access-keys.key.revoked.v1', z.object({ keyId: z.string(), ownerId: z.string(), revokedAt: z.string() })),
  ViewSessionOpened: event('access-keys.view-session.opened.v1', z.object({ sessionId: z.string(), ownerId: z.string(), keyId: z.string(), scopes, openedAt: z.string(), expiresAt: z.string() })),
  ViewSessionRevoked: event('access-keys.view-session.revoked.v1', z.object({ sessionId: z.string(), ownerId: z.string(), keyId: z.string(), revokedAt: z.string(), by: z.enum(['owner', 'key-revoked']) })),
  ViewSessionClosed: event('access-keys.view-session.closed.v1', z.object({ sessionId: z.string(), ownerId: z.string(), keyId: z.string(), closedAt: z.string() })),
} as const;

