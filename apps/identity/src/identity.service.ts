import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  accountEmailSealContext, ADMIN_USERS_LIMIT, EmailChangeMessages, EmailVerifyMessages, type VerifyEmailReply, NewSignInMessages, type EmailChangeLinkReply, normaliseEmail, ResetMessages, SettingsMessages, validateCredentials, type AccountEmailJob, type AccountSessions, type AdminOverview,
  type ChangePasswordReply, type Credentials, type ForgotPasswordReply, type IssuedSession, type ResetPasswordReply, type SessionsEnded,
  type NotificationPreferences, type NotificationPreferencesView, type RequestMeta, type SubscriptionTier, type UpdateProfileRequest, type UserProfile,
} from '@lv/contracts';
import { accountOf, ownerOf, type AccessTokenSigner, type AccountCaller, type Caller, type RevokedSessions } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { EventStore, handleCommand, rebuildProjections, type CommandOptions, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { sealForJob } from '@lv/platform/queues';
import type { Logger } from '@lv/platform/logging';
import { newPasswordRefusal } from './credentials/new-password.js';
import { PasswordHasher } from './credentials/password-hasher.js';
import { confirmEmailLinkPath, newResetToken, notMeLinkPath, resetIdOf, resetLinkPath, tokenMatches, undoEmailChangeLinkPath, verifyEmailLinkPath } from './credentials/reset-tokens.js';
import { describeUserAgent } from './sessions/user-agent.js';
import { SignInLimiter } from './credentials/sign-in-limiter.js';
import { SessionStore, type SessionRow } from './sessions/session-store.js';
import { userActivityStreamId, userDecider, userStreamId, type UserCommand, type UserEvent } from './users/user.decider.js';
import { adminOverview, findNotificationPreferences, findProfileByEmail, findProfileById, userProfileProjection } from './users/user-profile.projection.js';
import { identityPublishPolicy } from './users/publish-policy.js';

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
  logger: Pick<Logger, 'error'>;
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
  /** Reset requests still being worked on after their answer went (see forgotPassword). */
  private readonly resetsInFlight = new Set<Promise<void>>();

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
    // A new password follows the new-password rules (8 characters, not a common one), not sign-in's.
    const problems = { ...validateCredentials(input) };
    const refusal = typeof input.password === 'string' ? newPasswordRefusal(input.password) : undefined;
    if (refusal) problems.password = refusal;
    if (problems.email || problems.password) throw validationError(problems, problems.email ?? problems.password);
    const { email, password } = this.checkCredentials(input);
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
    // The account exists either way: a link that could not be queued is asked for again from the banner.
    await this.sendVerificationLink(userId, meta).catch((err: unknown) => this.deps.logger.error({ err, requestId: meta.requestId }, 'the verification e-mail of a new account could not be queued'));
    return this.openSession(userId, meta);
  }

  // Verifying the account's address (/verify-email, the banner's "Resend verification e-mail").

  /**
   * A new verification link to the account's address (sign-up, or the owner's resend): valid
   * EMAIL_VERIFY_TTL_SECONDS, only its hash stored, and the only one that works (a newer one replaces
   * it). False when the address is verified already: nothing is sent.
   */
  private async sendVerificationLink(userId: string, meta: RequestMeta): Promise<boolean> {
    const { resetId: verificationId, token, tokenHash } = newResetToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.deps.emailVerifyTtlSeconds * 1000).toISOString();
    let sentTo: string | null = null;
    await this.execute(userId, { type: 'RequestEmailVerification', userId, verificationId, now: now.toISOString(), expiresAt }, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId }, async (em, events) => {
      const requested = events.find((event) => event.type === 'EmailVerificationRequested');
      if (!requested) return;
      sentTo = requested.data.email;
      await em.execute('insert into email_verifications (id, user_id, token_hash, expires_at) values (?, ?, ?, ?)', [verificationId, userId, tokenHash, expiresAt]);
    });
    if (!sentTo) return false;
    await this.deps.sendAccountEmail({
      emailId: verificationId, userId, kind: 'verify-email', to: sentTo, at: now.toISOString(), expiresAt,
      sealedLink: sealForJob(this.deps.keyMailSecret, accountEmailSealContext(verificationId), verifyEmailLinkPath(token)),
    });
    return true;
  }

  /** "Resend verification e-mail": a new link (the old one stops working), VERIFICATION_RESENDS_PER_HOUR an hour per account. */
  async resendVerification(caller: Caller, meta: RequestMeta): Promise<VerifyEmailReply> {
    const owner = ownerOf(caller);
    const profile = await this.getProfile(owner.userId);
    if (profile.emailVerified) return { message: EmailVerifyMessages.alreadyVerified };
    await this.deps.limiter.beginVerificationResend(owner.userId);
    return { message: (await this.sendVerificationLink(owner.userId, meta)) ? EmailVerifyMessages.sent(profile.email) : EmailVerifyMessages.alreadyVerified };
  }

  /**
   * The verification link: the address is verified; the next access token (refresh, sign-in) carries
   * it. Used, lapsed, replaced, sent to an address the account no longer has, altered or another
   * account's: the same EMAIL_VERIFY_LINK_INVALID.
   */
  async verifyEmail(input: { token: string }, meta: RequestMeta): Promise<VerifyEmailReply> {
    const id = resetIdOf(input.token);
    const [link] = id ? await this.em.execute<{ user_id: string; token_hash: string }[]>('select user_id, token_hash from email_verifications where id = ?', [id]) : [];
    if (!id || !link || !tokenMatches(input.token, link.token_hash)) throw new DomainError('EMAIL_VERIFY_LINK_INVALID');
    await this.execute(link.user_id, { type: 'VerifyEmail', userId: link.user_id, verificationId: id, now: new Date().toISOString() }, { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId });
    return { message: EmailVerifyMessages.verified };
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
    const session = await this.openSession(row.user_id, meta);
    // A browser without the gateway's proof of an earlier sign-in to this address: the owner hears of it.
    if (!meta.device) await this.alertNewSignIn(session, meta);
    // Accounts older than the password rules are asked for a new password at each sign-in until they change it.
    return newPasswordRefusal(password) ? { ...session, passwordChangeRequired: true } : session;
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
   * A new e-mail for signing in, asked for with the current password (checked and counted like a
   * sign-in, so a stolen access token cannot guess it freely). Nothing changes yet: the new address gets
   * a confirm link (EMAIL_CHANGE_TTL_SECONDS), the old one is told at once with an undo link
   * (EMAIL_CHANGE_UNDO_TTL_SECONDS); a newer request replaces the pending one. The reply is the profile,
   * still on the old address.
   */
  async changeEmail(caller: Caller, input: { email: string; currentPassword: string }, meta: RequestMeta): Promise<UserProfile> {
    const owner = ownerOf(caller);
    await this.checkCurrentPassword(owner.userId, input.currentPassword, meta);
    const email = normaliseEmail(input.email);
    const [taken] = await this.em.execute<{ user_id: string }[]>('select user_id from credentials where email = ? and user_id <> ?', [email, owner.userId]);
    if (taken) throw new DomainError('EMAIL_TAKEN', 'An account with this email already exists.');
    const confirm = newResetToken();
    const undo = newResetToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.deps.emailChangeTtlSeconds * 1000).toISOString();
    const undoExpiresAt = new Date(now.getTime() + this.deps.emailChangeUndoTtlSeconds * 1000).toISOString();
    const command: UserCommand = { type: 'RequestEmailChange', userId: owner.userId, email, changeId: confirm.resetId, undoId: undo.resetId, now: now.toISOString(), expiresAt, undoExpiresAt };
    let previousEmail: string | null = null;
    await this.execute(owner.userId, command, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId }, async (em, events) => {
      const requested = events.find((event) => event.type === 'EmailChangeRequested');
      if (!requested) return;
      previousEmail = requested.data.previousEmail;
      await em.execute('insert into email_change_links (id, user_id, purpose, session_id, token_hash, expires_at) values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)', [
        confirm.resetId, owner.userId, 'confirm', owner.sessionId ?? null, confirm.tokenHash, expiresAt,
        undo.resetId, owner.userId, 'undo', null, undo.tokenHash, undoExpiresAt,
      ]);
    });
    if (previousEmail) {
      const at = now.toISOString();
      await this.deps.sendAccountEmail({
        emailId: confirm.resetId, userId: owner.userId, kind: 'email-change-confirm', to: email, at, expiresAt,
        sealedLink: sealForJob(this.deps.keyMailSecret, accountEmailSealContext(confirm.resetId), confirmEmailLinkPath(confirm.token)),
      });
      await this.deps.sendAccountEmail({
        emailId: undo.resetId, userId: owner.userId, kind: 'email-change-notice', to: previousEmail, at, expiresAt: undoExpiresAt,
        sealedLink: sealForJob(this.deps.keyMailSecret, accountEmailSealContext(undo.resetId), undoEmailChangeLinkPath(undo.token)),
      });
    }
    return this.getProfile(owner.userId);
  }

  /**
   * The new address's confirm link: the address changes, and every session ends but the one that asked.
   * Used, lapsed, replaced, undone, altered or another account's: the same EMAIL_CHANGE_LINK_INVALID.
   */
  async confirmEmailChange(input: { token: string }, meta: RequestMeta): Promise<EmailChangeLinkReply> {
    const link = await this.emailChangeLink(input.token, 'confirm');
    let ended: string[] = [];
    try {
      await this.execute(link.user_id, { type: 'ConfirmEmailChange', userId: link.user_id, changeId: link.id, now: new Date().toISOString() }, { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId }, async (em, events) => {
        const changed = events.find((event) => event.type === 'EmailChanged');
        await em.execute('update credentials set email = ?, updated_at = now() where user_id = ?', [changed!.data.email, link.user_id]);
        ended = await this.sessions.revokeAllBut(em, link.user_id, link.session_id, 'e-mail address changed');
      });
    } catch (error) {
      // Another account took the address since the request.
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('EMAIL_TAKEN', 'An account with this email already exists.');
      throw error;
    }
    for (const sessionId of ended) await this.deps.revokedSessions.revoke(sessionId);
    return { message: EmailChangeMessages.confirmed, sessionsEnded: ended.length };
  }

  /**
   * The old address's "this wasn't me" link: the old address comes back (if the change was confirmed),
   * every session ends, and a reset link goes to that address, since whoever asked knew the password.
   */
  async undoEmailChange(input: { token: string }, meta: RequestMeta): Promise<EmailChangeLinkReply> {
    const link = await this.emailChangeLink(input.token, 'undo');
    let ended: string[] = [];
    let restored: string | null = null;
    await this.execute(link.user_id, { type: 'UndoEmailChange', userId: link.user_id, undoId: link.id, now: new Date().toISOString() }, { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId }, async (em, events) => {
      const changed = events.find((event) => event.type === 'EmailChanged');
      if (changed) {
        restored = changed.data.email;
        await em.execute('update credentials set email = ?, updated_at = now() where user_id = ?', [restored, link.user_id]);
      }
      ended = await this.sessions.revokeAllBut(em, link.user_id, null, 'e-mail change undone');
    });
    for (const sessionId of ended) await this.deps.revokedSessions.revoke(sessionId);
    const email = restored ?? (await this.getProfile(link.user_id)).email;
    await this.sendResetLink(email, meta);
    return { message: EmailChangeMessages.undone, sessionsEnded: ended.length };
  }

  /**
   * E-mails the owner about a sign-in from a browser the account had not seen, with a "this wasn't me"
   * link (EMAIL_CHANGE_UNDO_TTL_SECONDS, as the undo of an e-mail change). The sign-in stands if the
   * e-mail cannot be queued: a notice lost is logged, a locked-out owner would be worse.
   */
  private async alertNewSignIn(session: IssuedSession, meta: RequestMeta): Promise<void> {
    const { resetId, token, tokenHash } = newResetToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.deps.emailChangeUndoTtlSeconds * 1000).toISOString();
    try {
      await this.em.execute('insert into sign_in_alerts (id, user_id, session_id, token_hash, expires_at) values (?, ?, ?, ?, ?)', [resetId, session.profile.id, session.sessionId, tokenHash, expiresAt]);
      await this.deps.sendAccountEmail({
        emailId: resetId, userId: session.profile.id, kind: 'new-sign-in', to: session.profile.email, at: now.toISOString(), expiresAt,
        device: describeUserAgent(meta.userAgent),
        sealedLink: sealForJob(this.deps.keyMailSecret, accountEmailSealContext(resetId), notMeLinkPath(token)),
      });
    } catch (err) {
      this.deps.logger.error({ err, requestId: meta.requestId }, 'the e-mail about a sign-in from a new browser could not be queued');
    }
  }

  /**
   * A new-sign-in alert's "this wasn't me" link, once: every session of the account ends and a reset
   * link goes to its address, since whoever signed in knew the password. Used, lapsed, altered or
   * another account's: the same SIGN_IN_ALERT_LINK_INVALID.
   */
  async disownSignIn(input: { token: string }, meta: RequestMeta): Promise<EmailChangeLinkReply> {
    const id = resetIdOf(input.token);
    const [alert] = id ? await this.em.execute<{ user_id: string; token_hash: string }[]>('select user_id, token_hash from sign_in_alerts where id = ?', [id]) : [];
    if (!id || !alert || !tokenMatches(input.token, alert.token_hash)) throw new DomainError('SIGN_IN_ALERT_LINK_INVALID');
    const ended = await this.em.transactional(async (em) => {
      const claimed = await em.execute<{ id: string }[]>('update sign_in_alerts set used_at = now() where id = ? and used_at is null and expires_at > now() returning id', [id]);
      if (!claimed.length) throw new DomainError('SIGN_IN_ALERT_LINK_INVALID');
      return this.sessions.revokeAllBut(em, alert.user_id, null, 'sign-in disowned');
    });
    for (const sessionId of ended) await this.deps.revokedSessions.revoke(sessionId);
    await this.sendResetLink((await this.getProfile(alert.user_id)).email, meta);
    return { message: NewSignInMessages.disowned, sessionsEnded: ended.length };
  }

  /** The stored link a token names, of that purpose and matching its hash, or EMAIL_CHANGE_LINK_INVALID. */
  private async emailChangeLink(token: string, purpose: 'confirm' | 'undo'): Promise<{ id: string; user_id: string; session_id: string | null }> {
    const id = resetIdOf(token);
    const [link] = id
      ? await this.em.execute<{ id: string; user_id: string; session_id: string | null; token_hash: string }[]>(
        'select id, user_id, session_id, token_hash from email_change_links where id = ? and purpose = ?', [id, purpose])
      : [];
    if (!link || !tokenMatches(token, link.token_hash)) throw new DomainError('EMAIL_CHANGE_LINK_INVALID');
    return link;
  }

  /**
   * A new password (argon2id, as at sign-up). Every other session of the account ends at once (in the
   * database, so none refreshes, and in Redis, so no access token of theirs is accepted any more); the
   * session that changed it stays signed in.
   */
  async changePassword(caller: Caller, input: { currentPassword: string; newPassword: string }, meta: RequestMeta): Promise<ChangePasswordReply> {
    const owner = ownerOf(caller);
    const problem = newPasswordRefusal(input.newPassword);
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
    await this.tellPasswordChanged(owner.userId);
    return { otherSessionsEnded: ended.length };
  }

  // Account recovery ("Forgot password?" on /auth, the link's /reset-password page).

  /**
   * Answers at once, with the same words and status whether or not the address has an account: the
   * limit is counted on the address typed, then the reply goes, and only after it is the account looked
   * up, the link made and its e-mail queued, so no timing tells one case from the other. A request lost
   * to a crash in between is simply asked again.
   */
  async forgotPassword(input: { email: string }, meta: RequestMeta): Promise<ForgotPasswordReply> {
    const problem = validateCredentials({ email: input.email, password: 'x'.repeat(8) })?.email;
    if (problem) throw validationError({ email: problem }, problem);
    const email = normaliseEmail(input.email);
    await this.deps.limiter.beginResetRequest(email, meta.ip);
    const work = this.sendResetLink(email, meta)
      .catch((err: unknown) => this.deps.logger.error({ err, requestId: meta.requestId }, 'a password reset request failed after its answer'))
      .finally(() => this.resetsInFlight.delete(work));
    this.resetsInFlight.add(work);
    return { message: ResetMessages.requested };
  }

  /** Waits for reset requests still being worked on (at shutdown, and in specs). */
  async settleResetRequests(): Promise<void> {
    while (this.resetsInFlight.size) await Promise.all([...this.resetsInFlight]);
  }

  private async sendResetLink(email: string, meta: RequestMeta): Promise<void> {
    const [row] = await this.em.execute<{ user_id: string }[]>('select user_id from credentials where email = ?', [email]);
    if (!row) return;
    const { resetId, token, tokenHash } = newResetToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.deps.passwordResetTtlSeconds * 1000).toISOString();
    await this.execute(row.user_id, { type: 'RequestPasswordReset', userId: row.user_id, resetId, now: now.toISOString(), expiresAt }, { actor: { kind: 'user', id: row.user_id }, correlationId: meta.requestId }, async (em) => {
      await em.execute('insert into password_resets (id, user_id, token_hash, expires_at) values (?, ?, ?, ?)', [resetId, row.user_id, tokenHash, expiresAt]);
    });
    await this.deps.sendAccountEmail({
      emailId: resetId, userId: row.user_id, kind: 'password-reset', to: email, at: now.toISOString(), expiresAt,
      sealedLink: sealForJob(this.deps.keyMailSecret, accountEmailSealContext(resetId), resetLinkPath(email, token)),
    });
  }

  /**
   * Sets a new password from a reset link: the link's token must match a reset of the address's account
   * that is open (not used, not lapsed, no password change since); every refusal is the same
   * RESET_LINK_INVALID. Every session of the account ends (the caller signs in again with the new
   * password), so does every known device's own sign-in budget, and the owner is told by e-mail.
   */
  async resetPassword(input: { email: string; token: string; newPassword: string }, meta: RequestMeta): Promise<ResetPasswordReply> {
    const problem = newPasswordRefusal(input.newPassword);
    if (problem) throw validationError({ newPassword: problem }, problem);
    const email = normaliseEmail(input.email);
    const resetId = resetIdOf(input.token);
    const [reset] = resetId
      ? await this.em.execute<{ user_id: string; token_hash: string }[]>(
        'select r.user_id, r.token_hash from password_resets r join credentials c on c.user_id = r.user_id where r.id = ? and c.email = ?', [resetId, email])
      : [];
    if (!reset || !resetId || !tokenMatches(input.token, reset.token_hash)) throw new DomainError('RESET_LINK_INVALID');
    const passwordHash = await this.hasher.hash(input.newPassword);
    let ended: string[] = [];
    await this.execute(reset.user_id, { type: 'ResetPassword', userId: reset.user_id, resetId, now: new Date().toISOString() }, { actor: { kind: 'user', id: reset.user_id }, correlationId: meta.requestId }, async (em) => {
      await em.execute('update credentials set password_hash = ?, updated_at = now() where user_id = ?', [passwordHash, reset.user_id]);
      ended = await this.sessions.revokeAllBut(em, reset.user_id, null, 'password reset');
    });
    for (const sessionId of ended) await this.deps.revokedSessions.revoke(sessionId);
    await this.deps.limiter.forgetDevices(email);
    await this.deps.limiter.reopenAccount(email);
    await this.tellPasswordChanged(reset.user_id);
    return { message: ResetMessages.done, sessionsEnded: ended.length };
  }

  /** "Your password was changed": after the change committed; a failure to queue it is logged, never undoes the change. */
  private async tellPasswordChanged(userId: string): Promise<void> {
    try {
      const profile = await this.getProfile(userId);
      const at = new Date().toISOString();
      await this.deps.sendAccountEmail({ emailId: randomUUID(), userId, kind: 'password-changed', to: profile.email, at });
    } catch (err) {
      this.deps.logger.error({ err, userId }, 'could not queue the password-changed notice');
    }
  }

  // The signed-in browsers of /settings.

  async listSessions(caller: Caller): Promise<AccountSessions> {
    const owner = ownerOf(caller);
    const rows = await this.sessions.live(this.em, owner.userId);
    return {
      sessions: rows.map((row) => ({
        id: row.id, device: describeUserAgent(row.user_agent), createdAt: new Date(row.created_at).toISOString(), lastSeenAt: new Date(row.last_seen_at).toISOString(), current: row.id === owner.sessionId,
      })),
    };
  }

  /** Signs one of the caller's sessions out (another account's or an ended one is NOT_FOUND alike). */
  async endSession(caller: Caller, sessionId: string): Promise<SessionsEnded> {
    const owner = ownerOf(caller);
    if (!(await this.sessions.revokeOwn(this.em, owner.userId, sessionId, 'signed out from settings'))) throw new DomainError('NOT_FOUND', 'No such session.');
    await this.deps.revokedSessions.revoke(sessionId);
    return { sessionsEnded: 1 };
  }

  /** "Sign out everywhere else": every session of the account but the caller's. */
  async endOtherSessions(caller: Caller): Promise<SessionsEnded> {
    const owner = ownerOf(caller);
    const ended = await this.sessions.revokeAllBut(this.em, owner.userId, owner.sessionId, 'signed out everywhere else');
    for (const sessionId of ended) await this.deps.revokedSessions.revoke(sessionId);
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

  private execute(userId: string, command: UserCommand, metadata: EventMetadata, alsoInTransaction?: CommandOptions<UserEvent>['alsoInTransaction']) {
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
      // The other services read whether the address is verified from here, as they read the tier: a
      // claim re-read from the profile at every sign-in and refresh (so a verification shows within one
      // token's life) costs no call to identity on their paths that e-mail for the owner.
      { sub: profile.id, sid: session.id, email: profile.email, tier: profile.subscription_tier, admin: profile.ai_admin, emailVerified: profile.emailVerified, kind: 'user' },
      this.deps.accessTokenTtlSeconds,
    );
    return { accessToken: token, accessTokenExpiresAt: expiresAt, refreshToken, refreshTokenExpiresAt: new Date(session.expires_at).getTime(), sessionId: session.id, profile };
  }
}
