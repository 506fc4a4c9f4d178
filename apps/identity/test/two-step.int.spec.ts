import { randomUUID } from 'node:crypto';
import { IdentityRpc, TwoStepMessages, type IssuedSession, type RpcDeclaration } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import { generateTestKeys } from '@lv/testing';
import { asSession, type IdentityHarness, startIdentity } from './test-support/harness.js';
import type { IdentityConfig } from '../src/config.js';
import { totpAt } from '../src/two-step/totp.js';

// Two-step sign-in (issue 32) against identity over NATS on real PostgreSQL and Redis: the set-up, a
// sign-in that needs the second step, recovery codes, and every way a second step is refused. The
// codes are computed here from the secret, as an authenticator app computes them.

const keys = generateTestKeys();
const PASSWORD = 'secret-one';
/** The step after the current one: a code the app shows within 30 s, never used by an earlier call of the same step. */
const nextCode = (secret: string) => totpAt(secret, Date.now() + 30_000);

describe('identity two-step sign-in', () => {
  let identity: RunningService<IdentityConfig>;
  let rpc: RpcClient;
  let addressSeq = 0;
  const freshAddress = () => `10.202.${Math.floor(addressSeq / 250) % 250}.${(addressSeq++ % 250) + 1}`;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, accessToken?: string, ip = freshAddress()) =>
    rpc.callUnchecked(declaration, payload, { accessToken, meta: { requestId: 'test', ip } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  let n = 0;
  const newEmail = () => `twostep.${Date.now()}.${n++}@example.com`;
  const sql = <T>(query: string, params: unknown[] = []) => identity.core.orm.em.fork().execute<T[]>(query, params);
  const sessionsOf = async (userId: string) => (await sql<{ n: number }>('select count(*)::int as n from sessions where user_id = ?', [userId]))[0]!.n;

  /** An account with two-step on: its secret as the app holds it, and its ten recovery codes. */
  async function enrolled() {
    const email = newEmail();
    const session = await call(IdentityRpc.signUp, { email, password: PASSWORD });
    const { secret, otpauthUri } = await call(IdentityRpc.twoStepSetup, {}, session.accessToken);
    expect(otpauthUri).toContain(`secret=${secret}`);
    const { recoveryCodes } = await call(IdentityRpc.twoStepConfirm, { code: totpAt(secret, Date.now()) }, session.accessToken);
    return { email, secret, recoveryCodes, session, userId: session.profile.id };
  }

  const passwordStep = async (email: string, ip?: string) => {
    const reply = await call(IdentityRpc.signIn, { email, password: PASSWORD }, undefined, ip);
    if (!('twoStepRequired' in reply)) throw new Error('the password alone opened a session');
    return reply.challenge;
  };

  let harness: IdentityHarness;
  beforeAll(async () => {
    harness = await startIdentity('identity2fa', keys, { SIGNIN_WINDOW_SECONDS: '60' });
    ({ identity, rpc } = harness);
  });

  afterAll(() => harness?.close());

  it('sets up with a code of the new secret, shows ten recovery codes once, and keeps no secret or code in clear', async () => {
    const email = newEmail();
    const session = await call(IdentityRpc.signUp, { email, password: PASSWORD });
    expect(await call(IdentityRpc.twoStepStatus, {}, session.accessToken)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    await expect(call(IdentityRpc.twoStepConfirm, { code: '123456' }, session.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { code: TwoStepMessages.setupFirst } } });

    const { secret, otpauthUri } = await call(IdentityRpc.twoStepSetup, {}, session.accessToken);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(`otpauth://totp/Legacy%20Vault:${encodeURIComponent(email)}?secret=${secret}&issuer=Legacy+Vault&algorithm=SHA1&digits=6&period=30`);
    // Not on until a code proves the app holds the secret.
    expect(asSession(await call(IdentityRpc.signIn, { email, password: PASSWORD })).profile.email).toBe(email);
    const wrong = totpAt(secret, Date.now() - 5 * 60_000);
    await expect(call(IdentityRpc.twoStepConfirm, { code: wrong }, session.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { code: TwoStepMessages.codeWrong } } });

    const { recoveryCodes } = await call(IdentityRpc.twoStepConfirm, { code: totpAt(secret, Date.now()) }, session.accessToken);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await call(IdentityRpc.twoStepStatus, {}, session.accessToken)).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect(await codeOf(call(IdentityRpc.twoStepSetup, {}, session.accessToken))).toBe('CONFLICT');

    // Nowhere in clear: not in the events, not in the two-step tables.
    const stored = JSON.stringify([
      await sql('select type, data from events where stream_id = ?', [`user-${session.profile.id}`]),
      await sql('select * from two_step where user_id = ?', [session.profile.id]),
      await sql('select * from two_step_recovery_codes where user_id = ?', [session.profile.id]),
    ]);
    expect(stored).toContain('TwoStepEnabled');
    expect(stored).not.toContain(secret);
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
  });

  it('opens no session on the password alone; the challenge and a current code do, once', async () => {
    const { email, secret, userId } = await enrolled();
    const before = await sessionsOf(userId);
    const reply = await call(IdentityRpc.signIn, { email, password: PASSWORD });
    expect(reply).toEqual({ twoStepRequired: true, challenge: expect.stringMatching(/^[0-9a-f-]{36}\./), challengeExpiresAt: expect.any(Number) });
    expect(reply).not.toHaveProperty('accessToken');
    expect(reply).not.toHaveProperty('refreshToken');
    expect(await sessionsOf(userId)).toBe(before);
    const challenge = 'challenge' in reply ? reply.challenge : '';

    const code = nextCode(secret);
    const session: IssuedSession = await call(IdentityRpc.signInTwoStep, { challenge, code });
    expect(session.profile.email).toBe(email);
    expect(await codeOf(call(IdentityRpc.getMe, {}, session.accessToken))).toBe('OK');
    expect(await sessionsOf(userId)).toBe(before + 1);

    // The challenge is used; the code too (replayed with a fresh challenge).
    expect(await codeOf(call(IdentityRpc.signInTwoStep, { challenge, code }))).toBe('TWO_STEP_INVALID');
    expect(await codeOf(call(IdentityRpc.signInTwoStep, { challenge: await passwordStep(email), code }))).toBe('TWO_STEP_INVALID');
    expect(await sessionsOf(userId)).toBe(before + 1);
  });

  it('refuses a wrong code, and a lapsed, altered or another account’s challenge, all alike', async () => {
    const owner = await enrolled();
    const other = await enrolled();
    const refusals: unknown[] = [];
    const refusal = (payload: { challenge: string; code: string }) => call(IdentityRpc.signInTwoStep, payload).then(
      () => 'OK',
      (e: DomainError) => ({ code: e.code, message: e.message }),
    );

    const challenge = await passwordStep(owner.email);
    refusals.push(await refusal({ challenge, code: totpAt(owner.secret, Date.now() - 10 * 60_000) }));
    refusals.push(await refusal({ challenge, code: 'aaaaa-bbbbb' }));
    // Altered: one character of the secret part changed; an id of no challenge; not shaped like one.
    const last = challenge.at(-1) === 'A' ? 'B' : 'A';
    refusals.push(await refusal({ challenge: `${challenge.slice(0, -1)}${last}`, code: nextCode(owner.secret) }));
    refusals.push(await refusal({ challenge: `${randomUUID()}.${challenge.split('.')[1]}`, code: nextCode(owner.secret) }));
    refusals.push(await refusal({ challenge: 'not-a-challenge', code: nextCode(owner.secret) }));
    // Another account's challenge with this owner's code, and this owner's challenge with the other's code.
    refusals.push(await refusal({ challenge: await passwordStep(other.email), code: nextCode(owner.secret) }));
    refusals.push(await refusal({ challenge, code: nextCode(other.secret) }));
    // Lapsed: its five minutes are over.
    const lapsed = await passwordStep(owner.email);
    await sql(`update two_step_challenges set expires_at = now() - interval '1 second' where id = ?`, [lapsed.split('.')[0]]);
    refusals.push(await refusal({ challenge: lapsed, code: nextCode(owner.secret) }));

    expect(refusals).toHaveLength(8);
    for (const r of refusals) expect(r).toEqual({ code: 'TWO_STEP_INVALID', message: TwoStepMessages.signInRefused });
    expect(await sessionsOf(owner.userId)).toBe(1);

    // The wrong codes did not use the challenge up: the right code still opens the session.
    expect((await call(IdentityRpc.signInTwoStep, { challenge, code: nextCode(owner.secret) })).profile.id).toBe(owner.userId);
  });

  it('takes a recovery code once, in any case and spacing; used, it is gone', async () => {
    const { email, recoveryCodes, userId, session } = await enrolled();
    const [code] = recoveryCodes;
    const first = await call(IdentityRpc.signInTwoStep, { challenge: await passwordStep(email), code: ` ${code!.toUpperCase()} ` });
    expect(first.profile.id).toBe(userId);
    expect(await call(IdentityRpc.twoStepStatus, {}, session.accessToken)).toEqual({ enabled: true, recoveryCodesLeft: 9 });
    expect(await codeOf(call(IdentityRpc.signInTwoStep, { challenge: await passwordStep(email), code: code! }))).toBe('TWO_STEP_INVALID');
    // Another of the codes still works.
    expect((await call(IdentityRpc.signInTwoStep, { challenge: await passwordStep(email), code: recoveryCodes[1]! })).profile.id).toBe(userId);
  });

  it('counts second-step codes like passwords: five wrong from one address, then even the right one waits', async () => {
    const { email, secret } = await enrolled();
    const ip = '10.203.0.1';
    const challenge = await passwordStep(email, ip);
    const wrong = totpAt(secret, Date.now() - 10 * 60_000);
    for (let i = 0; i < 5; i++) expect(await codeOf(call(IdentityRpc.signInTwoStep, { challenge, code: wrong }, undefined, ip))).toBe('TWO_STEP_INVALID');
    const limited = await call(IdentityRpc.signInTwoStep, { challenge, code: nextCode(secret) }, undefined, ip).catch((e: DomainError) => e);
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', message: TwoStepMessages.tooManyCodes, details: { retryAfter: expect.any(Number) } });
  });

  it('makes new recovery codes with a current code, and turns off with the password and a code', async () => {
    const { email, secret, recoveryCodes, session, userId } = await enrolled();
    expect(await codeOf(call(IdentityRpc.twoStepRegenerate, { code: recoveryCodes[0] }, session.accessToken))).toBe('VALIDATION_FAILED');
    const { recoveryCodes: fresh } = await call(IdentityRpc.twoStepRegenerate, { code: nextCode(secret) }, session.accessToken);
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);
    expect(await codeOf(call(IdentityRpc.signInTwoStep, { challenge: await passwordStep(email), code: recoveryCodes[2]! }))).toBe('TWO_STEP_INVALID');

    await expect(call(IdentityRpc.twoStepDisable, { currentPassword: 'wrong-password', code: fresh[0] }, session.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { currentPassword: expect.any(String) } } });
    await expect(call(IdentityRpc.twoStepDisable, { currentPassword: PASSWORD, code: '000000' }, session.accessToken)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { code: TwoStepMessages.codeWrong } } });
    expect(await call(IdentityRpc.twoStepDisable, { currentPassword: PASSWORD, code: fresh[0] }, session.accessToken)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(await call(IdentityRpc.twoStepStatus, {}, session.accessToken)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    // The secret's key went with it; the password alone signs in again.
    expect(await sql('select 1 from two_step_keys where user_id = ?', [userId])).toEqual([]);
    expect(asSession(await call(IdentityRpc.signIn, { email, password: PASSWORD })).profile.id).toBe(userId);
    const types = (await sql<{ type: string }>('select type from events where stream_id = ? order by version', [`user-${userId}`])).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['TwoStepEnabled', 'RecoveryCodesRegenerated', 'TwoStepDisabled']));
  });
});
