import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AuthMessages, ErrorCodes, IdentityRpc, NewSignInMessages, ResetMessages, type AccountEmailJob, type IssuedSession } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import type { RunningService, RpcClient } from '@lv/platform/nest';
import { generateTestKeys, waitFor } from '@lv/testing';
import { PasswordHasher } from '../src/credentials/password-hasher.js';
import { asSession, startMailingIdentity, type MailingIdentity } from './test-support/harness.js';
import type { IdentityConfig } from '../src/config.js';

// Account recovery and the sessions list against identity over NATS: "Forgot password?" answers alike
// for every address, the e-mail job carries a sealed single-use link, a reset ends every session, and
// every bad link (used, expired, altered, another account's) gets the same refusal.

const keys = generateTestKeys();
const TTL_SECONDS = 8;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('identity account recovery and sessions', () => {
  let harness: MailingIdentity;
  let identity: RunningService<IdentityConfig>;
  let rpc: RpcClient;
  let emails: MailingIdentity['emails'];
  let caller: MailingIdentity['caller'];
  const call: MailingIdentity['caller']['call'] = (...args) => caller.call(...args);
  const failureOf = (promise: Promise<unknown>) => promise.then(() => null, (e: DomainError) => ({ code: e.code, message: e.message }));
  const codeOf = async (promise: Promise<unknown>) => (await failureOf(promise))?.code ?? 'OK';
  let n = 0;
  const newEmail = (stem = 'dad') => `${stem}.${Date.now()}.${n++}@example.com`;
  const PASSWORD = 'lantern-on-the-hill';
  const signUp = (email: string, userAgent?: string) => call(IdentityRpc.signUp, { email, password: PASSWORD }, undefined, userAgent);
  const signIn = (email: string, password = PASSWORD, userAgent?: string) => call(IdentityRpc.signIn, { email, password }, undefined, userAgent).then(asSession);

  /** The e-mail jobs queued for an address, oldest first. */
  const jobsFor = (to: string, kind: AccountEmailJob['kind']) => emails.jobsFor(to, kind);

  /** Asks for a reset and opens the link of the e-mail job it queues, as notifications would. */
  async function resetLink(email: string): Promise<{ token: string; job: AccountEmailJob }> {
    const before = (await jobsFor(email, 'password-reset')).length;
    expect(await call(IdentityRpc.forgotPassword, { email })).toEqual({ message: ResetMessages.requested });
    await waitFor(async () => (await jobsFor(email, 'password-reset')).length > before, 10_000, `a reset e-mail job for ${email}`);
    const job = (await jobsFor(email, 'password-reset')).at(-1)!;
    const path = emails.linkOf(job);
    expect(path).toMatch(/^\/reset-password#/);
    const fragment = new URLSearchParams(path.split('#')[1]);
    expect(fragment.get('email')).toBe(email);
    return { token: fragment.get('token')!, job };
  }

  beforeAll(async () => {
    harness = await startMailingIdentity('identityrecovery', keys, 202, { PASSWORD_RESET_TTL_SECONDS: String(TTL_SECONDS), PASSWORD_RESETS_PER_EMAIL: '3', PASSWORD_RESETS_PER_ADDRESS: '100000' });
    ({ identity, rpc, emails, caller } = harness);
  });

  afterAll(() => harness?.close());

  it('refuses short, common and repeated passwords at sign-up, change and reset, with the field and the words', async () => {
    for (const [password, words] of [['123456', AuthMessages.newPasswordTooShort], ['aaaaaa', AuthMessages.newPasswordTooShort], ['password', AuthMessages.passwordTooCommon], ['Password1', AuthMessages.passwordTooCommon], ['zzzzzzzzzz', AuthMessages.passwordTooCommon]] as const) {
      await expect(call(IdentityRpc.signUp, { email: newEmail(), password })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { password: words } } });
    }
    const email = newEmail();
    const session = await signUp(email);
    await expect(call(IdentityRpc.changePassword, { currentPassword: PASSWORD, newPassword: 'iloveyou' }, session.accessToken))
      .rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { newPassword: AuthMessages.passwordTooCommon } } });
    const { token } = await resetLink(email);
    await expect(call(IdentityRpc.resetPassword, { email, token, newPassword: 'qwertyuiop' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { newPassword: AuthMessages.passwordTooCommon } } });
    // A refused password does not use the link up.
    expect(await codeOf(call(IdentityRpc.resetPassword, { email, token, newPassword: 'a-kite-over-the-bay' }))).toBe('OK');
  });

  it('asks an account whose password predates the rules for a new one at each sign-in, until it is changed', async () => {
    const email = newEmail();
    const { profile } = await signUp(email);
    // As an account made before the rules would be: its password is one sign-up now refuses.
    await identity.core.orm.em.fork().execute('update credentials set password_hash = ? where user_id = ?', [await new PasswordHasher().hash('123456'), profile.id]);
    for (let i = 0; i < 2; i++) expect(await signIn(email, '123456')).toMatchObject({ passwordChangeRequired: true, profile: { id: profile.id } });
    const session = await signIn(email, '123456');
    await call(IdentityRpc.changePassword, { currentPassword: '123456', newPassword: 'a-kite-over-the-bay' }, session.accessToken);
    expect(await signIn(email, 'a-kite-over-the-bay')).not.toHaveProperty('passwordChangeRequired');
    expect(await signIn(email, PASSWORD).catch((e: DomainError) => e.code)).toBe('INVALID_CREDENTIALS');
  });

  it('tells the owner of a sign-in from a browser the account had not seen; "this wasn\'t me" signs everyone out once and sends a reset link', async () => {
    const email = newEmail();
    const first = await signUp(email, CHROME);
    // A browser the gateway vouches for (its lv_device cookie) signs in quietly; so does signing up.
    const known = asSession(await rpc.callUnchecked(IdentityRpc.signIn, { email, password: PASSWORD }, { meta: { requestId: 'test', ip: caller.nextAddress(), userAgent: CHROME, device: 'AAAAAAAAAAAAAAAAAAAAAA' } }));
    expect(await jobsFor(email, 'new-sign-in')).toEqual([]);
    const stranger = await signIn(email, PASSWORD, FIREFOX);
    const [alert, ...more] = await jobsFor(email, 'new-sign-in');
    expect(more).toEqual([]);
    expect(alert).toMatchObject({ device: 'Firefox on Linux', to: email });
    expect(Date.parse(alert!.expiresAt!) - Date.parse(alert!.at)).toBe(7 * 24 * 3600 * 1000);
    const path = emails.linkOf(alert!);
    expect(path).toMatch(/^\/not-me#token=/);
    const token = new URLSearchParams(path.split('#')[1]).get('token')!;
    expect(JSON.stringify(alert)).not.toContain(token);

    const resetsBefore = (await jobsFor(email, 'password-reset')).length;
    // Altered, or of no alert: refused alike, and nothing ends.
    for (const bad of [`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, `${randomUUID()}.${'A'.repeat(43)}`, 'nonsense']) {
      expect(await failureOf(call(IdentityRpc.disownSignIn, { token: bad }))).toEqual({ code: 'SIGN_IN_ALERT_LINK_INVALID', message: ErrorCodes.SIGN_IN_ALERT_LINK_INVALID.message });
    }
    expect(await codeOf(call(IdentityRpc.getMe, {}, stranger.accessToken))).toBe('OK');
    expect(await call(IdentityRpc.disownSignIn, { token })).toEqual({ message: NewSignInMessages.disowned, sessionsEnded: 3 });
    for (const session of [first, known, stranger]) {
      expect(await codeOf(call(IdentityRpc.getMe, {}, session.accessToken))).toBe('SESSION_EXPIRED');
      expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: session.refreshToken }))).toBe('SESSION_EXPIRED');
    }
    expect((await jobsFor(email, 'password-reset')).length).toBe(resetsBefore + 1);
    // Once only.
    expect(await codeOf(call(IdentityRpc.disownSignIn, { token }))).toBe('SIGN_IN_ALERT_LINK_INVALID');
  });

  it('answers "Forgot password?" alike for an account and for no account, and queues a link only for the account', async () => {
    const email = newEmail();
    await signUp(email);
    const unknown = newEmail('nobody');
    // The unknown address first: by the time the account's job is there, its lighter work is done too.
    const none = await call(IdentityRpc.forgotPassword, { email: unknown });
    const known = await call(IdentityRpc.forgotPassword, { email: ` ${email.toUpperCase()} ` });
    expect(known).toEqual(none);
    await waitFor(async () => (await jobsFor(email, 'password-reset')).length === 1, 10_000, 'the reset e-mail job');
    expect(await jobsFor(unknown, 'password-reset')).toEqual([]);
    const [job] = await jobsFor(email, 'password-reset');
    expect(Date.parse(job!.expiresAt!) - Date.parse(job!.at)).toBe(TTL_SECONDS * 1000);
    // Neither the job nor the database holds the token in the clear: the job's link is sealed, the table keeps its SHA-256.
    const path = emails.linkOf(job!);
    const token = new URLSearchParams(path.split('#')[1]).get('token')!;
    expect(JSON.stringify(job)).not.toContain(token);
    const em = identity.core.orm.em.fork();
    const [row] = await em.execute<{ token_hash: string }[]>('select token_hash from password_resets where id = ?', [job!.emailId]);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const events = await em.execute<{ type: string; data: unknown }[]>("select type, data from events where type like 'PasswordReset%'");
    expect(JSON.stringify(events)).not.toContain(token.split('.')[1]);
  });

  it('limits requests per address asked about, whether or not it has an account', async () => {
    const email = newEmail();
    await signUp(email);
    const unknown = newEmail('nobody');
    for (const address of [email, unknown]) {
      for (let i = 0; i < 3; i++) expect(await codeOf(call(IdentityRpc.forgotPassword, { email: address }))).toBe('OK');
      const refused = await call(IdentityRpc.forgotPassword, { email: address }).catch((e: DomainError) => e);
      expect(refused).toMatchObject({ code: 'RATE_LIMITED', message: ResetMessages.tooManyRequests });
      expect((refused as DomainError).details).toMatchObject({ retryAfter: expect.any(Number) });
    }
  });

  it("a reset is the owner's way through the account's sign-in ceiling that strangers filled; their addresses stay limited", async () => {
    const email = newEmail();
    await signUp(email);
    const strangers = Array.from({ length: 6 }, () => caller.nextAddress());
    const signInFrom = (ip: string, password: string) =>
      rpc.callUnchecked(IdentityRpc.signIn, { email, password }, { meta: { requestId: 'test', ip } });
    // Wrong guesses from six addresses until the account's ceiling (25) is spent.
    let guesses = 0;
    for (const ip of strangers) {
      for (let i = 0; i < 5 && guesses < 25; i++, guesses++) expect(await codeOf(signInFrom(ip, `guess-number-${guesses}`))).toBe('INVALID_CREDENTIALS');
    }
    const blocked = await failureOf(signIn(email));
    expect(blocked).toEqual({ code: 'RATE_LIMITED', message: AuthMessages.tooManySignIns });
    expect(AuthMessages.tooManySignIns).toContain('Forgot password?');
    const { token } = await resetLink(email);
    await call(IdentityRpc.resetPassword, { email, token, newPassword: 'harbour-lights-at-dusk' });
    expect(await codeOf(signIn(email, 'harbour-lights-at-dusk'))).toBe('OK');
    // A stranger's own address is still spent: the reset forgave the account's ceiling, not them.
    expect(await codeOf(signInFrom(strangers[0]!, 'harbour-lights-at-dusk'))).toBe('RATE_LIMITED');
  });

  it('a reset sets the new password, ends every session and queues the "password changed" notice', async () => {
    const email = newEmail();
    const laptop = await signUp(email);
    const phone = await signIn(email);
    const { token } = await resetLink(email);
    expect(await call(IdentityRpc.resetPassword, { email, token, newPassword: 'a-kite-over-the-bay' })).toEqual({ message: ResetMessages.done, sessionsEnded: 2 });
    for (const session of [laptop, phone]) {
      expect(await codeOf(call(IdentityRpc.getMe, {}, session.accessToken))).toBe('SESSION_EXPIRED');
      expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: session.refreshToken }))).toBe('SESSION_EXPIRED');
    }
    expect(await codeOf(signIn(email))).toBe('INVALID_CREDENTIALS');
    expect(await codeOf(signIn(email, 'a-kite-over-the-bay'))).toBe('OK');
    await waitFor(async () => (await jobsFor(email, 'password-changed')).length === 1, 10_000, 'the password-changed notice job');
    const types = (await identity.core.orm.em.fork().execute<{ type: string }[]>('select type from events where stream_id = ? order by version', [`user-${laptop.profile.id}`])).map((e) => e.type);
    expect(types).toEqual(['UserRegistered', 'EmailVerificationRequested', 'PasswordResetRequested', 'PasswordResetUsed', 'PasswordChanged']);
  });

  it('refuses a link used twice, expired, altered, another account\'s or made up, all with the same answer, and changes nothing', async () => {
    const email = newEmail();
    const other = newEmail('other');
    await signUp(email);
    await signUp(other);
    const used = await resetLink(email);
    expect(await codeOf(call(IdentityRpc.resetPassword, { email, token: used.token, newPassword: 'first-new-password' }))).toBe('OK');
    const open = await resetLink(email);
    const othersLink = await resetLink(other);
    const last = open.token.at(-1) === 'A' ? 'B' : 'A';
    const attempts: Record<string, { email: string; token: string }> = {
      'used twice': { email, token: used.token },
      altered: { email, token: `${open.token.slice(0, -1)}${last}` },
      "another account's, with this address": { email, token: othersLink.token },
      "this account's, with another address": { email: other, token: open.token },
      'made up': { email, token: `${crypto.randomUUID()}.${'x'.repeat(43)}` },
      'not a token': { email, token: 'nonsense' },
    };
    const expected = { code: 'RESET_LINK_INVALID', message: ErrorCodes.RESET_LINK_INVALID.message };
    for (const [what, attempt] of Object.entries(attempts)) {
      expect({ what, failure: await failureOf(call(IdentityRpc.resetPassword, { ...attempt, newPassword: 'second-new-password' })) }).toEqual({ what, failure: expected });
    }
    expect(await codeOf(signIn(email, 'first-new-password'))).toBe('OK');
    expect(await codeOf(signIn(other))).toBe('OK');

    // Expired: the open link after its time (TTL_SECONDS in this spec), by the clock, not by a sleep of a guessed length.
    await waitFor(() => Date.now() > Date.parse(open.job.expiresAt!) + 50, (TTL_SECONDS + 5) * 1000, 'the link to lapse');
    expect(await failureOf(call(IdentityRpc.resetPassword, { email, token: open.token, newPassword: 'second-new-password' }))).toEqual(expected);
    expect(await codeOf(signIn(email, 'first-new-password'))).toBe('OK');
  }, 40_000);

  it('a reset ends the own sign-in budget of every device known before it, until it signs in with the new password', async () => {
    const email = newEmail();
    await signUp(email);
    const device = 'exs-laptop-0123456789abc';
    const attempt = (password: string, ip: string) => codeOf(rpc.callUnchecked(IdentityRpc.signIn, { email, password }, { meta: { requestId: 'test', ip, device } }));
    // Known before the reset: its own budget of 10, beyond one address's 5.
    expect(await attempt(PASSWORD, '10.203.0.1')).toBe('OK');
    for (let i = 0; i < 6; i++) expect(await attempt('wrong-guess', '10.203.0.1')).toBe('INVALID_CREDENTIALS');
    const { token } = await resetLink(email);
    expect(await codeOf(call(IdentityRpc.resetPassword, { email, token, newPassword: 'a-kite-over-the-bay' }))).toBe('OK');
    // After it: the shared budgets, like any unknown browser (5 from one address).
    for (let i = 0; i < 5; i++) expect(await attempt('wrong-guess', '10.203.0.2')).toBe('INVALID_CREDENTIALS');
    expect(await attempt('wrong-guess', '10.203.0.2')).toBe('RATE_LIMITED');
    // The owner's device earns its budget back by signing in with the new password.
    expect(await attempt('a-kite-over-the-bay', '10.203.0.3')).toBe('OK');
    // From the address whose shared budget is spent, it is charged to its own again.
    expect(await attempt('wrong-guess', '10.203.0.2')).toBe('INVALID_CREDENTIALS');
  });

  it('a password changed in settings voids every open reset link', async () => {
    const email = newEmail();
    const session = await signUp(email);
    const { token } = await resetLink(email);
    expect(await codeOf(call(IdentityRpc.changePassword, { currentPassword: PASSWORD, newPassword: 'a-new-lantern-2026' }, session.accessToken))).toBe('OK');
    expect(await codeOf(call(IdentityRpc.resetPassword, { email, token, newPassword: 'someone-elses-choice' }))).toBe('RESET_LINK_INVALID');
    await waitFor(async () => (await jobsFor(email, 'password-changed')).length === 1, 10_000, 'the password-changed notice job');
  });

  it('lists the live sessions with their browser, marks the caller\'s, and signs one or every other out', async () => {
    const email = newEmail();
    const here = await signUp(email, FIREFOX);
    const work = await signIn(email, PASSWORD, CHROME);
    const third = await signIn(email, PASSWORD);
    const { sessions } = await call(IdentityRpc.sessions, {}, here.accessToken);
    expect(sessions).toHaveLength(3);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(byId.get(here.sessionId)).toMatchObject({ device: 'Firefox on Linux', current: true });
    expect(byId.get(work.sessionId)).toMatchObject({ device: 'Chrome on Windows', current: false });
    expect(byId.get(third.sessionId)).toMatchObject({ device: 'Unknown browser', current: false });
    for (const s of sessions) expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));

    // Another account cannot end this one's session, nor learn that it exists.
    const stranger: IssuedSession = await signUp(newEmail('stranger'));
    expect(await codeOf(call(IdentityRpc.endSession, { sessionId: work.sessionId }, stranger.accessToken))).toBe('NOT_FOUND');
    expect(await codeOf(call(IdentityRpc.getMe, {}, work.accessToken))).toBe('OK');

    expect(await call(IdentityRpc.endSession, { sessionId: work.sessionId }, here.accessToken)).toEqual({ sessionsEnded: 1 });
    expect(await codeOf(call(IdentityRpc.getMe, {}, work.accessToken))).toBe('SESSION_EXPIRED');
    expect(await codeOf(call(IdentityRpc.endSession, { sessionId: work.sessionId }, here.accessToken))).toBe('NOT_FOUND');

    const again = await signIn(email, PASSWORD, CHROME);
    expect(await call(IdentityRpc.endOtherSessions, {}, here.accessToken)).toEqual({ sessionsEnded: 2 });
    for (const s of [third, again]) expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: s.refreshToken }))).toBe('SESSION_EXPIRED');
    expect((await call(IdentityRpc.sessions, {}, here.accessToken)).sessions.map((s) => s.id)).toEqual([here.sessionId]);
  });

  it('takes the same time for an address with an account as for one without (50 of each, interleaved)', async () => {
    const existing: string[] = [];
    for (let i = 0; i < 50; i++) {
      const email = newEmail('timed');
      await signUp(email);
      existing.push(email);
    }
    const timings = { existing: [] as number[], unknown: [] as number[] };
    const replies = new Set<string>();
    for (let i = 0; i < 50; i++) {
      for (const [kind, email] of [['existing', existing[i]!], ['unknown', newEmail('ghost')]] as const) {
        const started = performance.now();
        const reply = await call(IdentityRpc.forgotPassword, { email });
        timings[kind].push(performance.now() - started);
        replies.add(JSON.stringify(reply));
      }
    }
    expect([...replies]).toEqual([JSON.stringify({ message: ResetMessages.requested })]);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const difference = Math.abs(median(timings.existing) - median(timings.unknown));
    console.info(`forgot-password medians: existing ${median(timings.existing).toFixed(2)} ms, unknown ${median(timings.unknown).toFixed(2)} ms, difference ${difference.toFixed(2)} ms`);
    expect(difference).toBeLessThan(5);
    await waitFor(async () => (await jobsFor(existing[49]!, 'password-reset')).length === 1, 20_000, 'the last reset e-mail job');
  }, 60_000);
});
