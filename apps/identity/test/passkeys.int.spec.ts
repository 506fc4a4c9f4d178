import { IdentityRpc, PasskeyMessages, SUDO_WINDOW_SECONDS, type IssuedSession, type PasskeyCeremony, type SessionView } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import { generateTestKeys } from '@lv/testing';
import { asSession, callerFrom, type IdentityHarness, startIdentity } from './test-support/harness.js';
import { SoftwareAuthenticator, type SoftwarePasskey } from './test-support/software-authenticator.js';
import { totpAt } from '../src/two-step/totp.js';

// Passkeys (issue 32) against identity over NATS on real PostgreSQL and Redis, with an ES256
// authenticator built in software (real attestation objects and signatures): adding one (sudo mode),
// signing in with it and no password, as the second step, as sudo mode's proof; and every refusal:
// a replayed challenge or answer, a wrong origin, another account's passkey, a removed one.

const keys = generateTestKeys();
const PASSWORD = 'passkey-secret-one';
const ORIGIN = 'https://vault.example.com';
const authAtOf = (token: string): number => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { authAt: number }).authAt;

describe('identity passkeys', () => {
  let harness: IdentityHarness;
  let caller: ReturnType<typeof callerFrom>;
  const call: ReturnType<typeof callerFrom>['call'] = (...args) => caller.call(...args);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(query: string, params: unknown[] = []) => harness.identity.core.orm.em.fork().execute<T[]>(query, params);
  const authenticator = new SoftwareAuthenticator(ORIGIN);
  let n = 0;
  const newEmail = () => `passkey.${Date.now()}.${n++}@example.com`;

  /** A new account with a passkey added in Settings. */
  async function withPasskey(name = 'My laptop') {
    const email = newEmail();
    const session = asSession(await call(IdentityRpc.signUp, { email, password: PASSWORD }));
    const ceremony: PasskeyCeremony = await call(IdentityRpc.passkeyRegistrationOptions, {}, session.accessToken);
    const { passkey, response } = authenticator.create(ceremony.options);
    const added = await call(IdentityRpc.addPasskey, { challengeId: ceremony.challengeId, name, credential: response }, session.accessToken);
    return { email, session, passkey, added };
  }

  const signInOptions = (): Promise<PasskeyCeremony> => call(IdentityRpc.passkeySignInOptions, {});
  async function signInWith(passkey: SoftwarePasskey, options: { origin?: string; userVerified?: boolean } = {}) {
    const ceremony = await signInOptions();
    return call(IdentityRpc.passkeySignIn, { challengeId: ceremony.challengeId, credential: authenticator.get(passkey, ceremony.options, options) });
  }

  beforeAll(async () => {
    harness = await startIdentity('identitypasskeys', keys, { PUBLIC_URL: ORIGIN, SIGNIN_WINDOW_SECONDS: '60' });
    caller = callerFrom(harness.rpc, 205);
  });

  afterAll(() => harness?.close());

  it('adds a named passkey, lists it, and signs in with it and no password; the public key is kept, no challenge in clear', async () => {
    const { session, passkey, added } = await withPasskey();
    expect(added).toMatchObject({ name: 'My laptop', lastUsedAt: null });
    const { passkeys } = await call(IdentityRpc.passkeys, {}, session.accessToken);
    expect(passkeys).toEqual([added]);

    const signedIn: IssuedSession = await signInWith(passkey);
    expect(signedIn.profile.id).toBe(session.profile.id);
    expect(signedIn.sessionId).not.toBe(session.sessionId);
    const [listed] = (await call(IdentityRpc.passkeys, {}, signedIn.accessToken)).passkeys;
    expect(listed!.lastUsedAt).not.toBeNull();
    const [row] = await sql<{ counter: string; transports: string[] }>('select counter, transports from passkeys where id = ?', [added.id]);
    expect(row).toEqual({ counter: '1', transports: ['internal'] });
    // Only challenges' hashes are kept: no options' challenge appears in the table.
    const ceremony = await signInOptions();
    const stored = await sql<{ challenge_hash: string }>('select challenge_hash from passkey_challenges where id = ?', [ceremony.challengeId]);
    expect(stored[0]!.challenge_hash).not.toContain(String(ceremony.options['challenge']));
    expect(stored[0]!.challenge_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('renames a passkey of the caller’s only; removing one and adding one need sudo mode', async () => {
    const { session, added } = await withPasskey();
    const other = await withPasskey();
    expect(await call(IdentityRpc.renamePasskey, { passkeyId: added.id, name: '  Work phone ' }, session.accessToken)).toMatchObject({ id: added.id, name: 'Work phone' });
    expect(await codeOf(call(IdentityRpc.renamePasskey, { passkeyId: added.id, name: 'Mine now' }, other.session.accessToken))).toBe('NOT_FOUND');
    expect(await codeOf(call(IdentityRpc.removePasskey, { passkeyId: added.id }, other.session.accessToken))).toBe('NOT_FOUND');
    await expect(call(IdentityRpc.renamePasskey, { passkeyId: added.id, name: ' ' }, session.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });

    await sql(`update sessions set proved_at = now() - make_interval(secs => ?) where id = ?`, [SUDO_WINDOW_SECONDS + 60, session.sessionId]);
    const stale = asSession(await call(IdentityRpc.refresh, { refreshToken: session.refreshToken }));
    expect(await codeOf(call(IdentityRpc.removePasskey, { passkeyId: added.id }, stale.accessToken))).toBe('SUDO_REQUIRED');
    expect(await codeOf(call(IdentityRpc.passkeyRegistrationOptions, {}, stale.accessToken))).toBe('SUDO_REQUIRED');
    expect(await codeOf(call(IdentityRpc.passkeys, {}))).toBe('UNAUTHENTICATED');
    const confirmed: SessionView = await call(IdentityRpc.confirmIdentity, { currentPassword: PASSWORD }, stale.accessToken);
    expect(await call(IdentityRpc.removePasskey, { passkeyId: added.id }, confirmed.accessToken)).toEqual({ passkeys: [] });
  });

  it('refuses a replayed answer, a used or lapsed challenge, a wrong origin, an unverified user and a removed passkey alike', async () => {
    const { session, passkey, added } = await withPasskey();
    const ceremony = await signInOptions();
    const answer = authenticator.get(passkey, ceremony.options);
    await call(IdentityRpc.passkeySignIn, { challengeId: ceremony.challengeId, credential: answer });
    // The same answer again: its challenge is used up.
    await expect(call(IdentityRpc.passkeySignIn, { challengeId: ceremony.challengeId, credential: answer })).rejects.toMatchObject({ code: 'PASSKEY_INVALID', message: PasskeyMessages.refused });
    // The old answer on a fresh challenge: the signature covers the old one.
    const fresh = await signInOptions();
    expect(await codeOf(call(IdentityRpc.passkeySignIn, { challengeId: fresh.challengeId, credential: answer }))).toBe('PASSKEY_INVALID');
    // A lapsed challenge.
    const lapsed = await signInOptions();
    await sql("update passkey_challenges set expires_at = now() - interval '1 second' where id = ?", [lapsed.challengeId]);
    expect(await codeOf(call(IdentityRpc.passkeySignIn, { challengeId: lapsed.challengeId, credential: authenticator.get(passkey, lapsed.options) }))).toBe('PASSKEY_INVALID');
    // Made on another site (a phishing page relaying the challenge).
    expect(await codeOf(signInWith(passkey, { origin: 'https://vault.example.com.evil.test' }))).toBe('PASSKEY_INVALID');
    // Signing in without a password needs the user verified (PIN or biometrics), not just present.
    expect(await codeOf(signInWith(passkey, { userVerified: false }))).toBe('PASSKEY_INVALID');
    // A registration challenge is not a sign-in's.
    const registration: PasskeyCeremony = await call(IdentityRpc.passkeyRegistrationOptions, {}, session.accessToken);
    expect(await codeOf(call(IdentityRpc.passkeySignIn, { challengeId: registration.challengeId, credential: authenticator.get(passkey, { ...registration.options, rpId: 'vault.example.com' }) }))).toBe('PASSKEY_INVALID');
    // Removed: it signs in no more.
    await call(IdentityRpc.removePasskey, { passkeyId: added.id }, session.accessToken);
    expect(await codeOf(signInWith(passkey))).toBe('PASSKEY_INVALID');
    expect(await codeOf(signInWith(passkey))).toBe('PASSKEY_INVALID');
  });

  it('refuses a passkey registered on another origin, or twice', async () => {
    const session = asSession(await call(IdentityRpc.signUp, { email: newEmail(), password: PASSWORD }));
    const ceremony: PasskeyCeremony = await call(IdentityRpc.passkeyRegistrationOptions, {}, session.accessToken);
    const { response } = authenticator.create(ceremony.options, 'https://evil.test');
    expect(await codeOf(call(IdentityRpc.addPasskey, { challengeId: ceremony.challengeId, name: 'Phished', credential: response }, session.accessToken))).toBe('PASSKEY_INVALID');
    const again: PasskeyCeremony = await call(IdentityRpc.passkeyRegistrationOptions, {}, session.accessToken);
    const made = authenticator.create(again.options);
    await call(IdentityRpc.addPasskey, { challengeId: again.challengeId, name: 'Laptop', credential: made.response }, session.accessToken);
    expect(await codeOf(call(IdentityRpc.addPasskey, { challengeId: again.challengeId, name: 'Laptop', credential: made.response }, session.accessToken))).toBe('PASSKEY_INVALID');
    expect((await call(IdentityRpc.passkeys, {}, session.accessToken)).passkeys).toHaveLength(1);
  });

  it('is a second step after the password when two-step is on, and never another account’s passkey', async () => {
    const { email, session, passkey } = await withPasskey();
    const stranger = await withPasskey();
    const { secret } = await call(IdentityRpc.twoStepSetup, {}, session.accessToken);
    await call(IdentityRpc.twoStepConfirm, { code: totpAt(secret, Date.now()) }, session.accessToken);
    const passwordStep = async () => {
      const reply = await call(IdentityRpc.signIn, { email, password: PASSWORD });
      if (!('twoStepRequired' in reply)) throw new Error('the password alone opened a session');
      expect(reply.passkeys).toBe(true);
      return reply.challenge;
    };

    const challenge = await passwordStep();
    // Another account's passkey, with this sign-in's ceremony: refused, and the password step still stands.
    const ceremony: PasskeyCeremony = await call(IdentityRpc.twoStepPasskeyOptions, { challenge });
    expect(await codeOf(call(IdentityRpc.signInTwoStepPasskey, { challenge, challengeId: ceremony.challengeId, credential: authenticator.get(stranger.passkey, ceremony.options) }))).toBe('PASSKEY_INVALID');
    const second: PasskeyCeremony = await call(IdentityRpc.twoStepPasskeyOptions, { challenge });
    const signedIn: IssuedSession = await call(IdentityRpc.signInTwoStepPasskey, { challenge, challengeId: second.challengeId, credential: authenticator.get(passkey, second.options) });
    expect(signedIn.profile.id).toBe(session.profile.id);
    // The password step is used up with it.
    expect(await codeOf(call(IdentityRpc.twoStepPasskeyOptions, { challenge }))).toBe('TWO_STEP_INVALID');
    // A ceremony of one sign-in is not another's.
    const first = await passwordStep();
    const other = await passwordStep();
    const ofFirst: PasskeyCeremony = await call(IdentityRpc.twoStepPasskeyOptions, { challenge: first });
    expect(await codeOf(call(IdentityRpc.signInTwoStepPasskey, { challenge: other, challengeId: ofFirst.challengeId, credential: authenticator.get(passkey, ofFirst.options) }))).toBe('PASSKEY_INVALID');
    expect(await codeOf(call(IdentityRpc.twoStepPasskeyOptions, { challenge: `${other}x` }))).toBe('TWO_STEP_INVALID');
  });

  it('proves who the owner is for sudo mode, on his own session only', async () => {
    const { session, passkey } = await withPasskey();
    const stranger = await withPasskey();
    await sql(`update sessions set proved_at = now() - make_interval(secs => ?) where id = ?`, [SUDO_WINDOW_SECONDS + 60, session.sessionId]);
    const stale = asSession(await call(IdentityRpc.refresh, { refreshToken: session.refreshToken }));

    // The stranger's passkey on the owner's ceremony, and the owner's passkey on the stranger's.
    const ceremony: PasskeyCeremony = await call(IdentityRpc.confirmIdentityPasskeyOptions, {}, stale.accessToken);
    expect(await codeOf(call(IdentityRpc.confirmIdentityPasskey, { challengeId: ceremony.challengeId, credential: authenticator.get(stranger.passkey, { ...ceremony.options }) }, stale.accessToken))).toBe('PASSKEY_INVALID');
    const theirs: PasskeyCeremony = await call(IdentityRpc.confirmIdentityPasskeyOptions, {}, stranger.session.accessToken);
    expect(await codeOf(call(IdentityRpc.confirmIdentityPasskey, { challengeId: theirs.challengeId, credential: authenticator.get(passkey, theirs.options) }, stale.accessToken))).toBe('PASSKEY_INVALID');
    expect(await codeOf(call(IdentityRpc.confirmIdentityPasskeyOptions, {}))).toBe('UNAUTHENTICATED');

    const before = Math.floor(Date.now() / 1000);
    const mine: PasskeyCeremony = await call(IdentityRpc.confirmIdentityPasskeyOptions, {}, stale.accessToken);
    const confirmed: SessionView = await call(IdentityRpc.confirmIdentityPasskey, { challengeId: mine.challengeId, credential: authenticator.get(passkey, mine.options) }, stale.accessToken);
    expect(authAtOf(confirmed.accessToken)).toBeGreaterThanOrEqual(before);
    const [proved] = await sql<{ proved_at: string }>('select proved_at from sessions where id = ?', [session.sessionId]);
    expect(new Date(proved!.proved_at).getTime()).toBeGreaterThanOrEqual(before * 1000);
  });

  it('counts passkey answers like passwords: past the budget, RATE_LIMITED', async () => {
    const { passkey } = await withPasskey();
    const ip = caller.nextAddress();
    const tries = async () => {
      const ceremony: PasskeyCeremony = await harness.rpc.callUnchecked(IdentityRpc.passkeySignInOptions, {}, { meta: { requestId: 'test', ip } });
      return codeOf(harness.rpc.callUnchecked(IdentityRpc.passkeySignIn, { challengeId: ceremony.challengeId, credential: authenticator.get(passkey, ceremony.options, { origin: 'https://evil.test' }) }, { meta: { requestId: 'test', ip } }));
    };
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push(await tries());
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('PASSKEY_INVALID'));
    expect(codes[5]).toBe('RATE_LIMITED');
  });
});
