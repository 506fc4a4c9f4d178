import {
  ADMIN_USERS_LIMIT, normaliseEmail, type AccountSessions, type AdminOverview, type NotificationPreferences, type NotificationPreferencesView, type RequestMeta, type SessionsEnded, type SessionView, type SubscriptionTier,
  type UpdateProfileRequest, type UserProfile,
} from '@lv/contracts';
import { accountOf, ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { rebuildProjections, type RebuildReport } from '@lv/platform/event-store';
import { AccountDeletion } from './account-deletion/account-deletion.js';
import { confirmIdentity } from './use-cases/confirm-identity.js';
import { EmailChange } from './use-cases/email-change.js';
import { EmailVerification } from './use-cases/email-verification.js';
import { IdentityCore, type IdentityServiceDeps } from './use-cases/identity-core.js';
import { sessionsView } from './use-cases/identity-rules.js';
import { Passkeys, relyingPartyOf } from './use-cases/passkeys.js';
import { PasswordRecovery } from './use-cases/password-recovery.js';
import { SignIn } from './use-cases/sign-in.js';
import { TwoStep } from './use-cases/two-step.js';
import { adminOverview, findNotificationPreferences, findProfileByEmail, findProfileById, userProfileProjection } from './users/user-profile.projection.js';

/**
 * Identity's use cases. Transport-free: the NATS controller and the tests call these directly. Signing
 * in, the address's verification and change, and passwords are use cases of their own (use-cases/);
 * the profile, settings, sessions and operator commands are here.
 */
export class IdentityService {
  private readonly core: IdentityCore;
  readonly auth: SignIn;
  readonly verification: EmailVerification;
  readonly emailChange: EmailChange;
  readonly passwords: PasswordRecovery;
  readonly twoStep: TwoStep;
  readonly passkeys: Passkeys;
  readonly accountDeletion: AccountDeletion;

  constructor(deps: IdentityServiceDeps) {
    this.core = new IdentityCore(deps);
    this.passwords = new PasswordRecovery(this.core);
    this.verification = new EmailVerification(this.core);
    this.emailChange = new EmailChange(this.core, this.passwords);
    this.twoStep = new TwoStep(this.core);
    this.accountDeletion = new AccountDeletion(this.core, deps.accountDeletion);
    this.auth = new SignIn(this.core, this.verification, this.passwords, this.twoStep);
    this.passkeys = new Passkeys(this.core, this.twoStep, this.auth, relyingPartyOf(deps.publicUrl));
  }

  private get em() {
    return this.core.em;
  }

  getProfile(userId: string): Promise<UserProfile> {
    return this.core.getProfile(userId);
  }

  async updateProfile(caller: Caller, patch: UpdateProfileRequest): Promise<UserProfile> {
    await this.core.execute(ownerOf(caller).userId, { type: 'UpdateProfile', userId: ownerOf(caller).userId, fullName: patch.full_name, avatarUrl: patch.avatar_url }, { actor: { kind: 'user', id: ownerOf(caller).userId } });
    return this.getProfile(ownerOf(caller).userId);
  }

  /** Sudo mode: the password again renews this session's proof (see confirmIdentity). */
  confirmIdentity(caller: Caller, input: { currentPassword: string }, meta: RequestMeta): Promise<SessionView> {
    return confirmIdentity(this.core, caller, input, meta);
  }

  // The signed-in browsers of /settings.

  async listSessions(caller: Caller): Promise<AccountSessions> {
    const owner = ownerOf(caller);
    return sessionsView(await this.core.sessions.live(this.em, owner.userId), owner.sessionId);
  }

  /** Signs one of the caller's sessions out (another account's or an ended one is NOT_FOUND alike). */
  async endSession(caller: Caller, sessionId: string): Promise<SessionsEnded> {
    const owner = ownerOf(caller);
    if (!(await this.core.sessions.revokeOwn(this.em, owner.userId, sessionId, 'signed out from settings'))) throw new DomainError('NOT_FOUND', 'No such session.');
    await this.core.deps.revokedSessions.revoke(sessionId);
    return { sessionsEnded: 1 };
  }

  /** "Sign out everywhere else": every session of the account but the caller's. */
  async endOtherSessions(caller: Caller): Promise<SessionsEnded> {
    const owner = ownerOf(caller);
    const ended = await this.core.sessions.revokeAllBut(this.em, owner.userId, owner.sessionId, 'signed out everywhere else');
    await this.core.revokeAll(ended);
    return { sessionsEnded: ended.length };
  }

  getNotificationPreferences(caller: Caller): Promise<NotificationPreferencesView> {
    return findNotificationPreferences(this.em, ownerOf(caller).userId);
  }

  /**
   * Where an owner's access-request e-mails go (notifications asks before each): his address and name
   * while his "Email Notifications" and "Access Requests" switches are both on (the default), no address
   * while either is off or when there is no such account.
   */
  async accessRequestMailTo(userId: string): Promise<{ email: string | null; full_name: string | null }> {
    const em = this.em;
    const profile = await findProfileById(em, userId);
    if (!profile) return { email: null, full_name: null };
    const preferences = await findNotificationPreferences(em, userId);
    return { email: preferences.emailNotifications && preferences.accessRequests ? profile.email : null, full_name: profile.full_name?.trim() || null };
  }

  /** Where an owner's e-mails about his own safety go (a trustee's report): his address and name, whatever his switches. */
  async ownerMailTo(userId: string): Promise<{ email: string | null; full_name: string | null }> {
    const profile = await findProfileById(this.em, userId);
    return { email: profile?.email ?? null, full_name: profile?.full_name?.trim() || null };
  }

  async saveNotificationPreferences(caller: Caller, preferences: NotificationPreferences): Promise<NotificationPreferencesView> {
    const { userId } = ownerOf(caller);
    await this.core.execute(userId, { type: 'SetNotificationPreferences', userId, preferences }, { actor: { kind: 'user', id: userId } });
    return findNotificationPreferences(this.em, userId);
  }

  /** The admin dashboard. The token's admin claim let the call in; identity's own record must agree (a revoked admin's token lives on for minutes). */
  async adminOverview(caller: Caller, search: string | undefined): Promise<AdminOverview> {
    const profile = await findProfileById(this.em, ownerOf(caller).userId);
    if (!profile?.ai_admin) throw new DomainError('FORBIDDEN');
    return adminOverview(this.em, search?.trim() || undefined, ADMIN_USERS_LIMIT);
  }

  // Operator commands (ops CLI). They act through the same decider and events as everything else.

  async findByEmail(email: string): Promise<UserProfile> {
    const profile = await findProfileByEmail(this.em, normaliseEmail(email));
    if (!profile) throw new DomainError('NOT_FOUND', `No user with email ${normaliseEmail(email)}`);
    return profile;
  }

  async setAdmin(email: string, admin: boolean, operator: Caller): Promise<UserProfile> {
    const { id } = await this.findByEmail(email);
    await this.core.execute(id, { type: 'SetAdmin', userId: id, admin }, { actor: { kind: 'operator', id: accountOf(operator).userId } });
    return this.getProfile(id);
  }

  async setTier(email: string, tier: SubscriptionTier, operator: Caller): Promise<UserProfile> {
    const { id } = await this.findByEmail(email);
    await this.core.execute(id, { type: 'ChangeSubscriptionTier', userId: id, tier }, { actor: { kind: 'operator', id: accountOf(operator).userId } });
    return this.getProfile(id);
  }

  /**
   * The tier billing's event leaves the owner on (activated, renewed, cancelled, ended), applied as
   * identity's own SubscriptionTierChanged. Precedence: the latest change wins, whether billing's or an
   * operator's `user:tier`; an operator's tier therefore lasts until the owner's next billing event.
   * The decider records nothing when the tier is already that one, so a redelivery changes nothing.
   * An owner identity does not know (an account erased since) is skipped, not retried for ever.
   */
  async applyBillingTier(userId: string, tier: SubscriptionTier, billingEventId: string): Promise<'changed' | 'unchanged' | 'unknown-user'> {
    try {
      const { events } = await this.core.execute(userId, { type: 'ChangeSubscriptionTier', userId, tier }, { actor: { kind: 'system', id: 'billing' }, causationId: billingEventId });
      return events.length ? 'changed' : 'unchanged';
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return 'unknown-user';
      throw error;
    }
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.core.deps.orm.em, this.core.store, [userProfileProjection]);
  }
}
