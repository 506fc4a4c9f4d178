import { IdentityRpc, SettingsMessages, SUDO_WINDOW_SECONDS, type IssuedSession, type SessionView } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import { generateTestKeys } from '@lv/testing';
import { asSession, callerFrom, type IdentityHarness, startIdentity } from './test-support/harness.js';

// Sudo mode (issue 32) against identity over NATS on real PostgreSQL and Redis: every token carries
// its session's last proof (authAt); a refresh keeps it; the password again renews it, and only for a
// live session of the caller's. The services that own sensitive actions refuse a stale proof
// (access-keys.int.spec.ts, the gateway's export).

const keys = generateTestKeys();
const PASSWORD = 'sudo-secret-one';
const authAtOf = (token: string): number => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { authAt: number }).authAt;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('identity sudo mode', () => {
  let harness: IdentityHarness;
  let caller: ReturnType<typeof callerFrom>;
  const call: ReturnType<typeof callerFrom>['call'] = (...args) => caller.call(...args);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(query: string, params: unknown[] = []) => harness.identity.core.orm.em.fork().execute<T[]>(query, params);
  let n = 0;
  const signUp = async (password = PASSWORD) => asSession(await call(IdentityRpc.signUp, { email: `sudo.${Date.now()}.${n++}@example.com`, password }));
  /** The session proved who it is `seconds` ago (a sign-in that long ago). */
  const provedAgo = (session: IssuedSession, seconds: number) => sql(`update sessions set proved_at = now() - make_interval(secs => ?) where id = ?`, [seconds, session.sessionId]);

  beforeAll(async () => {
    harness = await startIdentity('identitysudo', keys);
    caller = callerFrom(harness.rpc, 203);
  });

  afterAll(() => harness?.close());

  it('signs every token with the session’s last proof, and a refresh keeps it rather than renewing it', async () => {
    const before = nowSeconds();
    const session = await signUp();
    expect(authAtOf(session.accessToken)).toBeGreaterThanOrEqual(before);
    expect(authAtOf(session.accessToken)).toBeLessThanOrEqual(nowSeconds());
    await provedAgo(session, SUDO_WINDOW_SECONDS + 60);
    const refreshed = asSession(await call(IdentityRpc.refresh, { refreshToken: session.refreshToken }));
    expect(nowSeconds() - authAtOf(refreshed.accessToken)).toBeGreaterThanOrEqual(SUDO_WINDOW_SECONDS + 60);
  });

  it('renews the proof with the right password only: a wrong one is a field error and changes nothing', async () => {
    const session = await signUp();
    await provedAgo(session, SUDO_WINDOW_SECONDS + 60);
    const stale = asSession(await call(IdentityRpc.refresh, { refreshToken: session.refreshToken }));
    const provedAt = async () => (await sql<{ proved_at: Date }>('select proved_at from sessions where id = ?', [session.sessionId]))[0]!.proved_at;
    const staleProof = await provedAt();

    await expect(call(IdentityRpc.confirmIdentity, { currentPassword: 'not-the-password' }, stale.accessToken))
      .rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { currentPassword: SettingsMessages.currentPasswordWrong } } });
    await expect(call(IdentityRpc.confirmIdentity, { currentPassword: '' }, stale.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await provedAt()).toEqual(staleProof);

    const before = nowSeconds();
    const confirmed = (await call(IdentityRpc.confirmIdentity, { currentPassword: PASSWORD }, stale.accessToken)) as SessionView;
    expect(authAtOf(confirmed.accessToken)).toBeGreaterThanOrEqual(before);
    expect(confirmed.profile.id).toBe(session.profile.id);
    expect(Object.keys(confirmed).sort()).toEqual(['accessToken', 'accessTokenExpiresAt', 'profile']);
    // The same session, proved now: the next refresh carries the new proof.
    const next = asSession(await call(IdentityRpc.refresh, { refreshToken: stale.refreshToken }));
    expect(next.sessionId).toBe(session.sessionId);
    expect(authAtOf(next.accessToken)).toBeGreaterThanOrEqual(before);
  });

  it('refuses a session that has ended, a caller with no token, and another account’s password', async () => {
    const session = await signUp();
    const other = await signUp('another-secret-two');
    expect(await codeOf(call(IdentityRpc.confirmIdentity, { currentPassword: PASSWORD }))).toBe('UNAUTHENTICATED');
    // The password checked is always the token's account's: this account's password proves nothing for another's session.
    expect(await codeOf(call(IdentityRpc.confirmIdentity, { currentPassword: PASSWORD }, other.accessToken))).toBe('VALIDATION_FAILED');
    expect(((await call(IdentityRpc.confirmIdentity, { currentPassword: 'another-secret-two' }, other.accessToken)) as SessionView).profile.id).toBe(other.profile.id);
    await call(IdentityRpc.signOut, { refreshToken: session.refreshToken }, session.accessToken);
    expect(await codeOf(call(IdentityRpc.confirmIdentity, { currentPassword: PASSWORD }, session.accessToken))).toBe('SESSION_EXPIRED');
  });
});
