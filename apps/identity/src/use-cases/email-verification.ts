import { EmailVerifyMessages, type RequestMeta, type VerifyEmailReply } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { newResetToken, resetIdOf, tokenMatches, verifyEmailLinkPath } from '../credentials/reset-tokens.js';
import type { IdentityCore } from './identity-core.js';
import { expiresAfter } from './identity-rules.js';

/** Verifying the account's address (/verify-email, the banner's "Resend verification e-mail"). */
export class EmailVerification {
  constructor(private readonly core: IdentityCore) {}

  /**
   * A new verification link to the account's address (sign-up, or the owner's resend): valid
   * EMAIL_VERIFY_TTL_SECONDS, only its hash stored, and the only one that works (a newer one replaces
   * it). False when the address is verified already: nothing is sent.
   */
  async sendLink(userId: string, meta: RequestMeta): Promise<boolean> {
    const { resetId: verificationId, token, tokenHash } = newResetToken();
    const now = new Date();
    const expiresAt = expiresAfter(now, this.core.deps.emailVerifyTtlSeconds);
    let sentTo: string | null = null;
    await this.core.execute(userId, { type: 'RequestEmailVerification', userId, verificationId, now: now.toISOString(), expiresAt }, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId }, async (em, events) => {
      const requested = events.find((event) => event.type === 'EmailVerificationRequested');
      if (!requested) return;
      sentTo = requested.data.email;
      await this.core.credentials.insertEmailVerification(em, { id: verificationId, userId, tokenHash, expiresAt });
    });
    if (!sentTo) return false;
    await this.core.deps.sendAccountEmail({
      emailId: verificationId, userId, kind: 'verify-email', to: sentTo, at: now.toISOString(), expiresAt,
      sealedLink: this.core.sealedLink(verificationId, verifyEmailLinkPath(token)),
    });
    return true;
  }

  /** "Resend verification e-mail": a new link (the old one stops working), VERIFICATION_RESENDS_PER_HOUR an hour per account. */
  async resend(caller: Caller, meta: RequestMeta): Promise<VerifyEmailReply> {
    const owner = ownerOf(caller);
    const profile = await this.core.getProfile(owner.userId);
    if (profile.emailVerified) return { message: EmailVerifyMessages.alreadyVerified };
    await this.core.deps.limiter.beginVerificationResend(owner.userId);
    return { message: (await this.sendLink(owner.userId, meta)) ? EmailVerifyMessages.sent(profile.email) : EmailVerifyMessages.alreadyVerified };
  }

  /**
   * The verification link: the address is verified; the next access token (refresh, sign-in) carries
   * it. Used, lapsed, replaced, sent to an address the account no longer has, altered or another
   * account's: the same EMAIL_VERIFY_LINK_INVALID.
   */
  async verify(input: { token: string }, meta: RequestMeta): Promise<VerifyEmailReply> {
    const id = resetIdOf(input.token);
    const link = id ? await this.core.credentials.emailVerification(this.core.em, id) : undefined;
    if (!id || !link || !tokenMatches(input.token, link.token_hash)) throw new DomainError('EMAIL_VERIFY_LINK_INVALID');
    await this.core.execute(link.user_id, { type: 'VerifyEmail', userId: link.user_id, verificationId: id, now: new Date().toISOString() }, { actor: { kind: 'user', id: link.user_id }, correlationId: meta.requestId });
    return { message: EmailVerifyMessages.verified };
  }
}
