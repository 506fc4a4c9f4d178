import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  MAX_PASSKEYS_PER_ACCOUNT, PASSKEY_CHALLENGE_SECONDS, PasskeyMessages, SUDO_WINDOW_SECONDS,
  type IssuedSession, type PasskeyAuthenticationResponse, type PasskeyCeremony, type PasskeyList, type PasskeyRegistrationResponse, type PasskeyView, type RequestMeta, type SessionView,
} from '@lv/contracts';
import { ownerOf, requireRecentProof, type Caller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { tokenMatches, resetIdOf } from '../credentials/reset-tokens.js';
import type { SignInAttempt } from '../credentials/sign-in-limiter.js';
import { PasskeysRepository, type PasskeyPurpose, type PasskeyRow } from '../passkeys/passkeys.repository.js';
import type { IdentityCore } from './identity-core.js';
import type { SignIn } from './sign-in.js';
import type { TwoStep } from './two-step.js';

/** Where passkeys are valid: the site's host name (WebAuthn's RP ID) and its origin, from PUBLIC_URL. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Legacy Vault' };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const refused = () => new DomainError('PASSKEY_INVALID');

function view(row: PasskeyRow): PasskeyView {
  return { id: row.id, name: row.name, createdAt: new Date(row.created_at).toISOString(), lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null };
}

/** The browser's answer as the library types it; extensions are not used, so none are passed on. */
function registrationJson(credential: PasskeyRegistrationResponse): RegistrationResponseJSON {
  return { ...credential, clientExtensionResults: {} };
}
function authenticationJson(credential: PasskeyAuthenticationResponse): AuthenticationResponseJSON {
  return { ...credential, clientExtensionResults: {} };
}

/** A passkey's user handle: the account id's bytes (already an opaque random id, nothing personal). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);

/**
 * Passkeys (WebAuthn, issue 32) through @simplewebauthn/server: adding (sudo mode), listing, renaming,
 * removing (sudo mode); signing in with one and no password (a discoverable credential, user verified:
 * something held and something known or been, so it opens a session even with two-step on); the second
 * step after the password; and sudo mode's proof. Every ceremony's challenge is random, stored as its
 * hash, single-use, PASSKEY_CHALLENGE_SECONDS long and bound to what it was issued for; it is used up
 * before the answer is checked, so no answer is checked twice. Every answer is counted like a password.
 */
export class Passkeys {
  readonly store = new PasskeysRepository();

  constructor(private readonly core: IdentityCore, private readonly twoStep: TwoStep, private readonly signIn: SignIn, private readonly rp: RelyingParty) {}

  async list(caller: Caller): Promise<PasskeyList> {
    const { userId } = ownerOf(caller);
    return { passkeys: (await this.store.list(this.core.em, userId)).map(view) };
  }

  async rename(caller: Caller, input: { passkeyId: string; name: string }): Promise<PasskeyView> {
    const { userId } = ownerOf(caller);
    const row = await this.store.rename(this.core.em, userId, input.passkeyId, input.name.trim());
    if (!row) throw new DomainError('NOT_FOUND', PasskeyMessages.notFound);
    return view(row);
  }

  /** Sudo mode: whoever holds a stolen session must not be able to take a passkey away from the owner either. */
  async remove(caller: Caller, input: { passkeyId: string }): Promise<PasskeyList> {
    const { userId } = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    if (!(await this.store.remove(this.core.em, userId, input.passkeyId))) throw new DomainError('NOT_FOUND', PasskeyMessages.notFound);
    return this.list(caller);
  }

  // Adding a passkey: sudo mode, since a passkey signs in without the password.

  async registrationOptions(caller: Caller): Promise<PasskeyCeremony> {
    const { userId } = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    const em = this.core.em;
    const existing = await this.store.list(em, userId);
    if (existing.length >= MAX_PASSKEYS_PER_ACCOUNT) throw new DomainError('CONFLICT', PasskeyMessages.limitReached);
    const profile = await this.core.getProfile(userId);
    const options = await generateRegistrationOptions({
      rpName: this.rp.name, rpID: this.rp.id, userName: profile.email, userDisplayName: profile.full_name?.trim() || profile.email, userID: userHandleOf(userId),
      challenge: randomBytes(32), attestationType: 'none', timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      // Discoverable and user-verified: the same passkey signs in without a password.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: row.transports })),
    });
    return this.ceremony(options.challenge, 'register', { userId, sessionId: ownerOf(caller).sessionId }, { ...options });
  }

  async add(caller: Caller, input: { challengeId: string; name: string; credential: PasskeyRegistrationResponse }): Promise<PasskeyView> {
    const { userId, sessionId } = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    const challenge = await this.store.claimChallenge(this.core.em, input.challengeId, 'register');
    if (!challenge || challenge.user_id !== userId || challenge.session_id !== sessionId) throw refused();
    const verification = await verifyRegistrationResponse({
      response: registrationJson(input.credential), expectedChallenge: (c) => sha256(c) === challenge.challenge_hash,
      expectedOrigin: this.rp.origin, expectedRPID: this.rp.id, requireUserVerification: true,
    }).catch(() => ({ verified: false as const }));
    if (!verification.verified) throw refused();
    const { credential, credentialBackedUp } = verification.registrationInfo;
    return this.core.em.transactional(async (em) => {
      if ((await this.store.count(em, userId)) >= MAX_PASSKEYS_PER_ACCOUNT) throw new DomainError('CONFLICT', PasskeyMessages.limitReached);
      // The same authenticator registered twice (here or to another account) is refused alike.
      if (await this.store.byCredentialId(em, credential.id)) throw refused();
      return view(await this.store.insert(em, {
        id: randomUUID(), userId, credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter,
        transports: input.credential.response.transports ?? [], backedUp: credentialBackedUp, name: input.name.trim(),
      }));
    });
  }

  // Signing in with a passkey and no password.

  async signInOptions(meta: RequestMeta): Promise<PasskeyCeremony> {
    await this.core.deps.limiter.beginPasskeyOptions(meta.ip);
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, challenge: randomBytes(32), userVerification: 'required', timeout: PASSKEY_CHALLENGE_SECONDS * 1000 });
    return this.ceremony(options.challenge, 'sign-in', {}, { ...options });
  }

  async signInWithPasskey(input: { challengeId: string; credential: PasskeyAuthenticationResponse }, meta: RequestMeta): Promise<IssuedSession> {
    const { userId } = await this.assert(input, meta, 'sign-in', () => true, true);
    return this.core.openSession(userId, meta);
  }

  // The second step after the password.

  async secondStepOptions(input: { challenge: string }, meta: RequestMeta): Promise<PasskeyCeremony> {
    const passwordStep = await this.openPasswordStep(input.challenge);
    await this.core.deps.limiter.beginPasskeyOptions(meta.ip);
    const passkeys = await this.store.list(this.core.em, passwordStep.userId);
    if (passkeys.length === 0) throw refused();
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id, challenge: randomBytes(32), userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: row.transports })),
    });
    return this.ceremony(options.challenge, 'second-step', { userId: passwordStep.userId, twoStepChallengeId: passwordStep.id }, { ...options });
  }

  /** The password step's challenge and a passkey of the same account open the session; the challenge is used up. */
  async signInSecondStep(input: { challenge: string; challengeId: string; credential: PasskeyAuthenticationResponse }, meta: RequestMeta): Promise<IssuedSession> {
    const passwordStep = await this.openPasswordStep(input.challenge);
    await this.assert(input, meta, 'second-step', (claimed, row) => claimed.two_step_challenge_id === passwordStep.id && row.user_id === passwordStep.userId, false);
    if (!(await this.twoStep.store.claimChallenge(this.core.em, passwordStep.id))) throw refused();
    const session = await this.core.openSession(passwordStep.userId, meta);
    if (!passwordStep.knownDevice) await this.signIn.alertNewSignIn(session, meta);
    return passwordStep.passwordChangeRequired ? { ...session, passwordChangeRequired: true } : session;
  }

  // Sudo mode with a passkey.

  async confirmOptions(caller: Caller): Promise<PasskeyCeremony> {
    const { userId, sessionId } = ownerOf(caller);
    const passkeys = await this.store.list(this.core.em, userId);
    if (passkeys.length === 0) throw new DomainError('NOT_FOUND', PasskeyMessages.noPasskeys);
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id, challenge: randomBytes(32), userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: row.transports })),
    });
    return this.ceremony(options.challenge, 'confirm', { userId, sessionId }, { ...options });
  }

  /** A passkey of the caller's, on a challenge issued to this very session: its proof is renewed, as with the password. */
  async confirm(caller: Caller, input: { challengeId: string; credential: PasskeyAuthenticationResponse }, meta: RequestMeta): Promise<SessionView> {
    const { userId, sessionId } = ownerOf(caller);
    await this.assert(input, meta, 'confirm', (claimed, row) => claimed.user_id === userId && claimed.session_id === sessionId && row.user_id === userId, false);
    const session = await this.core.em.transactional((em) => this.core.sessions.markProved(em, userId, sessionId));
    if (!session) throw new DomainError('SESSION_EXPIRED');
    return this.core.issueAccessToken(session);
  }

  // Shared steps.

  private async ceremony(challenge: string, purpose: PasskeyPurpose, bound: { userId?: string; sessionId?: string; twoStepChallengeId?: string }, options: Record<string, unknown>): Promise<PasskeyCeremony> {
    const challengeId = randomUUID();
    await this.store.insertChallenge(this.core.em, { id: challengeId, purpose, challengeHash: sha256(challenge), ...bound, expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_SECONDS * 1000) });
    return { challengeId, options };
  }

  private async openPasswordStep(token: string): Promise<{ id: string; userId: string; knownDevice: boolean; passwordChangeRequired: boolean }> {
    const id = resetIdOf(token);
    const challenge = id ? await this.twoStep.store.openChallenge(this.core.em, id) : undefined;
    if (!id || !challenge || !tokenMatches(token, challenge.token_hash)) throw new DomainError('TWO_STEP_INVALID');
    return { id, userId: challenge.user_id, knownDevice: challenge.known_device, passwordChangeRequired: challenge.password_change_required };
  }

  /**
   * Checks a passkey's answer: counted first (per address, and on the account of the passkey it names),
   * the challenge used up, then the passkey, the challenge's binding (`belongs`), the signature, origin,
   * RP ID, user verification and counter. Anything wrong is PASSKEY_INVALID and stays counted.
   */
  private async assert(
    input: { challengeId: string; credential: PasskeyAuthenticationResponse }, meta: RequestMeta, purpose: PasskeyPurpose,
    belongs: (claimed: { user_id: string | null; session_id: string | null; two_step_challenge_id: string | null }, row: PasskeyRow) => boolean, requireUserVerification: boolean,
  ): Promise<{ userId: string }> {
    const em = this.core.em;
    const row = await this.store.byCredentialId(em, input.credential.id);
    const attempt: SignInAttempt = await this.core.deps.limiter.beginPasskey(row?.user_id, meta.ip);
    const claimed = await this.store.claimChallenge(em, input.challengeId, purpose);
    if (!row || !claimed || !belongs(claimed, row)) throw refused();
    const handle = input.credential.response.userHandle;
    if (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== row.user_id) throw refused();
    const verification = await verifyAuthenticationResponse({
      response: authenticationJson(input.credential), expectedChallenge: (c) => sha256(c) === claimed.challenge_hash,
      expectedOrigin: this.rp.origin, expectedRPID: this.rp.id, requireUserVerification,
      credential: { id: row.credential_id, publicKey: new Uint8Array(row.public_key), counter: Number(row.counter), transports: row.transports },
    }).catch(() => ({ verified: false as const }));
    if (!verification.verified || !('authenticationInfo' in verification)) throw refused();
    if (!(await this.store.markUsed(em, row.id, row.counter, verification.authenticationInfo.newCounter))) throw refused();
    await this.core.deps.limiter.signInSucceeded(attempt);
    return { userId: row.user_id };
  }
}
