import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { accountEmailSealContext, normaliseEmail, SettingsMessages, validateCredentials, type AccountEmailJob, type Credentials, type IssuedSession, type RequestMeta, type SessionView, type UserProfile } from '@lv/contracts';
import type { AccessTokenSigner, RevokedSessions } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { EventStore, handleCommand, type CommandOptions, type EventMetadata } from '@lv/platform/event-store';
import { sealForJob } from '@lv/platform/queues';
import type { Logger } from '@lv/platform/logging';
import type { AccountDeletionDeps } from '../account-deletion/account-deletion.js';
import { CredentialsRepository } from '../credentials/credentials.repository.js';
import { PasswordHasher } from '../credentials/password-hasher.js';
import type { SignInLimiter } from '../credentials/sign-in-limiter.js';
import { SessionStore, type SessionRow } from '../sessions/session-store.js';
import { userActivityStreamId, userDecider, userStreamId, type UserCommand, type UserEvent } from '../users/user.decider.js';
import { findProfileById, userProfileProjection } from '../users/user-profile.projection.js';
import { identityPublishPolicy } from '../users/publish-policy.js';

export interface IdentityServiceDeps {
  orm: MikroORM;
  signer: AccessTokenSigner;
  revokedSessions: RevokedSessions;
  limiter: SignInLimiter;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** See CONCURRENT_REFRESH_GRACE_MS. */
  refreshReuseGraceMs?: number;
  /** Hands an account e-mail (reset link, password changed) to notifications' queue. */
  sendAccountEmail: (job: AccountEmailJob) => Promise<unknown>;
  /** Seals reset links inside their e-mail jobs (only notifications opens them). */
  keyMailSecret: string;
  passwordResetTtlSeconds: number;
  /** How long an e-mail change's confirm link (new address) and undo link (old address) work. */
  emailChangeTtlSeconds: number;
  emailChangeUndoTtlSeconds: number;
  /** How long an address's verification link works. */
  emailVerifyTtlSeconds: number;
  /** Deleting the account: its grace period and its timer's queue. */
  accountDeletion: AccountDeletionDeps;
  logger: Pick<Logger, 'error'>;
  /** The site's public address (PUBLIC_URL): passkeys are bound to its host and origin. */
  publicUrl: string;
}

/**
 * How often a signed-in user's activity is published at most. An owner who keeps using the app (his
 * session refreshed every quarter hour) is as present as one who signs in; an hour is far finer than
 * any inactivity period (30 days at least) and keeps the stream to 24 events a day at the very most.
 */
const ACTIVITY_MARK_INTERVAL_SECONDS = 3600;

/** What identity's use cases share: the store, the credentials and sessions, and the steps several of them take. */
export class IdentityCore {
  readonly store = new EventStore({ publish: identityPublishPolicy, inlineProjections: [userProfileProjection] });
  readonly hasher = new PasswordHasher();
  readonly sessions: SessionStore;
  readonly credentials = new CredentialsRepository();

  constructor(readonly deps: IdentityServiceDeps) {
    this.sessions = new SessionStore(deps.refreshTokenTtlSeconds, deps.refreshReuseGraceMs);
  }

  get em(): EntityManager {
    return this.deps.orm.em.fork();
  }

  /** Runs a command on the user's stream; `alsoInTransaction` commits with its events. */
  execute(userId: string, command: UserCommand, metadata: EventMetadata, alsoInTransaction?: CommandOptions<UserEvent>['alsoInTransaction']) {
    return handleCommand(this.deps.orm.em, this.store, userDecider, command, { streamId: userStreamId(userId), streamType: 'user', metadata, alsoInTransaction });
  }

  async getProfile(userId: string): Promise<UserProfile> {
    const profile = await findProfileById(this.em, userId);
    if (!profile) throw new DomainError('NOT_FOUND', 'User not found');
    return profile;
  }

  /** A one-time link's path sealed inside its e-mail job (only notifications opens it). */
  sealedLink(emailId: string, path: string) {
    return sealForJob(this.deps.keyMailSecret, accountEmailSealContext(emailId), path);
  }

  /** Sessions ended in the database: no access token of theirs is accepted any more either. */
  async revokeAll(sessionIds: readonly string[]): Promise<void> {
    for (const sessionId of sessionIds) await this.deps.revokedSessions.revoke(sessionId);
  }

  checkCredentials(input: Credentials): Credentials {
    const problems = validateCredentials(input);
    if (problems) throw validationError(problems, problems.email ?? problems.password);
    return { email: normaliseEmail(input.email), password: input.password };
  }

  /** The current password of a signed-in account, checked and counted like a sign-in: a wrong one is a field error, not a sign-out. */
  async checkCurrentPassword(userId: string, password: string, meta: RequestMeta): Promise<void> {
    if (!password) throw validationError({ currentPassword: SettingsMessages.currentPasswordRequired }, SettingsMessages.currentPasswordRequired);
    const row = await this.credentials.byUser(this.em, userId);
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

  /** "Your password was changed": after the change committed; a failure to queue it is logged, never undoes the change. */
  async tellPasswordChanged(userId: string): Promise<void> {
    try {
      const profile = await this.getProfile(userId);
      const at = new Date().toISOString();
      await this.deps.sendAccountEmail({ emailId: randomUUID(), userId, kind: 'password-changed', to: profile.email, at });
    } catch (err) {
      this.deps.logger.error({ err, userId }, 'could not queue the password-changed notice');
    }
  }

  async openSession(userId: string, meta: RequestMeta): Promise<IssuedSession> {
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
  async markActivity(em: EntityManager, session: Pick<SessionRow, 'id' | 'user_id'>): Promise<void> {
    const recordedAt = await this.credentials.claimActivityMark(em, session.user_id, ACTIVITY_MARK_INTERVAL_SECONDS);
    if (!recordedAt) return;
    await this.store.appendToStream(em, userActivityStreamId(session.user_id), 'user-activity', 'any', [
      { type: 'UserSignedIn', data: { userId: session.user_id, sessionId: session.id, signedInAt: recordedAt.toISOString() } },
    ], { actor: { kind: 'user', id: session.user_id } });
  }

  async issue(session: SessionRow, refreshToken: string): Promise<IssuedSession> {
    return { ...(await this.issueAccessToken(session)), refreshToken, refreshTokenExpiresAt: new Date(session.expires_at).getTime(), sessionId: session.id };
  }

  /** A new access token for a live session (sign-in, refresh, the password again), carrying its last proof (`authAt`, sudo mode). */
  async issueAccessToken(session: SessionRow): Promise<SessionView> {
    const profile = await this.getProfile(session.user_id);
    const { token, expiresAt } = this.deps.signer.sign(
      // The other services read whether the address is verified from here, as they read the tier: a
      // claim re-read from the profile at every sign-in and refresh (so a verification shows within one
      // token's life) costs no call to identity on their paths that e-mail for the owner.
      {
        sub: profile.id, sid: session.id, email: profile.email, tier: profile.subscription_tier, admin: profile.ai_admin, emailVerified: profile.emailVerified, kind: 'user',
        authAt: Math.floor(new Date(session.proved_at).getTime() / 1000),
      },
      this.deps.accessTokenTtlSeconds,
    );
    return { accessToken: token, accessTokenExpiresAt: expiresAt, profile };
  }
}
