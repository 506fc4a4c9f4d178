import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  ADMIN_USERS_LIMIT, AuthMessages, normaliseEmail, SettingsMessages, validateCredentials, type AdminOverview, type ChangePasswordReply, type Credentials, type IssuedSession,
  type NotificationPreferences, type NotificationPreferencesView, type RequestMeta, type SubscriptionTier, type UpdateProfileRequest, type UserProfile,
} from '@lv/contracts';
import { accountOf, ownerOf, type AccessTokenSigner, type AccountCaller, type Caller, type RevokedSessions } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { EventStore, handleCommand, rebuildProjections, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { PasswordHasher } from './credentials/password-hasher.js';
import { SignInLimiter } from './credentials/sign-in-limiter.js';
import { SessionStore, type SessionRow } from './sessions/session-store.js';
import { userActivityStreamId, userDecider, userStreamId, type UserCommand } from './users/user.decider.js';
import { adminOverview, findNotificationPreferences, findProfileByEmail, findProfileById, userProfileProjection } from './users/user-profile.projection.js';
import { identityPublishPolicy } from './users/publish-policy.js';

/** Shown under the password field when a new password is nothing but spaces (tabs, line breaks...). */
export const PASSWORD_ONLY_SPACES = AuthMessages.passwordOnlySpaces;

export interface IdentityServiceDeps {
  orm: MikroORM;
  signer: AccessTokenSigner;
  revokedSessions: RevokedSessions;
  limiter: SignInLimiter;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** See CONCURRENT_REFRESH_GRACE_MS. */
  refreshReuseGraceMs?: number;
}

/**
 * How often a signed-in user's activity is published at most. An owner who keeps using the app (his
 * session refreshed every quarter hour) is as present as one who signs in; an hour is far finer than
 * any inactivity period (30 days at least) and keeps the stream to 24 events a day at the very most.
 */
export const ACTIVITY_MARK_INTERVAL_SECONDS = 3600;

/** Identity's use cases. Transport-free: the NATS controller and the tests call these directly. */
export class IdentityService {
  readonly store = new EventStore({ publish: identityPublishPolicy, inlineProjections: [userProfileProjection] });
  private readonly hasher = new PasswordHasher();
  private readonly sessions: SessionStore;

  constructor(private readonly deps: IdentityServiceDeps) {
    this.sessions = new SessionStore(deps.refreshTokenTtlSeconds, deps.refreshReuseGraceMs);
  }

  get orm(): MikroORM {
    return this.deps.orm;
  }

  private get em() {
    return this.deps.orm.em.fork();
  }

  async signUp(input: Credentials, meta: RequestMeta): Promise<IssuedSession> {
    const { email, password } = this.checkCredentials(input);
    if (password.trim() === '') throw validationError({ password: PASSWORD_ONLY_SPACES }, PASSWORD_ONLY_SPACES);
    // Counted before the costly hash: one address cannot mass-create accounts (or probe emails).
    await this.deps.limiter.beginSignUp(meta.ip);
    const passwordHash = await this.hasher.hash(password);
    const userId = randomUUID();
    try {
      await this.execute(userId, { type: 'RegisterUser', userId, email, now: new Date().toISOString() }, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId }, async (em) => {
        await em.execute('insert into credentials (user_id, email, password_hash) values (?, ?, ?)', [userId, email, passwordHash]);
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('EMAIL_TAKEN');
      throw error;
    }
    return this.openSession(userId, meta);
  }

  async signIn(input: Credentials, meta: RequestMeta): Promise<IssuedSession> {
    const { email, password } = this.checkCredentials(input);
    // Counted before the password is checked, atomically, so parallel guesses cannot overrun the limit.
    const attempt = await this.deps.limiter.beginSignIn(email, meta.ip, meta.device);
    let row: { user_id: string; password_hash: string } | undefined;
    let verified: boolean;
    try {
      [row] = await this.em.execute<{ user_id: string; password_hash: string }[]>('select user_id, password_hash from credentials where email = ?', [email]);
      verified = await this.hasher.verify(row?.password_hash ?? null, password);
    } catch (error) {
      await this.deps.limiter.signInUndecided(attempt).catch(() => undefined);
      throw error;
    }
    // A wrong password stays counted.
    if (!verified || !row) throw new DomainError('INVALID_CREDENTIALS');
    await this.deps.limiter.signInSucceeded(attempt);
    return this.openSession(row.user_id, meta);
  }

  async refresh(refreshToken: string): Promise<IssuedSession> {
    const outcome = await this.em.transactional(async (em) => {
      const rotated = await this.sessions.rotate(em, refreshToken);
      if (rotated.kind === 'rotated') await this.markActivity(em, rotated.session);
      return rotated;
    });
    if (outcome.kind === 'reused') {
      await this.deps.revokedSessions.revoke(outcome.sessionId);
      throw new DomainError('SESSION_EXPIRED');
    }
    return this.issue(outcome.session, outcome.refreshToken);
  }

  /** Revokes the session named by the refresh token, or by the caller's access token. */
  async signOut(refreshToken: string | undefined, caller: AccountCaller | null): Promise<boolean> {
    const em = this.em;
    const session = refreshToken ? await this.sessions.sessionOf(em, refreshToken) : null;
    // Only a person's token names a session; an operator's 'operator' session id is no session at all.
    const sessionId = session?.id ?? (caller?.kind === 'user' ? caller.sessionId : undefined);
    if (!sessionId) return false;
    const revoked = await this.sessions.revoke(em, sessionId, 'signed out');
    await this.deps.revokedSessions.revoke(sessionId);
    return revoked;
  }

  async getProfile(userId: string): Promise<UserProfile> {
    const profile = await findProfileById(this.em, userId);
    if (!profile) throw new DomainError('NOT_FOUND', 'User not found');
    return profile;
  }

  async updateProfile(caller: Caller, patch: UpdateProfileRequest): Promise<UserProfile> {
    await this.execute(ownerOf(caller).userId, { type: 'UpdateProfile', userId: ownerOf(caller).userId, fullName: patch.full_name, avatarUrl: patch.avatar_url }, { actor: { kind: 'user', id: ownerOf(caller).userId } });
    return this.getProfile(ownerOf(caller).userId);
  }

  // Account settings (/settings).

  /**
   * A new e-mail for signing in. Needs the current password (checked and counted like a sign-in, so a
   * stolen access token cannot guess it freely); the address stays unique through credentials' index.
   */
  async changeEmail(caller: Caller, input: { email: string; currentPassword: string }, meta: RequestMeta): Promise<UserProfile> {
    const owner = ownerOf(caller);
    await this.checkCurrentPassword(owner.userId, input.currentPassword, meta);
    const email = normaliseEmail(input.email);
    try {
      await this.execute(owner.userId, { type: 'ChangeEmail', userId: owner.userId, email }, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId }, async (em, events) => {
        if (events.length) await em.execute('update credentials set email = ?, updated_at = now() where user_id = ?', [email, owner.userId]);
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('EMAIL_TAKEN', 'An account with this email already exists.');
      throw error;
    }
    return this.getProfile(owner.userId);
  }

  /**
   * A new password (argon2id, as at sign-up). Every other session of the account ends at once (in the
   * database, so none refreshes, and in Redis, so no access token of theirs is accepted any more); the
   * session that changed it stays signed in.
   */
  async changePassword(caller: Caller, input: { currentPassword: string; newPassword: string }, meta: RequestMeta): Promise<ChangePasswordReply> {
    const owner = ownerOf(caller);
    const problem = validateCredentials({ email: 'x@example.com', password: input.newPassword })?.password
      ?? (input.newPassword.trim() === '' ? PASSWORD_ONLY_SPACES : undefined);
    if (problem) throw validationError({ newPassword: problem }, problem);
    await this.checkCurrentPassword(owner.userId, input.currentPassword, meta);
    if (input.newPassword === input.currentPassword) throw validationError({ newPassword: SettingsMessages.samePassword }, SettingsMessages.samePassword);
    const passwordHash = await this.hasher.hash(input.newPassword);
    let ended: string[] = [];
    await this.execute(owner.userId, { type: 'RecordPasswordChange', userId: owner.userId, now: new Date().toISOString() }, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId }, async (em) => {
      await em.execute('update credentials set password_hash = ?, updated_at = now() where user_id = ?', [passwordHash, owner.userId]);
      ended = await this.sessions.revokeAllBut(em, owner.userId, owner.sessionId, 'password changed');
    });
    // After the commit: a failure here leaves the sessions revoked in the database (no refresh works),
    // and the caller sees the error; their access tokens would then lapse within their lifetime.
    for (const sessionId of ended) await this.deps.revokedSessions.revoke(sessionId);
    return { otherSessionsEnded: ended.length };
  }

  getNotificationPreferences(caller: Caller): Promise<NotificationPreferencesView> {
    return findNotificationPreferences(this.em, ownerOf(caller).userId);
  }

  /**
   * Where an owner's access-request e-mails go (notifications asks before each): his address and name
   * while his "Access Requests" switch is on (the default), no address while it is off or when there
   * is no such account.
   */
  async accessRequestMailTo(userId: string): Promise<{ email: string | null; full_name: string | null }> {
    const em = this.em;
    const profile = await findProfileById(em, userId);
    if (!profile) return { email: null, full_name: null };
    const preferences = await findNotificationPreferences(em, userId);
    return { email: preferences.accessRequests ? profile.email : null, full_name: profile.full_name?.trim() || null };
  }

  async saveNotificationPreferences(caller: Caller, preferences: NotificationPreferences): Promise<NotificationPreferencesView> {
    const { userId } = ownerOf(caller);
    await this.execute(userId, { type: 'SetNotificationPreferences', userId, preferences }, { actor: { kind: 'user', id: userId } });
    return findNotificationPreferences(this.em, userId);
  }

  /** The admin dashboard. The token's admin claim let the call in; identity's own record must agree (a revoked admin's token lives on for minutes). */
  async adminOverview(caller: Caller, search: string | undefined): Promise<AdminOverview> {
    const profile = await findProfileById(this.em, ownerOf(caller).userId);
    if (!profile?.ai_admin) throw new DomainError('FORBIDDEN');
    return adminOverview(this.em, search?.trim() || undefined, ADMIN_USERS_LIMIT);
  }

  /** The current password of a signed-in account, checked and counted like a sign-in: a wrong one is a field error, not a sign-out. */
  private async checkCurrentPassword(userId: string, password: string, meta: RequestMeta): Promise<void> {
    if (!password) throw validationError({ currentPassword: SettingsMessages.currentPasswordRequired }, SettingsMessages.currentPasswordRequired);
    const [row] = await this.em.execute<{ email: string; password_hash: string }[]>('select email, password_hash from credentials where user_id = ?', [userId]);
    if (!row) throw new DomainError('NOT_FOUND', 'User not found');
    const attempt = await this.deps.limiter.beginSignIn(row.email, meta.ip, meta.device);
    let verified: boolean;
    try {
      verified = await this.hasher.verify(row.password_hash, password);
    } catch (error) {
      await this.deps.limiter.signInUndecided(attempt).catch(() => undefined);
      throw error;
    }
    if (!verified) throw validationError({ currentPassword: SettingsMessages.currentPasswordWrong }, SettingsMessages.currentPasswordWrong);
    await this.deps.limiter.signInSucceeded(attempt);
  }

  // Operator commands (ops CLI). They act through the same decider and events as everything else.

  async findByEmail(email: string): Promise<UserProfile> {
    const profile = await findProfileByEmail(this.em, normaliseEmail(email));
    if (!profile) throw new DomainError('NOT_FOUND', `No user with email ${normaliseEmail(email)}`);
    return profile;
  }

  async setAdmin(email: string, admin: boolean, operator: Caller): Promise<UserProfile> {
    const { id } = await this.findByEmail(email);
    await this.execute(id, { type: 'SetAdmin', userId: id, admin }, { actor: { kind: 'operator', id: accountOf(operator).userId } });
    return this.getProfile(id);
  }

  async setTier(email: string, tier: SubscriptionTier, operator: Caller): Promise<UserProfile> {
    const { id } = await this.findByEmail(email);
    await this.execute(id, { type: 'ChangeSubscriptionTier', userId: id, tier }, { actor: { kind: 'operator', id: accountOf(operator).userId } });
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
      const { events } = await this.execute(userId, { type: 'ChangeSubscriptionTier', userId, tier }, { actor: { kind: 'system', id: 'billing' }, causationId: billingEventId });
      return events.length ? 'changed' : 'unchanged';
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return 'unknown-user';
      throw error;
    }
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, [userProfileProjection]);
  }

  private checkCredentials(input: Credentials): Credentials {
    const problems = validateCredentials(input);
    if (problems) throw validationError(problems, problems.email ?? problems.password);
    return { email: normaliseEmail(input.email), password: input.password };
  }

  private execute(userId: string, command: UserCommand, metadata: EventMetadata, alsoInTransaction?: Parameters<typeof handleCommand>[4]['alsoInTransaction']) {
    return handleCommand(this.deps.orm.em, this.store, userDecider, command, { streamId: userStreamId(userId), streamType: 'user', metadata, alsoInTransaction });
  }

  private async openSession(userId: string, meta: RequestMeta): Promise<IssuedSession> {
    const { session, refreshToken } = await this.em.transactional(async (em) => {
      const opened = await this.sessions.open(em, userId, meta);
      await this.markActivity(em, opened.session);
      return opened;
    });
    return this.issue(session, refreshToken);
  }

  /**
   * A sign-in or refresh succeeded: `UserSignedIn` (ids and time only) joins the session's transaction,
   * once an hour per user at most. The conditional upsert claims the hour, so racing refreshes record one.
   */
  private async markActivity(em: EntityManager, session: Pick<SessionRow, 'id' | 'user_id'>): Promise<void> {
    const claimed = await em.execute<{ recorded_at: Date }[]>(
      `insert into activity_marks (user_id, recorded_at) values (?, now()) on conflict (user_id) do update set recorded_at = excluded.recorded_at
        where activity_marks.recorded_at <= now() - make_interval(secs => ?) returning recorded_at`,
      [session.user_id, ACTIVITY_MARK_INTERVAL_SECONDS],
    );
    if (!claimed.length) return;
    await this.store.appendToStream(em, userActivityStreamId(session.user_id), 'user-activity', 'any', [
      { type: 'UserSignedIn', data: { userId: session.user_id, sessionId: session.id, signedInAt: new Date(claimed[0]!.recorded_at).toISOString() } },
    ], { actor: { kind: 'user', id: session.user_id } });
  }

  private async issue(session: SessionRow, refreshToken: string): Promise<IssuedSession> {
    const profile = await this.getProfile(session.user_id);
    const { token, expiresAt } = this.deps.signer.sign(
      { sub: profile.id, sid: session.id, email: profile.email, tier: profile.subscription_tier, admin: profile.ai_admin, kind: 'user' },
      this.deps.accessTokenTtlSeconds,
    );
    return { accessToken: token, accessTokenExpiresAt: expiresAt, refreshToken, refreshTokenExpiresAt: new Date(session.expires_at).getTime(), sessionId: session.id, profile };
  }
}
