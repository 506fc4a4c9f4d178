import { z } from 'zod';
import {
  credentialsPayloadSchema, findUserPayloadSchema, issuedSessionSchema, refreshPayloadSchema, setAdminPayloadSchema, setTierPayloadSchema, signOutPayloadSchema,
  signOutReplySchema, updateProfilePayloadSchema, userProfileSchema,
} from './identity.schemas.js';
import {
  adminOverviewSchema, adminUsersQuerySchema, changeEmailPayloadSchema, changePasswordPayloadSchema, changePasswordReplySchema, notificationPreferencesBodySchema,
  notificationPreferencesSchema,
} from './identity.schemas.js';
import { exportListPayloadSchema, exportListSchema, storageByDaySchema } from './media.schemas.js';
import type { IdentityEvent } from './identity.js';
import {
  deleteLetterReplySchema, letterByIdPayloadSchema, letterPageSchema, letterSchema, listLettersPayloadSchema, reflectionSchema, reviseLetterPayloadSchema,
  saveReflectionPayloadSchema, writeLetterPayloadSchema,
} from './letters.schemas.js';
import type { LetterEventType } from './letters.js';
import { milestoneReleasePayloadSchema, milestoneReleaseReplySchema, milestonesDueReplySchema, sealLetterPayloadSchema } from './letters.schemas.js';
import { portraitSchema, portraitSectionsSchema, savePortraitPayloadSchema } from './portrait.schemas.js';
import {
  addContactBodySchema, contactByIdPayloadSchema, contactKeyReplySchema, deliveryChecksSchema, deliveryOperatorPayloadSchema, deliverySettingsSchema, deliveryViewSchema, emergencyContactSchema, finalAccessSchema, finalEntriesSchema, removeContactReplySchema,
  saveDeliverySettingsBodySchema, setContactKeyPayloadSchema,
} from './if-im-not-there.schemas.js';
import {
  deleteEntryReplySchema, entryByIdPayloadSchema, listRecordingsPayloadSchema, playbackGrantSchema, recordingSchema, reportHashPayloadSchema, reportHashReplySchema,
  retitlePayloadSchema, startUploadPayloadSchema, uploadTicketSchema,
} from './media.schemas.js';
import {
  awaitEntryGonePayloadSchema, awaitEntryGoneReplySchema, timelineEntryPayloadSchema, timelineEntrySchema, timelinePageSchema, timelinePayloadSchema,
  titlesPayloadSchema, titlesReplySchema,
} from './timeline.schemas.js';
import type { PublishedRecordingEventType } from './media.js';
import {
  checkInLinkBodySchema, checkInReplySchema, inactivityWarningStatePayloadSchema, inactivityWarningStateReplySchema, inactivityWatchSchema, saveInactivityBodySchema,
} from './inactivity.schemas.js';
import {
  courtDocumentByIdPayloadSchema, courtDocumentSchema, courtFileGrantSchema, courtFileLinkPayloadSchema, courtUploadTicketSchema, deleteCourtDocumentReplySchema,
  evidenceEntrySummarySchema, evidencePublicKeysSchema, listCourtDocumentsPayloadSchema, setKeyEvidencePayloadSchema, signedEvidenceHeadSchema,
  startCourtUploadPayloadSchema,
} from './court-journal.schemas.js';
import type { PublishedCourtJournalEventType } from './court-journal.js';
import { viewerDocumentGrantSchema, viewerItemPayloadSchema, viewerMediaGrantSchema } from './viewer-links.schemas.js';
import {
  accessKeySummarySchema, accessRequestPageSchema, accessRequestSchema, approveAccessRequestPayloadSchema, createAccessKeyBodySchema, issuedAccessKeySchema,
  keyEmailResendReplySchema, keyIdPayloadSchema, listAccessRequestsPayloadSchema, openedViewSessionSchema, ownerIdPayloadSchema, recordViewPayloadSchema,
  redeemKeyBodySchema, requestIdPayloadSchema, sessionIdPayloadSchema, submitAccessRequestBodySchema, submitAccessRequestReplySchema, viewerConsentSchema,
  viewerTokenGrantSchema, viewSessionBodySchema, viewSessionSummarySchema,
} from './access-keys.schemas.js';
import {
  accessRequestMailToPayloadSchema, accessRequestMailToReplySchema, requestFormInfoSchema, requestFormPayloadSchema, requestNoticeStatePayloadSchema, requestSettingSchema,
  type RequestNoticeState,
} from './access-requests.schemas.js';
import { keyStatusBodySchema, keyStatusReplySchema, ownerDisplayNamePayloadSchema, ownerDisplayNameReplySchema } from './key-status.schemas.js';
import type { NotificationsEventType, PublishedAccessKeysEventType } from './access-keys.js';
import { emptyPayload, healthRpc, rebuildRpc, replyType, rpc, statsRpc } from './rpc.js';
import type { PublishedBillingEventType } from './billing.js';
import {
  changePlanBodySchema, checkoutSessionSchema, faqEntrySchema, localSessionPayloadSchema, localSessionSchema, saveFaqBodySchema, startCheckoutBodySchema, subscriptionViewSchema,
  webhookPayloadSchema,
  webhookReplySchema,
} from './billing.schemas.js';
import type { ServiceName } from './services.js';
import {
  communityPostSchema, communityPostsSchema, communityStoriesSchema, deletePostReplySchema, libraryTrackSchema, likePostPayloadSchema, musicTracksSchema,
  musicUploadTicketSchema, postIdPayloadSchema, publishPostPayloadSchema, removedMusicTrackSchema, removeMusicTrackPayloadSchema, startMusicUploadPayloadSchema,
  storyReceiptSchema, submitStoryPayloadSchema,
} from './community.schemas.js';

type IdentityEventType = IdentityEvent['type'];

/**
 * The one registry of NATS subjects. Request-reply patterns live under `rpc.<service>.` and domain
 * events under `<service>.<aggregate>.<event>.v1`, so a service's JetStream stream (`<service>.>`)
 * never captures request-reply traffic. Each RPC subject is declared once (rpc.ts), with the schema
 * its payload must pass and the shape of its reply: handlers and callers are both typed from it.
 */
export const IdentityRpc = {
  health: healthRpc('identity'),
  signUp: rpc('rpc.identity.sign-up', { payload: credentialsPayloadSchema, reply: issuedSessionSchema }),
  signIn: rpc('rpc.identity.sign-in', { payload: credentialsPayloadSchema, reply: issuedSessionSchema }),
  refresh: rpc('rpc.identity.refresh', { payload: refreshPayloadSchema, reply: issuedSessionSchema }),
  signOut: rpc('rpc.identity.sign-out', { payload: signOutPayloadSchema, reply: signOutReplySchema }),
  getMe: rpc('rpc.identity.get-me', { payload: emptyPayload, reply: userProfileSchema }),
  updateMe: rpc('rpc.identity.update-me', { payload: updateProfilePayloadSchema, reply: userProfileSchema }),
  // Operator commands (ops CLI): the caller must hold an operator token.
  findUserByEmail: rpc('rpc.identity.op.find-user', { payload: findUserPayloadSchema, reply: userProfileSchema }),
  setAdmin: rpc('rpc.identity.op.set-admin', { payload: setAdminPayloadSchema, reply: userProfileSchema }),
  setTier: rpc('rpc.identity.op.set-tier', { payload: setTierPayloadSchema, reply: userProfileSchema }),
  rebuildProjections: rebuildRpc('identity'),
  // Account settings (/settings): the caller's own account; e-mail and password need the current password.
  changeEmail: rpc('rpc.identity.change-email', { payload: changeEmailPayloadSchema, reply: userProfileSchema }),
  changePassword: rpc('rpc.identity.change-password', { payload: changePasswordPayloadSchema, reply: changePasswordReplySchema }),
  notificationPreferences: rpc('rpc.identity.notification-preferences.get', { payload: emptyPayload, reply: notificationPreferencesSchema }),
  saveNotificationPreferences: rpc('rpc.identity.notification-preferences.save', { payload: notificationPreferencesBodySchema, reply: notificationPreferencesSchema }),
  /** The admin dashboard: counters, the (searched) user list, sign-ups per day. Admins only, re-checked against identity's own flag. */
  adminOverview: rpc('rpc.identity.admin.overview', { payload: adminUsersQuerySchema, reply: adminOverviewSchema }),
  /** access-keys, for a key's landing page: the vault owner's display name. Publishable by access-keys only (deploy/nats). */
  ownerDisplayName: rpc('rpc.identity.owner-display-name', { payload: ownerDisplayNamePayloadSchema, reply: ownerDisplayNameReplySchema }),
  /** notifications, before it e-mails an owner about an access request: his address while his "Access Requests" switch is on. Publishable by notifications only. */
  accessRequestMailTo: rpc('rpc.identity.access-request-mail-to', { payload: accessRequestMailToPayloadSchema, reply: accessRequestMailToReplySchema }),
} as const;

export const IdentityEvents = {
  UserRegistered: 'identity.user.registered.v1',
  ProfileUpdated: 'identity.user.profile-updated.v1',
  SubscriptionTierChanged: 'identity.user.tier-changed.v1',
  AdminGranted: 'identity.user.admin-granted.v1',
  AdminRevoked: 'identity.user.admin-revoked.v1',
  PasswordChanged: 'identity.user.password-changed.v1',
  EmailChanged: 'identity.user.email-changed.v1',
  NotificationPreferencesChanged: 'identity.user.notification-preferences-changed.v1',
  UserSignedIn: 'identity.user.signed-in.v1',
} as const satisfies Record<IdentityEventType, string>;

export const LettersRpc = {
  health: healthRpc('letters'),
  /** lettersWritten, thoughtsSaved and the days letters (or the reflection) were saved. */
  stats: statsRpc('letters'),
  list: rpc('rpc.letters.list', { payload: listLettersPayloadSchema, reply: letterPageSchema }),
  get: rpc('rpc.letters.get', { payload: letterByIdPayloadSchema, reply: letterSchema }),
  write: rpc('rpc.letters.write', { payload: writeLetterPayloadSchema, reply: letterSchema }),
  revise: rpc('rpc.letters.revise', { payload: reviseLetterPayloadSchema, reply: letterSchema }),
  delete: rpc('rpc.letters.delete', { payload: letterByIdPayloadSchema, reply: deleteLetterReplySchema }),
  /** The caller's vault-home reflection. */
  reflectionGet: rpc('rpc.letters.reflection.get', { payload: emptyPayload, reply: reflectionSchema }),
  reflectionSave: rpc('rpc.letters.reflection.save', { payload: saveReflectionPayloadSchema, reply: reflectionSchema }),
  /** The caller's Who I Am portrait (owner), and the sections it has filled (owner, or a key holder of who-i-am). */
  portraitGet: rpc('rpc.letters.portrait.get', { payload: emptyPayload, reply: portraitSchema }),
  portraitSave: rpc('rpc.letters.portrait.save', { payload: savePortraitPayloadSchema, reply: portraitSchema }),
  portraitSections: rpc('rpc.letters.portrait.sections', { payload: emptyPayload, reply: portraitSectionsSchema }),
  /** The timeline's batch title lookup: the words of the reader's own letters among the ids. */
  titles: rpc('rpc.letters.titles', { payload: titlesPayloadSchema, reply: titlesReplySchema }),
  /** The owner seals a letter until a day for one recipient, or removes the seal before that day. */
  seal: rpc('rpc.letters.seal', { payload: sealLetterPayloadSchema, reply: letterSchema }),
  unseal: rpc('rpc.letters.unseal', { payload: letterByIdPayloadSchema, reply: letterSchema }),
  /**
   * access-keys, before it issues a milestone key: has this release committed, and for whom? Public on
   * NATS like key-mail-state, publishable by access-keys only (deploy/nats); unknown ids answer 'unknown'.
   */
  milestoneRelease: rpc('rpc.letters.milestone-release', { payload: milestoneReleasePayloadSchema, reply: milestoneReleaseReplySchema }),
  // Operator commands (ops CLI).
  rebuildProjections: rebuildRpc('letters'),
  /** The Parent Circle's discussion and stories (Pro, Legacy and admins): posts, likes, the author's delete, stories for moderation. */
  communityPosts: rpc('rpc.letters.community.posts', { payload: emptyPayload, reply: communityPostsSchema }),
  communityPublish: rpc('rpc.letters.community.publish', { payload: publishPostPayloadSchema, reply: communityPostSchema }),
  communityLike: rpc('rpc.letters.community.like', { payload: likePostPayloadSchema, reply: communityPostSchema }),
  communityDelete: rpc('rpc.letters.community.delete', { payload: postIdPayloadSchema, reply: deletePostReplySchema }),
  communitySubmitStory: rpc('rpc.letters.community.submit-story', { payload: submitStoryPayloadSchema, reply: storyReceiptSchema }),
  /** Admins only: the stories kept for moderation, newest first. */
  communityStories: rpc('rpc.letters.community.stories', { payload: emptyPayload, reply: communityStoriesSchema }),
  milestonesDue: rpc('rpc.letters.op.milestones-due', { payload: emptyPayload, reply: milestonesDueReplySchema }),
} as const;

/** Published payloads carry ids, counts and times only (letters.ts: LetterWrittenV1...), never words. */
export const LettersEvents = {
  LetterWritten: 'letters.letter.written.v1',
  LetterRevised: 'letters.letter.revised.v1',
  LetterDeleted: 'letters.letter.deleted.v1',
} as const satisfies Record<LetterEventType, string>;

export const VaultMediaRpc = {
  health: healthRpc('vault-media'),
  /** videosSaved (video and audio) and the days recordings were saved. */
  stats: statsRpc('vault-media'),
  startUpload: rpc('rpc.vault-media.start-upload', { payload: startUploadPayloadSchema, reply: uploadTicketSchema }),
  listRecordings: rpc('rpc.vault-media.list-recordings', { payload: listRecordingsPayloadSchema, reply: z.array(recordingSchema) }),
  /** Titles of the owner's final messages (the owner, or a key holder of "If I'm Not There"). */
  finalMessageTitles: rpc('rpc.vault-media.final-message-titles', { payload: emptyPayload, reply: finalEntriesSchema }),
  /** Titles of the owner's Who I Am photo and personal media (the owner, or a key holder of "Who I Am"). */
  portraitMediaTitles: rpc('rpc.vault-media.portrait-media-titles', { payload: emptyPayload, reply: finalEntriesSchema }),
  /** A new title for one of the owner's items (Who I Am's personal media). */
  retitle: rpc('rpc.vault-media.retitle', { payload: retitlePayloadSchema, reply: recordingSchema }),
  deleteEntry: rpc('rpc.vault-media.delete-entry', { payload: entryByIdPayloadSchema, reply: deleteEntryReplySchema }),
  playbackLink: rpc('rpc.vault-media.playback-link', { payload: entryByIdPayloadSchema, reply: playbackGrantSchema }),
  /** A family viewer's link to one item (recording, Who I Am media, final message), signed for its view session. */
  viewerLink: rpc('rpc.vault-media.viewer-link', { payload: viewerItemPayloadSchema, reply: viewerMediaGrantSchema }),
  /** From the worker's media-hashing job, authorised by the job's report token. */
  reportHash: rpc('rpc.vault-media.report-hash', { payload: reportHashPayloadSchema, reply: reportHashReplySchema }),
  /** The timeline's batch title lookup: the titles of the reader's own recordings among the ids. */
  titles: rpc('rpc.vault-media.titles', { payload: titlesPayloadSchema, reply: titlesReplySchema }),
  // Operator command (ops CLI).
  rebuildProjections: rebuildRpc('vault-media'),
  /** "Export Vault Data": every item of the caller's, all collections, a page at a time (oldest first). */
  exportList: rpc('rpc.vault-media.export-list', { payload: exportListPayloadSchema, reply: exportListSchema }),
  /** The admin dashboard's storage chart: bytes kept per UTC day over every vault (admins only). */
  adminStorageByDay: rpc('rpc.vault-media.admin.storage-by-day', { payload: emptyPayload, reply: storageByDaySchema }),
  /** The Parent Circle's music library (Pro, Legacy and admins): the playlist, and a link to play one track. */
  musicTracks: rpc('rpc.vault-media.music.list', { payload: emptyPayload, reply: musicTracksSchema }),
  musicPlaybackLink: rpc('rpc.vault-media.music.playback-link', { payload: entryByIdPayloadSchema, reply: playbackGrantSchema }),
  // Operator commands (music:add, music:list, music:remove): the bytes go to vault-media's byte listener, never over NATS.
  musicStartUpload: rpc('rpc.vault-media.op.music-start-upload', { payload: startMusicUploadPayloadSchema, reply: musicUploadTicketSchema }),
  musicLibrary: rpc('rpc.vault-media.op.music-library', { payload: emptyPayload, reply: z.array(libraryTrackSchema) }),
  musicRemove: rpc('rpc.vault-media.op.music-remove', { payload: removeMusicTrackPayloadSchema, reply: removedMusicTrackSchema }),
} as const;

/** The vault timeline (timeline.ts); it publishes no events of its own. */
export const TimelineRpc = {
  health: healthRpc('timeline'),
  /** activeDays: the days the vault has entries on, every source together. */
  stats: statsRpc('timeline'),
  list: rpc('rpc.timeline.list', { payload: timelinePayloadSchema, reply: timelinePageSchema }),
  entry: rpc('rpc.timeline.entry', { payload: timelineEntryPayloadSchema, reply: timelineEntrySchema }),
  awaitEntryGone: rpc('rpc.timeline.await-entry-gone', { payload: awaitEntryGonePayloadSchema, reply: awaitEntryGoneReplySchema }),
  // Operator command (ops CLI): replays the letters and vault-media streams.
  rebuildProjections: rebuildRpc('timeline'),
} as const;

/** Published payloads carry ids, sizes, hashes and times only (media.ts: RecordingSavedV1...), never titles. */
export const VaultMediaEvents = {
  RecordingSaved: 'vault-media.recording.saved.v1',
  RecordingHashVerified: 'vault-media.recording.hash-verified.v1',
  RecordingHashMismatch: 'vault-media.recording.hash-mismatch.v1',
  RecordingDeleted: 'vault-media.recording.deleted.v1',
} as const satisfies Record<PublishedRecordingEventType, string>;

/**
 * Court documents and the evidence chain (court-journal.ts). Bytes (uploads, previews, downloads, the
 * evidence bundle) go over court-journal's own HTTP listener, through the gateway; these carry the rest.
 */
export const CourtJournalRpc = {
  health: healthRpc('court-journal'),
  /** activeDays: the days documents were filed. */
  stats: statsRpc('court-journal'),
  startUpload: rpc('rpc.court-journal.start-upload', { payload: startCourtUploadPayloadSchema, reply: courtUploadTicketSchema }),
  list: rpc('rpc.court-journal.list', { payload: listCourtDocumentsPayloadSchema, reply: z.array(courtDocumentSchema) }),
  setKeyEvidence: rpc('rpc.court-journal.set-key-evidence', { payload: setKeyEvidencePayloadSchema, reply: courtDocumentSchema }),
  delete: rpc('rpc.court-journal.delete', { payload: courtDocumentByIdPayloadSchema, reply: deleteCourtDocumentReplySchema }),
  /** A short-lived, owner-bound link to preview (inline) or download (attachment) a file; recorded as a view in the chain. */
  fileLink: rpc('rpc.court-journal.file-link', { payload: courtFileLinkPayloadSchema, reply: courtFileGrantSchema }),
  /** A family viewer's link to one court document, signed for its view session. */
  viewerLink: rpc('rpc.court-journal.viewer-link', { payload: viewerItemPayloadSchema, reply: viewerDocumentGrantSchema }),
  /** The caller's evidence chain: its signed head, and its entries. */
  evidenceHead: rpc('rpc.court-journal.evidence-head', { payload: emptyPayload, reply: signedEvidenceHeadSchema }),
  evidenceEntries: rpc('rpc.court-journal.evidence-entries', { payload: emptyPayload, reply: z.array(evidenceEntrySummarySchema) }),
  /** A short-lived, owner-bound link to the evidence bundle (ZIP); recorded as an export in the chain. */
  bundleLink: rpc('rpc.court-journal.bundle-link', { payload: emptyPayload, reply: courtFileGrantSchema }),
  /** Public: the evidence keys anyone may use to check a bundle's signature. */
  publicKeys: rpc('rpc.court-journal.public-keys', { payload: emptyPayload, reply: evidencePublicKeysSchema }),
  /** The timeline's batch title lookup: the titles of the reader's own documents among the ids. */
  titles: rpc('rpc.court-journal.titles', { payload: titlesPayloadSchema, reply: titlesReplySchema }),
  // Operator command (ops CLI).
  rebuildProjections: rebuildRpc('court-journal'),
} as const;

/** Published payloads carry ids, categories, sizes, hashes and times only (court-journal.ts: CourtDocumentUploadedV1...), never words. */
export const CourtJournalEvents = {
  CourtDocumentUploaded: 'court-journal.document.uploaded.v1',
  CourtDocumentKeyEvidenceChanged: 'court-journal.document.key-evidence-changed.v1',
  CourtDocumentDeleted: 'court-journal.document.deleted.v1',
  EvidenceHeadSigned: 'court-journal.evidence.head-signed.v1',
} as const satisfies Record<PublishedCourtJournalEventType, string>;

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
  // Operator commands (ops CLI).
  listPendingForOwner: rpc('rpc.access-keys.op.list-pending', { payload: ownerIdPayloadSchema, reply: accessRequestPageSchema }),
  reportAbsence: rpc('rpc.access-keys.op.report-absence', { payload: deliveryOperatorPayloadSchema, reply: deliveryViewSchema }),
  verifyDelivery: rpc('rpc.access-keys.op.verify-delivery', { payload: deliveryOperatorPayloadSchema, reply: deliveryViewSchema }),
  /**
   * letters, once a milestone letter's release has committed: issue its recipient a key limited to that
   * letter and queue its e-mail (once per release, whatever the retries). Public on NATS, publishable by
   * letters only (deploy/nats); access-keys asks letters back who the release is for, never the payload.
   */
  issueLetterKey: rpc('rpc.access-keys.issue-letter-key', { payload: milestoneReleasePayloadSchema, reply: z.object({ key_id: z.uuid().nullable() }) }),
  rebuildProjections: rebuildRpc('access-keys'),
} as const;

/** Published payloads carry ids, scopes and times only (access-keys.ts: AccessKeyIssuedV1...), never an address, a name or a key. */
export const AccessKeysEvents = {
  AccessRequestSubmitted: 'access-keys.request.submitted.v1',
  AccessRequestApproved: 'access-keys.request.approved.v1',
  AccessRequestDeclined: 'access-keys.request.declined.v1',
  AccessKeyIssued: 'access-keys.key.issued.v1',
  AccessKeyRevoked: 'access-keys.key.revoked.v1',
  ViewSessionOpened: 'access-keys.view-session.opened.v1',
  ViewSessionRevoked: 'access-keys.view-session.revoked.v1',
  ViewSessionClosed: 'access-keys.view-session.closed.v1',
} as const satisfies Record<PublishedAccessKeysEventType, string>;

/** E-mail (key e-mails today): BullMQ jobs on the key-emails queue, sent over SMTP at most once per key. */
export const NotificationsRpc = {
  health: healthRpc('notifications'),
  /** Operator (ops CLI): retry a key e-mail whose job failed; says so when it was already sent. */
  resendKeyEmail: rpc('rpc.notifications.op.resend-key-email', { payload: keyIdPayloadSchema, reply: keyEmailResendReplySchema }),
  rebuildProjections: rebuildRpc('notifications'),
} as const;

export const NotificationsEvents = {
  KeyEmailSent: 'notifications.key-email.sent.v1',
  KeyEmailFailed: 'notifications.key-email.failed.v1',
} as const satisfies Record<NotificationsEventType, string>;

/** How the caller travels with every request: services verify the token themselves. */
export interface CallerAuth {
  accessToken?: string;
}

export interface RequestMeta {
  requestId: string;
  /** Client address as the gateway saw it, for per-address limits. */
  ip?: string;
  userAgent?: string;
  /** The request's Origin header (or the gateway's own origin), recorded with a viewer's consent. */
  origin?: string;
  /** Sign-in only: the browser's device id, sent when its signed lv_device cookie proves an earlier sign-in to the same email. */
  device?: string;
  /**
   * Ties together everything one user action causes across services: the gateway's request id,
   * carried on by every call, event and job that follows (the RPC client fills it from the trace).
   */
  correlationId?: string;
}

/** The envelope of every request-reply message. */
export interface RpcRequest<T = unknown> {
  auth: CallerAuth;
  meta: RequestMeta;
  payload: T;
}

/** Envelope metadata carried by every stored and published event. */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  /** Who caused it; a family viewer is named by the view session, an anonymous requester not at all. */
  actor?: { kind: 'user' | 'operator' | 'system' | 'viewer'; id: string };
}

/** The JSON body of every event published on JetStream. */
export interface PublishedEvent<T = unknown> {
  eventId: string;
  type: string;
  streamId: string;
  version: number;
  occurredAt: string;
  data: T;
  metadata: EventMetadata;
}

/**
 * Services that contribute to the vault home's numbers answer `statsRpc(service)` with a
 * VaultStatsContribution. The gateway adds up whatever the listed services report; services join
 * this list when they exist (vault-media, letters, court-journal), so no number is ever invented.
 */
export const VAULT_STATS_PROVIDERS: readonly ServiceName[] = ['vault-media', 'letters', 'court-journal'];

/**
 * Plans and billing (billing.ts): the owner's subscription, the provider's hosted checkout and its
 * signed webhooks, and the FAQ. Published payloads carry ids, the tier and times only.
 */
export const BillingRpc = {
  health: healthRpc('billing'),
  subscription: rpc('rpc.billing.subscription', { payload: emptyPayload, reply: subscriptionViewSchema }),
  startCheckout: rpc('rpc.billing.start-checkout', { payload: startCheckoutBodySchema, reply: checkoutSessionSchema }),
  cancel: rpc('rpc.billing.cancel', { payload: emptyPayload, reply: subscriptionViewSchema }),
  /**
   * Public on NATS (the gateway's public webhook route forwards here): the provider's signature over
   * the exact body is the authority, checked here against the webhook secret only billing holds.
   */
  webhook: rpc('rpc.billing.webhook', { payload: webhookPayloadSchema, reply: webhookReplySchema }),
  // The local development provider's hosted page (the owner who started the checkout only).
  localSession: rpc('rpc.billing.local.session', { payload: localSessionPayloadSchema, reply: localSessionSchema }),
  localPay: rpc('rpc.billing.local.pay', { payload: localSessionPayloadSchema, reply: localSessionSchema }),
  localCancel: rpc('rpc.billing.local.cancel', { payload: localSessionPayloadSchema, reply: localSessionSchema }),
  /** Public: the active FAQ entries by display order (the pricing page). */
  faq: rpc('rpc.billing.faq', { payload: emptyPayload, reply: z.array(faqEntrySchema) }),
  // Admins (ai_admin): every entry, and adding or editing one.
  faqAll: rpc('rpc.billing.faq.all', { payload: emptyPayload, reply: z.array(faqEntrySchema) }),
  faqSave: rpc('rpc.billing.faq.save', { payload: saveFaqBodySchema, reply: faqEntrySchema }),
  /** The owner's live subscription to another paid plan; the reply is the view as it stands (the tier moves on the provider's webhook). */
  changePlan: rpc('rpc.billing.change-plan', { payload: changePlanBodySchema, reply: subscriptionViewSchema }),
  // Operator command (ops CLI).
  rebuildProjections: rebuildRpc('billing'),
} as const;

export const BillingEvents = {
  CheckoutStarted: 'billing.subscription.checkout-started.v1',
  SubscriptionActivated: 'billing.subscription.activated.v1',
  SubscriptionRenewed: 'billing.subscription.renewed.v1',
  CancelRequested: 'billing.subscription.cancel-requested.v1',
  SubscriptionEnded: 'billing.subscription.ended.v1',
} as const satisfies Record<PublishedBillingEventType, string>;
