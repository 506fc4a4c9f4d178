import type { EntityManager } from '@mikro-orm/postgresql';
import { TwoStepMessages, type IssuedSession, type RecoveryCodes, type RequestMeta, type TwoStepChallenge, type TwoStepSetup, type TwoStepStatus } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { newResetToken, resetIdOf, tokenMatches } from '../credentials/reset-tokens.js';
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode } from '../two-step/recovery-codes.js';
import { matchTotp, newTotpSecret, otpauthUri } from '../two-step/totp.js';
import { PasskeysRepository } from '../passkeys/passkeys.repository.js';
import { TwoStepRepository } from '../two-step/two-step.repository.js';
import type { UserCommand } from '../users/user.decider.js';
import type { IdentityCore } from './identity-core.js';

/** How long the second step of a sign-in may wait for its code. */
export const TWO_STEP_CHALLENGE_SECONDS = 5 * 60;

/** A code as the owner typed it: the app's six digits, or a recovery code. */
type TypedCode = { kind: 'app'; code: string } | { kind: 'recovery'; hash: string } | null;

function readCode(typed: string): TypedCode {
  const trimmed = typed.replace(/\s/g, '');
  if (/^\d{6}$/.test(trimmed)) return { kind: 'app', code: trimmed };
  const recovery = normaliseRecoveryCode(typed);
  return recovery ? { kind: 'recovery', hash: hashRecoveryCode(recovery) } : null;
}

/**
 * Two-step sign-in with an authenticator app (TOTP, RFC 6238): the set-up and its confirmation (ten
 * recovery codes, shown once), turning it off, new recovery codes, and the second step of a sign-in.
 * Every code is counted like a password (SignInLimiter.beginTwoStepCode) and accepted once.
 */
export class TwoStep {
  readonly store: TwoStepRepository;
  /** Whether the account has passkeys, which the second step may use instead of a code (use-cases/passkeys.ts). */
  private readonly passkeys = new PasskeysRepository();

  constructor(private readonly core: IdentityCore) {
    this.store = new TwoStepRepository(core.deps.keyMailSecret);
  }

  async status(caller: Caller): Promise<TwoStepStatus> {
    const { userId } = ownerOf(caller);
    const em = this.core.em;
    const enabled = await this.store.isEnabled(em, userId);
    return { enabled, recoveryCodesLeft: enabled ? await this.store.recoveryCodesLeft(em, userId) : 0 };
  }

  /** A new secret for the app, waiting for its first code (an earlier set-up not confirmed is replaced). */
  async setup(caller: Caller): Promise<TwoStepSetup> {
    const { userId } = ownerOf(caller);
    const profile = await this.core.getProfile(userId);
    const secret = newTotpSecret();
    await this.core.em.transactional(async (em) => {
      if (await this.store.isEnabled(em, userId)) throw new DomainError('CONFLICT', TwoStepMessages.alreadyEnabled);
      await this.store.savePending(em, userId, secret);
    });
    return { secret, otpauthUri: otpauthUri(secret, profile.email) };
  }

  /** The first code of the new secret: two-step is on, and the ten recovery codes are shown this once. */
  async confirm(caller: Caller, input: { code: string }, meta: RequestMeta): Promise<RecoveryCodes> {
    const { userId } = ownerOf(caller);
    const state = await this.store.state(this.core.em, userId);
    if (state.enabled) throw new DomainError('CONFLICT', TwoStepMessages.alreadyEnabled);
    const { pending, pendingSealed } = state;
    if (!pending || !pendingSealed) throw validationError({ code: TwoStepMessages.setupFirst }, TwoStepMessages.setupFirst);
    const attempt = await this.core.deps.limiter.beginTwoStepCode(userId, meta.ip);
    const step = /^\d{6}$/.test(input.code.trim()) ? matchTotp(pending, input.code.trim(), Date.now(), null) : null;
    if (step === null) throw validationError({ code: TwoStepMessages.codeWrong }, TwoStepMessages.codeWrong);
    const codes = newRecoveryCodes();
    await this.core.execute(userId, { type: 'EnableTwoStep', userId, now: new Date().toISOString(), recoveryCodes: codes.length }, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId }, async (em) => {
      // Another confirm won, or a newer set-up replaced this one: the owner scans the newer one.
      if (!(await this.store.enable(em, userId, step, pendingSealed))) throw validationError({ code: TwoStepMessages.setupFirst }, TwoStepMessages.setupFirst);
      await this.store.replaceRecoveryCodes(em, userId, codes.map((code) => hashRecoveryCode(normaliseRecoveryCode(code)!)));
    });
    await this.core.deps.limiter.signInSucceeded(attempt);
    return { recoveryCodes: codes };
  }

  /** Off again: needs the password and a current code (or a recovery code). The secret's key is destroyed. */
  async disable(caller: Caller, input: { currentPassword: string; code: string }, meta: RequestMeta): Promise<TwoStepStatus> {
    const { userId } = ownerOf(caller);
    if (!(await this.store.isEnabled(this.core.em, userId))) throw new DomainError('CONFLICT', TwoStepMessages.notEnabled);
    await this.core.checkCurrentPassword(userId, input.currentPassword, meta);
    await this.withCode(userId, input.code, meta, { type: 'DisableTwoStep', userId, now: new Date().toISOString() }, true, (em) => this.store.removeAll(em, userId));
    return { enabled: false, recoveryCodesLeft: 0 };
  }

  /** Ten new recovery codes (the old ones stop working): needs a current code from the app. */
  async regenerate(caller: Caller, input: { code: string }, meta: RequestMeta): Promise<RecoveryCodes> {
    const { userId } = ownerOf(caller);
    if (!(await this.store.isEnabled(this.core.em, userId))) throw new DomainError('CONFLICT', TwoStepMessages.notEnabled);
    const codes = newRecoveryCodes();
    await this.withCode(userId, input.code, meta, { type: 'RegenerateRecoveryCodes', userId, now: new Date().toISOString(), recoveryCodes: codes.length }, false,
      (em) => this.store.replaceRecoveryCodes(em, userId, codes.map((code) => hashRecoveryCode(normaliseRecoveryCode(code)!))));
    return { recoveryCodes: codes };
  }

  /**
   * Runs a settings command that needs a code: the code is counted like a password, spent (its step,
   * or the recovery code when `recoveryCodes` allows one) and the command's writes done, all in the
   * command's transaction; a wrong or spent code is the `code` field's error and changes nothing.
   */
  private async withCode(userId: string, typed: string, meta: RequestMeta, command: UserCommand, recoveryCodes: boolean, writes: (em: EntityManager) => Promise<void>): Promise<void> {
    const refused = () => validationError({ code: TwoStepMessages.codeWrong }, TwoStepMessages.codeWrong);
    const attempt = await this.core.deps.limiter.beginTwoStepCode(userId, meta.ip);
    const code = readCode(typed);
    if (!code || (code.kind === 'recovery' && !recoveryCodes)) throw refused();
    await this.core.execute(userId, command, { actor: { kind: 'user', id: userId }, correlationId: meta.requestId }, async (em) => {
      if (!(await this.spend(em, userId, code))) throw refused();
      await writes(em);
    });
    await this.core.deps.limiter.signInSucceeded(attempt);
  }

  /** Spends a code of the account on `em`: the app's code of a step not used before, or a recovery code (gone for good). */
  private async spend(em: EntityManager, userId: string, code: NonNullable<TypedCode>): Promise<boolean> {
    if (code.kind === 'recovery') return this.store.consumeRecoveryCode(em, userId, code.hash);
    const state = await this.store.state(em, userId);
    if (!state.enabled || !state.secret) return false;
    const step = matchTotp(state.secret, code.code, Date.now(), state.lastStep);
    return step !== null && this.store.claimStep(em, userId, step);
  }

  // The sign-in's second step.

  /** The password was right and two-step is on: a challenge instead of a session. */
  async challenge(userId: string, meta: RequestMeta, passwordChangeRequired: boolean): Promise<TwoStepChallenge> {
    const { resetId, token, tokenHash } = newResetToken();
    const expiresAtMs = Date.now() + TWO_STEP_CHALLENGE_SECONDS * 1000;
    await this.store.insertChallenge(this.core.em, {
      id: resetId, userId, tokenHash, knownDevice: Boolean(meta.device), passwordChangeRequired, expiresAt: new Date(expiresAtMs).toISOString(),
    });
    const passkeys = (await this.passkeys.count(this.core.em, userId)) > 0;
    return { twoStepRequired: true, challenge: token, challengeExpiresAt: expiresAtMs, ...(passkeys ? { passkeys } : {}) };
  }

  isEnabled(userId: string): Promise<boolean> {
    return this.store.isEnabled(this.core.em, userId);
  }

  /**
   * The challenge and a code open the session. A wrong, used or another account's code, and a lapsed,
   * used, altered or unknown challenge: the same TWO_STEP_INVALID. Each try at a real challenge is
   * counted against its account (a wrong one stays counted); the challenge survives a wrong code.
   */
  async complete(input: { challenge: string; code: string }, meta: RequestMeta): Promise<{ session: IssuedSession; knownDevice: boolean }> {
    const id = resetIdOf(input.challenge);
    const challenge = id ? await this.store.openChallenge(this.core.em, id) : undefined;
    if (!id || !challenge) throw new DomainError('TWO_STEP_INVALID');
    const attempt = await this.core.deps.limiter.beginTwoStepCode(challenge.user_id, meta.ip);
    const code = readCode(input.code);
    const passed = tokenMatches(input.challenge, challenge.token_hash) && code !== null && await this.core.em.transactional(async (em) => {
      if (!(await this.spend(em, challenge.user_id, code))) return false;
      if (!(await this.store.claimChallenge(em, id))) throw new DomainError('TWO_STEP_INVALID');
      return true;
    });
    if (!passed) throw new DomainError('TWO_STEP_INVALID');
    await this.core.deps.limiter.signInSucceeded(attempt);
    const session = await this.core.openSession(challenge.user_id, meta);
    return { session: challenge.password_change_required ? { ...session, passwordChangeRequired: true } : session, knownDevice: challenge.known_device };
  }
}
