// identity's subjects: its RPC (accounts, sessions, settings, the admin dashboard) and its events.
import { z } from 'zod';
import { accessRequestMailToPayloadSchema, accessRequestMailToReplySchema } from './access-requests.schemas.js';
import {
  adminOverviewSchema, adminUsersQuerySchema, changeEmailPayloadSchema, changePasswordPayloadSchema, changePasswordReplySchema, credentialsPayloadSchema,
  findUserPayloadSchema, issuedSessionSchema, notificationPreferencesBodySchema, notificationPreferencesSchema, refreshPayloadSchema, setAdminPayloadSchema,
  setTierPayloadSchema, signOutPayloadSchema, forgotPasswordPayloadSchema, forgotPasswordReplySchema, resetPasswordPayloadSchema, resetPasswordReplySchema, emailChangeLinkPayloadSchema, emailChangeLinkReplySchema, verifyEmailReplySchema,
  accountDeletionPayloadSchema, accountDeletionStatusSchema, eraseDueAccountsReplySchema,
  accountSessionsSchema, recoveryCodesSchema, signInReplySchema, twoStepCodePayloadSchema, twoStepDisablePayloadSchema, twoStepSetupSchema, confirmIdentityPayloadSchema, sessionViewSchema, twoStepSignInPayloadSchema, twoStepStatusSchema, sessionIdParamSchema, sessionsEndedSchema, signOutReplySchema, updateProfilePayloadSchema, userProfileSchema,
} from './identity.schemas.js';
import { ownerDisplayNamePayloadSchema, ownerDisplayNameReplySchema } from './key-status.schemas.js';
import {
  addPasskeyPayloadSchema, passkeyAssertionPayloadSchema, passkeyCeremonySchema, passkeyIdParamSchema, passkeyListSchema, passkeyViewSchema, renamePasskeyPayloadSchema, twoStepPasskeyOptionsPayloadSchema, twoStepPasskeyPayloadSchema,
} from './passkeys.schemas.js';

import { emptyPayload, healthRpc, rebuildRpc, replayErasuresRpc, rpc } from './rpc.js';
import { event, type EventData, type EventDeclaration } from './events.js';
import type { IdentityEvent } from './identity.js';
import { SUBSCRIPTION_TIERS } from './tiers.js';

export const IdentityRpc = {
  health: healthRpc('identity'),
  signUp: rpc('rpc.identity.sign-up', { payload: credentialsPayloadSchema, reply: issuedSessionSchema }),
  signIn: rpc('rpc.identity.sign-in', { payload: credentialsPayloadSchema, reply: signInReplySchema }),
  /** The second step of a sign-in with two-step on: public, the challenge and the code are the proof. */
  signInTwoStep: rpc('rpc.identity.sign-in.two-step', { payload: twoStepSignInPayloadSchema, reply: issuedSessionSchema }),
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
  /** notifications only: an owner's address and name for e-mails about his own safety (a trustee's report), whatever his switches. */
  ownerMailTo: rpc('rpc.identity.owner-mail-to', { payload: accessRequestMailToPayloadSchema, reply: accessRequestMailToReplySchema }),
  // Account recovery: public; the answer to a request is the same whether or not the address has an account.
  forgotPassword: rpc('rpc.identity.forgot-password', { payload: forgotPasswordPayloadSchema, reply: forgotPasswordReplySchema }),
  resetPassword: rpc('rpc.identity.reset-password', { payload: resetPasswordPayloadSchema, reply: resetPasswordReplySchema }),
  // An e-mail change's links: public, the token is the proof (the new address confirms, the old one undoes).
  confirmEmailChange: rpc('rpc.identity.confirm-email-change', { payload: emailChangeLinkPayloadSchema, reply: emailChangeLinkReplySchema }),
  undoEmailChange: rpc('rpc.identity.undo-email-change', { payload: emailChangeLinkPayloadSchema, reply: emailChangeLinkReplySchema }),
  /** A new-sign-in alert's "this wasn't me" link: public, the token is the proof; every session ends and a reset link follows. */
  disownSignIn: rpc('rpc.identity.disown-sign-in', { payload: emailChangeLinkPayloadSchema, reply: emailChangeLinkReplySchema }),
  /** The verification link of the account's address: public, the token is the proof. */
  verifyEmail: rpc('rpc.identity.verify-email', { payload: emailChangeLinkPayloadSchema, reply: verifyEmailReplySchema }),
  /** The signed-in owner asks for a new verification link (the old one stops working); a few an hour. */
  resendVerification: rpc('rpc.identity.verify-email.resend', { payload: emptyPayload, reply: verifyEmailReplySchema }),
  // The signed-in browsers of the caller's own account.
  sessions: rpc('rpc.identity.sessions.list', { payload: emptyPayload, reply: accountSessionsSchema }),
  endSession: rpc('rpc.identity.sessions.end', { payload: sessionIdParamSchema, reply: sessionsEndedSchema }),
  endOtherSessions: rpc('rpc.identity.sessions.end-others', { payload: emptyPayload, reply: sessionsEndedSchema }),
  // Two-step sign-in of the caller's own account: the set-up, turning it off, new recovery codes.
  twoStepStatus: rpc('rpc.identity.two-step.status', { payload: emptyPayload, reply: twoStepStatusSchema }),
  twoStepSetup: rpc('rpc.identity.two-step.setup', { payload: emptyPayload, reply: twoStepSetupSchema }),
  twoStepConfirm: rpc('rpc.identity.two-step.confirm', { payload: twoStepCodePayloadSchema, reply: recoveryCodesSchema }),
  twoStepDisable: rpc('rpc.identity.two-step.disable', { payload: twoStepDisablePayloadSchema, reply: twoStepStatusSchema }),
  twoStepRegenerate: rpc('rpc.identity.two-step.recovery-codes', { payload: twoStepCodePayloadSchema, reply: recoveryCodesSchema }),
  // Sudo mode: the password again renews this session's proof; the answer is a token that carries it.
  confirmIdentity: rpc('rpc.identity.confirm-identity', { payload: confirmIdentityPayloadSchema, reply: sessionViewSchema }),
  // Passkeys (WebAuthn) of the caller's own account: adding (sudo) and removing (sudo) one, renaming, the list.
  passkeys: rpc('rpc.identity.passkeys.list', { payload: emptyPayload, reply: passkeyListSchema }),
  passkeyRegistrationOptions: rpc('rpc.identity.passkeys.registration-options', { payload: emptyPayload, reply: passkeyCeremonySchema }),
  addPasskey: rpc('rpc.identity.passkeys.add', { payload: addPasskeyPayloadSchema, reply: passkeyViewSchema }),
  renamePasskey: rpc('rpc.identity.passkeys.rename', { payload: renamePasskeyPayloadSchema, reply: passkeyViewSchema }),
  removePasskey: rpc('rpc.identity.passkeys.remove', { payload: passkeyIdParamSchema, reply: passkeyListSchema }),
  /** Signing in with a passkey and no password: public, the passkey's signature over a single-use challenge is the proof. */
  passkeySignInOptions: rpc('rpc.identity.sign-in.passkey-options', { payload: emptyPayload, reply: passkeyCeremonySchema }),
  passkeySignIn: rpc('rpc.identity.sign-in.passkey', { payload: passkeyAssertionPayloadSchema, reply: issuedSessionSchema }),
  /** A passkey as the second step after the password: public, the password step's challenge and the passkey are the proof. */
  twoStepPasskeyOptions: rpc('rpc.identity.sign-in.two-step.passkey-options', { payload: twoStepPasskeyOptionsPayloadSchema, reply: passkeyCeremonySchema }),
  signInTwoStepPasskey: rpc('rpc.identity.sign-in.two-step.passkey', { payload: twoStepPasskeyPayloadSchema, reply: issuedSessionSchema }),
  /** Sudo mode with a passkey instead of the password. */
  confirmIdentityPasskeyOptions: rpc('rpc.identity.confirm-identity.passkey-options', { payload: emptyPayload, reply: passkeyCeremonySchema }),
  confirmIdentityPasskey: rpc('rpc.identity.confirm-identity.passkey', { payload: passkeyAssertionPayloadSchema, reply: sessionViewSchema }),
  // Deleting the account: scheduled (sudo mode, the word typed), kept from Settings or by the e-mailed link.
  accountDeletionStatus: rpc('rpc.identity.account-deletion.status', { payload: emptyPayload, reply: accountDeletionStatusSchema }),
  requestAccountDeletion: rpc('rpc.identity.account-deletion.request', { payload: accountDeletionPayloadSchema, reply: accountDeletionStatusSchema }),
  cancelAccountDeletion: rpc('rpc.identity.account-deletion.cancel', { payload: emptyPayload, reply: accountDeletionStatusSchema }),
  keepAccountByLink: rpc('rpc.identity.account-deletion.keep-by-link', { payload: emailChangeLinkPayloadSchema, reply: accountDeletionStatusSchema }),
  // Operators: the deletions past their grace period, erased now (what the timer does).
  eraseDueAccounts: rpc('rpc.identity.op.account-erase-due', { payload: emptyPayload, reply: eraseDueAccountsReplySchema }),
  replayErasures: replayErasuresRpc('identity'),
} as const;


const tier = z.enum(SUBSCRIPTION_TIERS);

/** Published as stored: the facts, nothing derived, never a secret (identity.ts). */
export const IdentityEvents = {
  UserRegistered: event('identity.user.registered.v1', z.object({ userId: z.string(), email: z.string(), registeredAt: z.string() })),
  ProfileUpdated: event('identity.user.profile-updated.v1', z.object({ userId: z.string(), full_name: z.string().nullable().optional(), avatar_url: z.string().nullable().optional() })),
  SubscriptionTierChanged: event('identity.user.tier-changed.v1', z.object({ userId: z.string(), tier, previousTier: tier })),
  AdminGranted: event('identity.user.admin-granted.v1', z.object({ userId: z.string() })),
  AdminRevoked: event('identity.user.admin-revoked.v1', z.object({ userId: z.string() })),
  PasswordChanged: event('identity.user.password-changed.v1', z.object({ userId: z.string(), changedAt: z.string() })),
  EmailChanged: event('identity.user.email-changed.v1', z.object({ userId: z.string(), email: z.string(), previousEmail: z.string() })),
  NotificationPreferencesChanged: event('identity.user.notification-preferences-changed.v1', z.object({ userId: z.string(), preferences: notificationPreferencesBodySchema })),
  /**
   * A sign-in or a session refresh succeeded (stream user-activity-{id}): ids and time only, no address
   * or agent. At most one an hour per user (identity's activity_marks), so a busy session stays cheap.
   */
  UserSignedIn: event('identity.user.signed-in.v1', z.object({ userId: z.string(), sessionId: z.string(), signedInAt: z.string() })),
  /**
   * The owner's account was deleted and its grace period is over: every service erases what it holds of
   * him (destroys his keys, ends his keys and deliveries). Ids and time only: the address is already gone.
   */
  AccountErased: event('identity.user.account-erased.v1', z.object({ userId: z.string(), erasedAt: z.string() })),
} as const satisfies Record<IdentityEvent['type'], EventDeclaration>;

export type UserRegistered = EventData<typeof IdentityEvents.UserRegistered>;
export type ProfileUpdated = EventData<typeof IdentityEvents.ProfileUpdated>;
export type SubscriptionTierChanged = EventData<typeof IdentityEvents.SubscriptionTierChanged>;
export type AdminGranted = EventData<typeof IdentityEvents.AdminGranted>;
export type AdminRevoked = EventData<typeof IdentityEvents.AdminRevoked>;
export type PasswordChanged = EventData<typeof IdentityEvents.PasswordChanged>;
export type EmailChanged = EventData<typeof IdentityEvents.EmailChanged>;
export type NotificationPreferencesChanged = EventData<typeof IdentityEvents.NotificationPreferencesChanged>;
export type UserSignedIn = EventData<typeof IdentityEvents.UserSignedIn>;
export type AccountErased = EventData<typeof IdentityEvents.AccountErased>;
