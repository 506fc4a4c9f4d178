import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EmailChangeMessages, normaliseEmail, type EmailChangeLinkReply, type RequestMeta, type UserProfile } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { confirmEmailLinkPath, newResetToken, resetIdOf, tokenMatches, undoEmailChangeLinkPath } from '../credentials/reset-tokens.js';
import type { UserCommand } from '../users/user.decider.js';
import type { IdentityCore } from './identity-core.js';
import { expiresAfter } from './identity-rules.js';
import type { PasswordRecovery } from './password-recovery.js';

/** A new e-mail for signing in (/settings), its confirm link and the old address's undo link. */
export class EmailChange {
  constructor(private readonly core: IdentityCore, private readonly recovery: PasswordRecovery) {}

  /**
   * A new e-mail for signing in, asked for with the current password (checked and counted like a
   * sign-in, so a stolen access token cannot guess it freely). Nothing changes yet: the new address gets
   * a confirm link (EMAIL_CHANGE_TTL_SECONDS), the old one is told at once with an undo link
   * (EMAIL_CHANGE_UNDO_TTL_SECONDS); a newer request replaces the pending one. The reply is the profile,
   * still on the old address.
   */
  async request(caller: Caller, input: { email: string; currentPassword: string }, meta: RequestMeta): Promise<UserProfile> {
    const owner = ownerOf(caller);
    await this.core.checkCurrentPassword(owner.userId, input.currentPassword, meta);
    const email = normaliseEmail(input.email);
    if (await this.core.credentials.emailTakenByOther(this.core.em, email, owner.userId)) throw new DomainError('EMAIL_TAKEN', 'An account with this email already exists.');
    const confirm = newResetToken();
    const undo = newResetToken();
    const now = new Date();
    const expiresAt = expiresAfter(now, this.core.deps.emailChangeTtlSeconds);
    const undoExpiresAt = expiresAfter(now, this.core.deps.emailChangeUndoTtlSeconds);
    const command: UserCommand = { type: 'RequestEmailChange', userId: owner.userId, email, changeId: confirm.resetId, undoId: undo.resetId, now: now.toISOString(), expiresAt, undoExpiresAt };
    let previousEmail: string | null = null;
    await this.core.execute(owner.userId, command, { actor: { kind: 'user', id: owner.userId }, correlationId: meta.requestId }, async (em, events) => {
      const requested = events.find((event) => event.type === 'EmailChangeRequested');
      if (!requested) return;
      previousEmail = requested.data.previousEmail;
      await this.core.credentials.insertEmailChangeLinks(em, owner.userId,
        { id: confirm.resetId, sessionId: owner.sessionId ?? null, tokenHash: confirm.tokenHash, expiresAt },
        { id: undo.resetId, tokenHash: undo.tokenHash, expiresAt: undoExpiresAt });
    });
    if (previousEmail) {
      const at = now.toISOString();
      await this.core.deps.sendAccountEmail({
        emailId: confirm.resetId, userId: owner.userId, kind: 'email-change-confirm', to: email, at, expiresAt,
        sealedLink: this.core.sealedLink(confirm.resetId, confirmEmailLinkPath(confirm.token)),
      });
      await this.core.deps.sendAccountEmail({
        emailId: undo.resetId, userId: owner.userId, kind: 'email-change-notice', to: previousEmail, at, expiresAt: undoExpiresAt,
        sealedLink: this.core.sealedLink(undo.resetId, undoEmailChangeLinkPath(undo.token)),
      });
    }
    return this.core.getProfile(owner.userId);
  }

  /**
   * The new address's confirm link: the address changes, and every session ends but the one that asked.
   * Used, lapsed, replaced, undone, altered or another account's: the same EMAIL_CHANGE_LINK_INVALID.
   */
  async confirm(input: { token: string }, meta: RequestMeta): Promise<EmailChangeLinkReply> {
    const link = await this.link(input.token, 'confirm');
    let ended: string[] = [];
    try {
      await this.core.execute(link.user_id, { type: 'ConfirmEmailChange', userId: link.user_id, changeId: link.id, now: new Date().toISOString() }, { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId }, async (em, events) => {
        const changed = events.find((event) => event.type === 'EmailChanged');
        await this.core.credentials.setEmail(em, link.user_id, changed!.data.email);
        ended = await this.core.sessions.revokeAllBut(em, link.user_id, link.session_id, 'e-mail address changed');
      });
    } catch (error) {
      // Another account took the address since the request.
      if (error instanceof UniqueConstraintViolationException) throw new DomainError('EMAIL_TAKEN', 'An account with this email already exists.');
      throw error;
    }
    await this.core.revokeAll(ended);
    return { message: EmailChangeMessages.confirmed, sessionsEnded: ended.length };
  }

  /**
   * The old address's "this wasn't me" link: the old address comes back (if the change was confirmed),
   * every session ends, and a reset link goes to that address, since whoever asked knew the password.
   */
  async undo(input: { token: string }, meta: RequestMeta): Promise<EmailChangeLinkReply> {
    const link = await this.link(input.token, 'undo');
    let ended: string[] = [];
    let restored: string | null = null;
    await this.core.execute(link.user_id, { type: 'UndoEmailChange', userId: link.user_id, undoId: link.id, now: new Date().toISOString() }, { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId }, async (em, events) => {
      const changed = events.find((event) => event.type === 'EmailChanged');
      if (changed) {
        restored = changed.data.email;
        await this.core.credentials.setEmail(em, link.user_id, restored);
      }
      ended = await this.core.sessions.revokeAllBut(em, link.user_id, null, 'e-mail change undone');
    });
    await this.core.revokeAll(ended);
    const email = restored ?? (await this.core.getProfile(link.user_id)).email;
    await this.recovery.sendResetLink(email, meta);
    return { message: EmailChangeMessages.undone, sessionsEnded: ended.length };
  }

  /** The stored link a token names, of that purpose and matching its hash, or EMAIL_CHANGE_LINK_INVALID. */
  private async link(token: string, purpose: 'confirm' | 'undo'): Promise<{ id: string; user_id: string; session_id: string | null }> {
    const id = resetIdOf(token);
    const link = id ? await this.core.credentials.emailChangeLink(this.core.em, id, purpose) : undefined;
    if (!link || !tokenMatches(token, link.token_hash)) throw new DomainError('EMAIL_CHANGE_LINK_INVALID');
    return link;
  }
}
