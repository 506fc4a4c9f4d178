import { normaliseEmail, ResetMessages, SettingsMessages, validateCredentials, type ChangePasswordReply, type ForgotPasswordReply, type RequestMeta, type ResetPasswordReply } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { newPasswordRefusal } from '../credentials/new-password.js';
import { newResetToken, resetIdOf, resetLinkPath, tokenMatches } from '../credentials/reset-tokens.js';
import type { IdentityCore } from './identity-core.js';
import { expiresAfter } from './identity-rules.js';

/** Passwords: "Forgot password?" on /auth and its link's /reset-password page, and a change in /settings. */
export class PasswordRecovery {
  /** Reset requests still being worked on after their answer went (see forgot). */
  private readonly resetsInFlight = new Set<Promise<void>>();

  constructor(private readonly core: IdentityCore) {}

  /**
   * Answers at once, with the same words and status whether or not the address has an account: the
   * limit is counted on the address typed, then the reply goes, and only after it is the account looked
   * up, the link made and its e-mail queued, so no timing tells one case from the other. A request lost
   * to a crash in between is simply asked again.
   */
  async forgot(input: { email: string }, meta: RequestMeta): Promise<ForgotPasswordReply> {
    const problem = validateCredentials({ email: input.email, password: 'x'.repeat(8) })?.email;
    if (problem) throw validationError({ email: problem }, problem);
    const email = normaliseEmail(input.email);
    await this.core.deps.limiter.beginResetRequest(email, meta.ip);
    const work = this.sendResetLink(email, meta)
      .catch((err: unknown) => this.core.deps.logger.error({ err, requestId: meta.requestId }, 'a password reset request failed after its answer'))
      .finally(() => this.resetsInFlight.delete(work));
    this.resetsInFlight.add(work);
    return { message: ResetMessages.requested };
  }

  /** Waits for reset requests still being worked on (at shutdown, and in specs). */
  async settle(): Promise<void> {
    while (this.resetsInFlight.size) await Promise.all([...this.resetsInFlight]);
  }

  /** A reset link to the account that signs in with `email`; nothing when there is none. */
  async sendResetLink(email: string, meta: RequestMeta): Promise<void> {
    const row = await this.core.credentials.byEmail(this.core.em, email);
    if (!row) return;
    const { resetId, token, tokenHash } = newResetToken();
    const now = new Date();
    const expiresAt = expiresAfter(now, this.core.deps.passwordResetTtlSeconds);
    await this.core.execute(row.user_id, { type: 'RequestPasswordReset', userId: row.user_id, resetId, now: now.toISOString(), expiresAt }, { actor: { kind: 'user', id: row.user_id }, correlationId: meta.requestId }, async (em) => {
      await this.core.credentials.insertPasswordReset(em, { id: resetId, userId: row.user_id, tokenHash, expiresAt });
    });
    await this.core.deps.sendAccountEmail({
      emailId: resetId, userId: row.user_id, kind: 'password-reset', to: email, at: now.toISOString(), expiresAt,
      sealedLink: this.core.sealedLink(resetId, resetLinkPath(email, token)),
    });
  }

  /**
   * Sets a new password from a reset link: the link's token must match a reset of the address's account
   * that is open (not used, not lapsed, no password change since); every refusal is the same
   * RESET_LINK_INVALID. Every session of the account ends (the caller signs in again with the new
   * password), so does every known device's own sign-in budget, and the owner is told by e-mail.
   */
  async reset(input: { email: string; token: string; newPassword: string }, meta: RequestMeta): Promise<ResetPasswordReply> {
    const problem = newPasswordRefusal(input.newPassword);
    if (problem) throw validationError({ newPassword: problem }, problem);
    const email = normaliseEmail(input.email);
    const resetId = resetIdOf(input.token);
    const reset = resetId ? await this.core.credentials.passwordReset(this.core.em, resetId, email) : undefined;
    if (!reset || !resetId || !tokenMatches(input.token, reset.token_hash)) throw new DomainError('RESET_LINK_INVALID');
    const passwordHash = await this.core.hasher.hash(input.newPassword);
    let ended: string[] = [];
    await this.core.execute(reset.user_id, { type: 'ResetPassword', userId: reset.user_id, resetId, now: new Date().toISOString() }, { actor: { kind: 'user', id: reset.user_id }, correlationId: meta.requestId }, async (em) => {
      await this.core.credentials.setPasswordHash(em, reset.user_id, passwordHash);
      ended = await this.core.sessions.revokeAllBut(em, reset.user_id, null, 'password reset');
    });
    await this.core.revokeAll(ended);
    await this.core.deps.limiter.forgetDevices(email);
    await this.core.deps.limiter.reopenAccount(email);
    await this.core.tellPasswordChanged(reset.user_id);
    return { message: ResetMessages.done, sessionsEnded: ended.length };
  }

  /**
   * A new password (argon2id, as at sign-up). Every other session of the account ends at once (in the
   * database, so none refreshes, and in Redis, so no access token of theirs is accepted any more); the
   * session that changed it stays signed in.
   */
  async change(caller: Caller, input: { currentPassword: string; newPassword: string }, meta: RequestMeta): Promise<ChangePasswordReply> {
    const owner = ownerOf(caller);
    const problem = newPasswordRefusal(input.newPassword);
    if (problem) throw validationError({ newPassword: problem }, problem);
    await this.core.checkCurrentPassword(owner.userId, input.currentPassword, meta);
    if (input.newPassword === input.currentPassword) throw validationError({ newPassword: SettingsMessages.samePassword }, SettingsMessages.samePassword);
    const passwordHash = await this.core.hasher.hash(input.newPassword);
    let ended: string[] = [];
    await this.core.execute(owner.userId, { type: 'RecordPasswordChange', userId: owner.userId, now: new Date().toISOString() }, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId }, async (em) => {
      await this.core.credentials.setPasswordHash(em, owner.userId, passwordHash);
      ended = await this.core.sessions.revokeAllBut(em, owner.userId, owner.sessionId, 'password changed');
    });
    // After the commit: a failure here leaves the sessions revoked in the database (no refresh works),
    // and the caller sees the error; their access tokens would then lapse within their lifetime.
    await this.core.revokeAll(ended);
    await this.core.tellPasswordChanged(owner.userId);
    return { otherSessionsEnded: ended.length };
  }
}
