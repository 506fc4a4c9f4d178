import { Controller } from '@nestjs/common';
import { IdentityRpc, type AccountDeletionStatus, type EraseDueAccountsReply, type ErasureReplayReply, type AccountSessions, type ForgotPasswordReply, type ResetPasswordReply, type EmailChangeLinkReply, type SessionsEnded, type SessionView, type AdminOverview, type ChangePasswordReply, type NotificationPreferencesView, type IssuedSession, type PayloadOf, type RebuildReply, type RequestMeta, type SignOutReply, type UserProfile, type VerifyEmailReply, type RecoveryCodes, type TwoStepChallenge, type TwoStepSetup, type TwoStepStatus, type PasskeyCeremony, type PasskeyList, type PasskeyView } from '@lv/contracts';
import { AccessTokenVerifier, ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { ErasureJournalKeeper } from '@lv/platform/event-store';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcAccessToken, RpcHandler, RpcMeta, RpcPayload, Writers } from '@lv/platform/nest';
import { IdentityService } from './identity.service.js';

/** identity's request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class IdentityController {
  constructor(private readonly identity: IdentityService, private readonly verifier: AccessTokenVerifier, private readonly erasures: ErasureJournalKeeper) {}

  // Deleting the account (account-deletion/): scheduled in sudo mode, kept from Settings or by the e-mailed link.

  @Readers('owner')
  @RpcHandler(IdentityRpc.accountDeletionStatus)
  accountDeletionStatus(@CurrentCaller() caller: Caller): Promise<AccountDeletionStatus> {
    return this.identity.accountDeletion.status(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.requestAccountDeletion)
  requestAccountDeletion(@RpcPayload() input: PayloadOf<typeof IdentityRpc.requestAccountDeletion>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<AccountDeletionStatus> {
    return this.identity.accountDeletion.request(caller, input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.cancelAccountDeletion)
  cancelAccountDeletion(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<AccountDeletionStatus> {
    return this.identity.accountDeletion.cancel(caller, meta);
  }

  /** Public: the link's token is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.keepAccountByLink)
  keepAccountByLink(@RpcPayload() input: PayloadOf<typeof IdentityRpc.keepAccountByLink>, @RpcMeta() meta: RequestMeta): Promise<AccountDeletionStatus> {
    return this.identity.accountDeletion.keepByLink(input, meta);
  }

  /** The operators' account:erase-due: the deletions past their grace period, erased now. */
  @OperatorOnly()
  @RpcHandler(IdentityRpc.eraseDueAccounts)
  eraseDueAccounts(): Promise<EraseDueAccountsReply> {
    return this.identity.accountDeletion.eraseDue();
  }

  /** The operators' erasures:replay: the accounts the erasure journal holds, erased again (idempotent). */
  @OperatorOnly()
  @RpcHandler(IdentityRpc.replayErasures)
  replayErasures(): Promise<ErasureReplayReply> {
    return this.erasures.replayNow();
  }

  @PublicRpc()
  @RpcHandler(IdentityRpc.signUp)
  signUp(@RpcPayload() credentials: PayloadOf<typeof IdentityRpc.signUp>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession> {
    return this.identity.auth.signUp(credentials, meta);
  }

  @PublicRpc()
  @RpcHandler(IdentityRpc.signIn)
  signIn(@RpcPayload() credentials: PayloadOf<typeof IdentityRpc.signIn>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession | TwoStepChallenge> {
    return this.identity.auth.signIn(credentials, meta);
  }

  /** Public: the password step's challenge and the code are the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.signInTwoStep)
  signInTwoStep(@RpcPayload() input: PayloadOf<typeof IdentityRpc.signInTwoStep>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession> {
    return this.identity.auth.signInTwoStep(input, meta);
  }

  @Readers('owner')
  @RpcHandler(IdentityRpc.twoStepStatus)
  twoStepStatus(@CurrentCaller() caller: Caller): Promise<TwoStepStatus> {
    return this.identity.twoStep.status(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.twoStepSetup)
  twoStepSetup(@CurrentCaller() caller: Caller): Promise<TwoStepSetup> {
    return this.identity.twoStep.setup(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.twoStepConfirm)
  twoStepConfirm(@RpcPayload() input: PayloadOf<typeof IdentityRpc.twoStepConfirm>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<RecoveryCodes> {
    return this.identity.twoStep.confirm(caller, input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.twoStepDisable)
  twoStepDisable(@RpcPayload() input: PayloadOf<typeof IdentityRpc.twoStepDisable>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<TwoStepStatus> {
    return this.identity.twoStep.disable(caller, input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.twoStepRegenerate)
  twoStepRegenerate(@RpcPayload() input: PayloadOf<typeof IdentityRpc.twoStepRegenerate>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<RecoveryCodes> {
    return this.identity.twoStep.regenerate(caller, input, meta);
  }

  @PublicRpc()
  @RpcHandler(IdentityRpc.refresh)
  refresh(@RpcPayload() { refreshToken }: PayloadOf<typeof IdentityRpc.refresh>): Promise<IssuedSession> {
    return this.identity.auth.refresh(refreshToken);
  }

  /** Public so an expired access token can still end its session; the refresh token proves it. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.signOut)
  async signOut(@RpcPayload() { refreshToken }: PayloadOf<typeof IdentityRpc.signOut>, @RpcAccessToken() accessToken: string | undefined): Promise<SignOutReply> {
    const caller = accessToken ? await this.verifier.verify(accessToken).catch(() => null) : null;
    return { revoked: await this.identity.auth.signOut(refreshToken, caller) };
  }

  /** Public: the answer is the same whether or not the address has an account (see PasswordRecovery.forgot). */
  @PublicRpc()
  @RpcHandler(IdentityRpc.forgotPassword)
  forgotPassword(@RpcPayload() input: PayloadOf<typeof IdentityRpc.forgotPassword>, @RpcMeta() meta: RequestMeta): Promise<ForgotPasswordReply> {
    return this.identity.passwords.forgot(input, meta);
  }

  /** Public: the reset link's token is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.resetPassword)
  resetPassword(@RpcPayload() input: PayloadOf<typeof IdentityRpc.resetPassword>, @RpcMeta() meta: RequestMeta): Promise<ResetPasswordReply> {
    return this.identity.passwords.reset(input, meta);
  }

  /** Public: the link's token is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.confirmEmailChange)
  confirmEmailChange(@RpcPayload() input: PayloadOf<typeof IdentityRpc.confirmEmailChange>, @RpcMeta() meta: RequestMeta): Promise<EmailChangeLinkReply> {
    return this.identity.emailChange.confirm(input, meta);
  }

  /** Public: the link's token is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.undoEmailChange)
  undoEmailChange(@RpcPayload() input: PayloadOf<typeof IdentityRpc.undoEmailChange>, @RpcMeta() meta: RequestMeta): Promise<EmailChangeLinkReply> {
    return this.identity.emailChange.undo(input, meta);
  }

  /** Public: the link's token is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.disownSignIn)
  disownSignIn(@RpcPayload() input: PayloadOf<typeof IdentityRpc.disownSignIn>, @RpcMeta() meta: RequestMeta): Promise<EmailChangeLinkReply> {
    return this.identity.auth.disown(input, meta);
  }

  /** Public: the link's token is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.verifyEmail)
  verifyEmail(@RpcPayload() input: PayloadOf<typeof IdentityRpc.verifyEmail>, @RpcMeta() meta: RequestMeta): Promise<VerifyEmailReply> {
    return this.identity.verification.verify(input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.resendVerification)
  resendVerification(@CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<VerifyEmailReply> {
    return this.identity.verification.resend(caller, meta);
  }

  @Readers('owner')
  @RpcHandler(IdentityRpc.sessions)
  sessions(@CurrentCaller() caller: Caller): Promise<AccountSessions> {
    return this.identity.listSessions(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.endSession)
  endSession(@RpcPayload() { sessionId }: PayloadOf<typeof IdentityRpc.endSession>, @CurrentCaller() caller: Caller): Promise<SessionsEnded> {
    return this.identity.endSession(caller, sessionId);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.endOtherSessions)
  endOtherSessions(@CurrentCaller() caller: Caller): Promise<SessionsEnded> {
    return this.identity.endOtherSessions(caller);
  }

  @Readers('owner')
  @RpcHandler(IdentityRpc.getMe)
  getMe(@CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.getProfile(ownerOf(caller).userId);
  }

  /**
   * access-keys only (deploy/nats denies it to the gateway): the name on a key's landing page. Public
   * on NATS because the caller is a service, not a person; it answers a name, nothing else.
   */
  @PublicRpc()
  @RpcHandler(IdentityRpc.ownerDisplayName)
  async ownerDisplayName(@RpcPayload() { user_id }: PayloadOf<typeof IdentityRpc.ownerDisplayName>): Promise<{ full_name: string | null }> {
    // A vault whose owner is gone has no name to show; any other failure is the caller's to see.
    const profile = await this.identity.getProfile(user_id).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
      throw error;
    });
    return { full_name: profile?.full_name?.trim() || null };
  }

  /**
   * notifications only (deploy/nats denies it to the gateway and the other services): an owner's address
   * for an e-mail about an access request, null while his "Access Requests" switch is off.
   */
  @PublicRpc()
  @RpcHandler(IdentityRpc.accessRequestMailTo)
  accessRequestMailTo(@RpcPayload() { user_id }: PayloadOf<typeof IdentityRpc.accessRequestMailTo>): Promise<{ email: string | null; full_name: string | null }> {
    return this.identity.accessRequestMailTo(user_id);
  }

  /** notifications only (deploy/nats denies it to the gateway and the other services): an owner's address for a trustee report's e-mails. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.ownerMailTo)
  ownerMailTo(@RpcPayload() { user_id }: PayloadOf<typeof IdentityRpc.ownerMailTo>): Promise<{ email: string | null; full_name: string | null }> {
    return this.identity.ownerMailTo(user_id);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.updateMe)
  updateMe(@RpcPayload() changes: PayloadOf<typeof IdentityRpc.updateMe>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.updateProfile(caller, changes);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.changeEmail)
  changeEmail(@RpcPayload() input: PayloadOf<typeof IdentityRpc.changeEmail>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<UserProfile> {
    return this.identity.emailChange.request(caller, input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.confirmIdentity)
  confirmIdentity(@RpcPayload() input: PayloadOf<typeof IdentityRpc.confirmIdentity>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<SessionView> {
    return this.identity.confirmIdentity(caller, input, meta);
  }

  // Passkeys (use-cases/passkeys.ts): identity re-checks the caller (and sudo mode) in each use case.

  @Readers('owner')
  @RpcHandler(IdentityRpc.passkeys)
  passkeys(@CurrentCaller() caller: Caller): Promise<PasskeyList> {
    return this.identity.passkeys.list(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.passkeyRegistrationOptions)
  passkeyRegistrationOptions(@CurrentCaller() caller: Caller): Promise<PasskeyCeremony> {
    return this.identity.passkeys.registrationOptions(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.addPasskey)
  addPasskey(@RpcPayload() input: PayloadOf<typeof IdentityRpc.addPasskey>, @CurrentCaller() caller: Caller): Promise<PasskeyView> {
    return this.identity.passkeys.add(caller, input);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.renamePasskey)
  renamePasskey(@RpcPayload() input: PayloadOf<typeof IdentityRpc.renamePasskey>, @CurrentCaller() caller: Caller): Promise<PasskeyView> {
    return this.identity.passkeys.rename(caller, input);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.removePasskey)
  removePasskey(@RpcPayload() input: PayloadOf<typeof IdentityRpc.removePasskey>, @CurrentCaller() caller: Caller): Promise<PasskeyList> {
    return this.identity.passkeys.remove(caller, input);
  }

  /** Public: a ceremony for signing in with a passkey; counted per address. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.passkeySignInOptions)
  passkeySignInOptions(@RpcMeta() meta: RequestMeta): Promise<PasskeyCeremony> {
    return this.identity.passkeys.signInOptions(meta);
  }

  /** Public: the passkey's signature over the single-use challenge is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.passkeySignIn)
  passkeySignIn(@RpcPayload() input: PayloadOf<typeof IdentityRpc.passkeySignIn>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession> {
    return this.identity.passkeys.signInWithPasskey(input, meta);
  }

  /** Public: the password step's challenge is the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.twoStepPasskeyOptions)
  twoStepPasskeyOptions(@RpcPayload() input: PayloadOf<typeof IdentityRpc.twoStepPasskeyOptions>, @RpcMeta() meta: RequestMeta): Promise<PasskeyCeremony> {
    return this.identity.passkeys.secondStepOptions(input, meta);
  }

  /** Public: the password step's challenge and the passkey are the proof. */
  @PublicRpc()
  @RpcHandler(IdentityRpc.signInTwoStepPasskey)
  signInTwoStepPasskey(@RpcPayload() input: PayloadOf<typeof IdentityRpc.signInTwoStepPasskey>, @RpcMeta() meta: RequestMeta): Promise<IssuedSession> {
    return this.identity.passkeys.signInSecondStep(input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.confirmIdentityPasskeyOptions)
  confirmIdentityPasskeyOptions(@CurrentCaller() caller: Caller): Promise<PasskeyCeremony> {
    return this.identity.passkeys.confirmOptions(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.confirmIdentityPasskey)
  confirmIdentityPasskey(@RpcPayload() input: PayloadOf<typeof IdentityRpc.confirmIdentityPasskey>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<SessionView> {
    return this.identity.passkeys.confirm(caller, input, meta);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.changePassword)
  changePassword(@RpcPayload() input: PayloadOf<typeof IdentityRpc.changePassword>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<ChangePasswordReply> {
    return this.identity.passwords.change(caller, input, meta);
  }

  @Readers('owner')
  @RpcHandler(IdentityRpc.notificationPreferences)
  notificationPreferences(@CurrentCaller() caller: Caller): Promise<NotificationPreferencesView> {
    return this.identity.getNotificationPreferences(caller);
  }

  @Writers('owner')
  @RpcHandler(IdentityRpc.saveNotificationPreferences)
  saveNotificationPreferences(@RpcPayload() preferences: PayloadOf<typeof IdentityRpc.saveNotificationPreferences>, @CurrentCaller() caller: Caller): Promise<NotificationPreferencesView> {
    return this.identity.saveNotificationPreferences(caller, preferences);
  }

  @Readers('admin')
  @RpcHandler(IdentityRpc.adminOverview)
  adminOverview(@RpcPayload() { q }: PayloadOf<typeof IdentityRpc.adminOverview>, @CurrentCaller() caller: Caller): Promise<AdminOverview> {
    return this.identity.adminOverview(caller, q);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.findUserByEmail)
  findUser(@RpcPayload() { email }: PayloadOf<typeof IdentityRpc.findUserByEmail>): Promise<UserProfile> {
    return this.identity.findByEmail(email);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.setAdmin)
  setAdmin(@RpcPayload() { email, admin }: PayloadOf<typeof IdentityRpc.setAdmin>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.setAdmin(email, admin, caller);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.setTier)
  setTier(@RpcPayload() { email, tier }: PayloadOf<typeof IdentityRpc.setTier>, @CurrentCaller() caller: Caller): Promise<UserProfile> {
    return this.identity.setTier(email, tier, caller);
  }

  @OperatorOnly()
  @RpcHandler(IdentityRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.identity.rebuildProjections() };
  }
}
