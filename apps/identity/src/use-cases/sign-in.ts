import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { NewSignInMessages, type Credentials, type EmailChangeLinkReply, type IssuedSession, type RequestMeta, type TwoStepChallenge } from '@lv/contracts';
import type { AccountCaller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { newPasswordRefusal } from '../credentials/new-password.js';
import { newResetToken, notMeLinkPath, resetIdOf, tokenMatches } from '../credentials/reset-tokens.js';
import { describeUserAgent } from '../sessions/user-agent.js';
import type { EmailVerification } from './email-verification.js';
import type { IdentityCore } from './identity-core.js';
import { expiresAfter, signUpProblems } from './identity-rules.js';
import type { PasswordRecovery } from './password-recovery.js';
import type { TwoStep } from './two-step.js';

/** Signing up, in and out, refreshing a session, and disowning a sign-in from a new browser. */
export class SignIn {
  constructor(private readonly core: IdentityCore, private readonly verification: EmailVerification, private readonly recovery: PasswordRecovery, private readonly twoStep: TwoStep) {}

  async signUp(input: Credentials, meta: RequestMeta): Promise<IssuedSession> {
    const problems = signUpProblems(input);
    if (problems) throw validationError(problems, problems.email ?? problems.password);
    const { email, password } = this.core.checkCredentials(input);
    // Counted before the costly hash: one address cannot mass-create accounts (or probe emails).
    await this.core.deps.limiter.beginSignUp(meta.ip);
    const passwordHash = await this.core.hasher.hash(password);
    const userId = randomUUID();
    try {
      await this.core.execute(userId, { type: 'RegisterUser', userId, email, now: new Date().toISOString() }, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId }, async (em) => {
        await this.core.credentials.insertCredentials(em, userId, email, passwordHash);
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('EMAIL_TAKEN');
      throw error;
    }
    // The account exists either way: a link that could not be queued is asked for again from the banner.
    await this.verification.sendLink(userId, meta).catch((err: unknown) => this.core.deps.logger.error({ err, requestId: meta.requestId }, 'the verification e-mail of a new account could not be queued'));
    return this.core.openSession(userId, meta);
  }

  /** A session, or (two-step sign-in on) the second step's challenge: a password alone never opens a session then. */
  async signIn(input: Credentials, meta: RequestMeta): Promise<IssuedSession | TwoStepChallenge> {
    const { email, password } = this.core.checkCredentials(input);
    // Counted before the password is checked, atomically, so parallel guesses cannot overrun the limit.
    const attempt = await this.core.deps.limiter.beginSignIn(email, meta.ip, meta.device);
    let row: { user_id: string; password_hash: string } | undefined;
    let verified: boolean;
    try {
      row = await this.core.credentials.byEmail(this.core.em, email);
      verified = await this.core.hasher.verify(row?.password_hash ?? null, password);
    } catch (error) {
      await this.core.deps.limiter.signInUndecided(attempt).catch(() => undefined);
      throw error;
    }
    // A wrong password stays counted.
    if (!verified || !row) throw new DomainError('INVALID_CREDENTIALS');
    await this.core.deps.limiter.signInSucceeded(attempt);
    // Accounts older than the password rules are asked for a new password at each sign-in until they change it.
    const passwordChangeRequired = newPasswordRefusal(password) !== undefined;
    if (await this.twoStep.isEnabled(row.user_id)) return this.twoStep.challenge(row.user_id, meta, passwordChangeRequired);
    const session = await this.core.openSession(row.user_id, meta);
    // A browser without the gateway's proof of an earlier sign-in to this address: the owner hears of it.
    if (!meta.device) await this.alertNewSignIn(session, meta);
    return passwordChangeRequired ? { ...session, passwordChangeRequired: true } : session;
  }

  /** The second step: the password step's challenge and a code from the app (or a recovery code) open the session. */
  async signInTwoStep(input: { challenge: string; code: string }, meta: RequestMeta): Promise<IssuedSession> {
    const { session, knownDevice } = await this.twoStep.complete(input, meta);
    if (!knownDevice) await this.alertNewSignIn(session, meta);
    return session;
  }

  async refresh(refreshToken: string): Promise<IssuedSession> {
    const outcome = await this.core.em.transactional(async (em) => {
      const rotated = await this.core.sessions.rotate(em, refreshToken);
      if (rotated.kind === 'rotated') await this.core.markActivity(em, rotated.session);
      return rotated;
    });
    if (outcome.kind === 'reused') {
      await this.core.deps.revokedSessions.revoke(outcome.sessionId);
      throw new DomainError('SESSION_EXPIRED');
    }
    return this.core.issue(outcome.session, outcome.refreshToken);
  }

  /** Revokes the session named by the refresh token, or by the caller's access token. */
  async signOut(refreshToken: string | undefined, caller: AccountCaller | null): Promise<boolean> {
    const em = this.core.em;
    const session = refreshToken ? await this.core.sessions.sessionOf(em, refreshToken) : null;
    // Only a person's token names a session; an operator's 'operator' session id is no session at all.
    const sessionId = session?.id ?? (caller?.kind === 'user' ? caller.sessionId : undefined);
    if (!sessionId) return false;
    const revoked = await this.core.sessions.revoke(em, sessionId, 'signed out');
    await this.core.deps.revokedSessions.revoke(sessionId);
    return revoked;
  }

  /**
   * E-mails the owner about a sign-in from a browser the account had not seen, with a "this wasn't me"
   * link (EMAIL_CHANGE_UNDO_TTL_SECONDS, as the undo of an e-mail change). The sign-in stands if the
   * e-mail cannot be queued: a notice lost is logged, a locked-out owner would be worse.
   */
  async alertNewSignIn(session: IssuedSession, meta: RequestMeta): Promise<void> {
    const { resetId, token, tokenHash } = newResetToken();
    const now = new Date();
    const expiresAt = expiresAfter(now, this.core.deps.emailChangeUndoTtlSeconds);
    try {
      await this.core.credentials.insertSignInAlert(this.core.em, { id: resetId, userId: session.profile.id, sessionId: session.sessionId, tokenHash, expiresAt });
      await this.core.deps.sendAccountEmail({
        emailId: resetId, userId: session.profile.id, kind: 'new-sign-in', to: session.profile.email, at: now.toISOString(), expiresAt,
        device: describeUserAgent(meta.userAgent),
        sealedLink: this.core.sealedLink(resetId, notMeLinkPath(token)),
      });
    } catch (err) {
      this.core.deps.logger.error({ err, requestId: meta.requestId }, 'the e-mail about a sign-in from a new browser could not be queued');
    }
  }

  /**
   * A new-sign-in alert's "this wasn't me" link, once: every session of the account ends and a reset
   * link goes to its address, since whoever signed in knew the password. Used, lapsed, altered or
   * another account's: the same SIGN_IN_ALERT_LINK_INVALID.
   */
  async disown(input: { token: string }, meta: RequestMeta): Promise<EmailChangeLinkReply> {
    const id = resetIdOf(input.token);
    const alert = id ? await this.core.credentials.signInAlert(this.core.em, id) : undefined;
    if (!id || !alert || !tokenMatches(input.token, alert.token_hash)) throw new DomainError('SIGN_IN_ALERT_LINK_INVALID');
    const ended = await this.core.em.transactional(async (em) => {
      if (!(await this.core.credentials.claimSignInAlert(em, id))) throw new DomainError('SIGN_IN_ALERT_LINK_INVALID');
      return this.core.sessions.revokeAllBut(em, alert.user_id, null, 'sign-in disowned');
    });
    await this.core.revokeAll(ended);
    await this.recovery.sendResetLink((await this.core.getProfile(alert.user_id)).email, meta);
    return { message: NewSignInMessages.disowned, sessionsEnded: ended.length };
  }
}
