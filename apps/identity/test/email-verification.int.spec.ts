import { EmailChangeMessages, EmailVerifyMessages, ErrorCodes, IdentityRpc, type AccessTokenClaims, type AccountEmailJob } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import type { RunningService } from '@lv/platform/nest';
import { generateTestKeys, waitFor } from '@lv/testing';
import { asSession, startMailingIdentity, type MailingIdentity } from './test-support/harness.js';
import type { IdentityConfig } from '../src/config.js';

// Verifying a new account's address against identity over NATS: sign-up e-mails a single-use link
// (only its hash stored), the link verifies the address and the next access token says so (the claim
// the other services read), a resend replaces the link and is limited per account, and every bad link
// (used twice, expired, altered, replaced, another account's) is refused alike.

const keys = generateTestKeys();
/** Short, so the expired case waits seconds, not a day; the 24-hour default is checked on the config. */
const TTL_SECONDS = 6;

describe('identity e-mail verification', () => {
  let harness: MailingIdentity;
  let identity: RunningService<IdentityConfig>;
  let emails: MailingIdentity['emails'];
  let caller: MailingIdentity['caller'];
  const call: MailingIdentity['caller']['call'] = (...args) => caller.call(...args);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const failureOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => ({ code: e.code, message: e.message }));
  const invalid = { code: 'EMAIL_VERIFY_LINK_INVALID', message: ErrorCodes.EMAIL_VERIFY_LINK_INVALID.message };
  let n = 0;
  const newEmail = (stem = 'dad') => `${stem}.${Date.now()}.${n++}@example.com`;
  const PASSWORD = 'lantern-on-the-hill';
  const signUp = (email: string) => call(IdentityRpc.signUp, { email, password: PASSWORD });
  const claimsOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as AccessTokenClaims;
  const jobsFor = (to: string, kind: AccountEmailJob['kind']) => emails.jobsFor(to, kind);

  /** The latest verification link sent to that address: its job and token, opened as notifications would. */
  async function verifyLink(to: string): Promise<{ job: AccountEmailJob; token: string }> {
    const job = (await jobsFor(to, 'verify-email')).at(-1);
    expect(job).toBeDefined();
    const path = emails.linkOf(job!);
    expect(path.startsWith('/verify-email#')).toBe(true);
    const token = new URLSearchParams(path.split('#')[1]).get('token')!;
    expect(JSON.stringify(job)).not.toContain(token);
    return { job: job!, token };
  }

  beforeAll(async () => {
    harness = await startMailingIdentity('identityverify', keys, 204, { EMAIL_VERIFY_TTL_SECONDS: String(TTL_SECONDS) });
    ({ identity, emails, caller } = harness);
  });

  afterAll(() => harness?.close());

  it('sends a new account a single-use link; opening it verifies the address, and the next access token says so', async () => {
    const email = newEmail();
    const session = await signUp(email);
    expect(session.profile.emailVerified).toBe(false);
    expect(claimsOf(session.accessToken).emailVerified).toBe(false);
    const { job, token } = await verifyLink(email);
    expect(Date.parse(job.expiresAt!) - Date.parse(job.at)).toBe(TTL_SECONDS * 1000);
    // Only the hash is stored.
    const rows = await identity.core.orm.em.fork().execute<{ token_hash: string }[]>('select token_hash from email_verifications where user_id = ?', [session.profile.id]);
    expect(rows.map((row) => row.token_hash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(rows[0]!.token_hash).not.toContain(token.split('.')[1]);

    expect(await call(IdentityRpc.verifyEmail, { token })).toEqual({ message: EmailVerifyMessages.verified });
    expect((await call(IdentityRpc.getMe, {}, session.accessToken)).emailVerified).toBe(true);
    // The token already held keeps its claim until it is renewed: refresh picks the change up.
    expect(claimsOf(session.accessToken).emailVerified).toBe(false);
    const refreshed = await call(IdentityRpc.refresh, { refreshToken: session.refreshToken });
    expect(refreshed.profile.emailVerified).toBe(true);
    expect(claimsOf(refreshed.accessToken).emailVerified).toBe(true);
    expect(claimsOf(asSession(await call(IdentityRpc.signIn, { email, password: PASSWORD })).accessToken).emailVerified).toBe(true);
    // Used once.
    expect(await failureOf(call(IdentityRpc.verifyEmail, { token }))).toEqual(invalid);
  });

  it('refuses a link used twice, altered, replaced, another account\'s or made up, all alike, and verifies nothing', async () => {
    const email = newEmail();
    const other = newEmail('other');
    const session = await signUp(email);
    await signUp(other);
    const replaced = await verifyLink(email);
    // A resend replaces the link: only the newest one works.
    expect(await call(IdentityRpc.resendVerification, {}, session.accessToken)).toEqual({ message: EmailVerifyMessages.sent(email) });
    await waitFor(async () => (await jobsFor(email, 'verify-email')).length === 2, 10_000, 'the resent link');
    const open = await verifyLink(email);
    const othersLink = await verifyLink(other);
    const last = open.token.at(-1) === 'A' ? 'B' : 'A';
    const attempts: Record<string, string> = {
      replaced: replaced.token,
      altered: `${open.token.slice(0, -1)}${last}`,
      "another account's id with this link's secret": `${othersLink.token.split('.')[0]}.${open.token.split('.')[1]}`,
      'made up': `${crypto.randomUUID()}.${'x'.repeat(43)}`,
      'not a token': 'nonsense',
    };
    for (const [what, token] of Object.entries(attempts)) {
      expect({ what, failure: await failureOf(call(IdentityRpc.verifyEmail, { token })) }).toEqual({ what, failure: invalid });
    }
    expect((await call(IdentityRpc.getMe, {}, session.accessToken)).emailVerified).toBe(false);
    expect(await call(IdentityRpc.verifyEmail, { token: open.token })).toEqual({ message: EmailVerifyMessages.verified });
    expect(await failureOf(call(IdentityRpc.verifyEmail, { token: open.token }))).toEqual(invalid);
    // The other account is untouched by all of it.
    expect(asSession(await call(IdentityRpc.signIn, { email: other, password: PASSWORD })).profile.emailVerified).toBe(false);
  });

  it('refuses an expired link alike', async () => {
    const email = newEmail();
    const session = await signUp(email);
    const { job, token } = await verifyLink(email);
    // By the clock, not by a sleep of a guessed length.
    await waitFor(() => Date.now() > Date.parse(job.expiresAt!) + 50, (TTL_SECONDS + 5) * 1000, 'the link to lapse');
    expect(await failureOf(call(IdentityRpc.verifyEmail, { token }))).toEqual(invalid);
    expect((await call(IdentityRpc.getMe, {}, session.accessToken)).emailVerified).toBe(false);
  }, 30_000);

  it('limits resends to 3 an hour per account (429 with Retry-After), needs a signed-in owner, and sends none once verified', async () => {
    const email = newEmail();
    const session = await signUp(email);
    for (let i = 0; i < 3; i++) expect(await codeOf(call(IdentityRpc.resendVerification, {}, session.accessToken))).toBe('OK');
    const refused: unknown = await call(IdentityRpc.resendVerification, {}, session.accessToken).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', message: EmailVerifyMessages.tooManyResends });
    expect((refused as DomainError).details).toMatchObject({ retryAfter: expect.any(Number) });
    expect(((refused as DomainError).details as { retryAfter: number }).retryAfter).toBeGreaterThan(3500);
    // Sign-up's link and three resends; the refused one sent nothing.
    await waitFor(async () => (await jobsFor(email, 'verify-email')).length === 4, 10_000, 'four verification e-mails');
    expect(await codeOf(call(IdentityRpc.resendVerification, {}))).toBe('UNAUTHENTICATED');
    // Another account's budget is its own.
    const verified = newEmail('verified');
    const other = await signUp(verified);
    await call(IdentityRpc.verifyEmail, { token: (await verifyLink(verified)).token });
    expect(await call(IdentityRpc.resendVerification, {}, other.accessToken)).toEqual({ message: EmailVerifyMessages.alreadyVerified });
    expect(await jobsFor(verified, 'verify-email')).toHaveLength(1);
  });

  it('counts a confirmed change of address as verifying the new one', async () => {
    const email = newEmail();
    const next = newEmail('moved');
    const session = await signUp(email);
    await call(IdentityRpc.changeEmail, { email: next, currentPassword: PASSWORD }, session.accessToken);
    const job = (await jobsFor(next, 'email-change-confirm')).at(-1)!;
    const token = new URLSearchParams(emails.linkOf(job).split('#')[1]).get('token')!;
    expect(await call(IdentityRpc.confirmEmailChange, { token })).toMatchObject({ message: EmailChangeMessages.confirmed });
    const refreshed = await call(IdentityRpc.refresh, { refreshToken: session.refreshToken });
    expect(refreshed.profile).toMatchObject({ email: next, emailVerified: true });
    expect(claimsOf(refreshed.accessToken).emailVerified).toBe(true);
    // The link sent to the old address at sign-up no longer verifies anything.
    expect(await failureOf(call(IdentityRpc.verifyEmail, { token: (await verifyLink(email)).token }))).toEqual(invalid);
  });

  it('counts accounts made before verification existed as not verified, and keeps links valid 24 hours by default', async () => {
    const [column] = await identity.core.orm.em.fork().execute<{ column_default: string; is_nullable: string }[]>(
      "select column_default, is_nullable from information_schema.columns where table_name = 'user_profiles' and column_name = 'email_verified'");
    expect(column).toEqual({ column_default: 'false', is_nullable: 'NO' });
    const { identityConfigSchema } = await import('../src/config.js');
    expect(identityConfigSchema.shape.EMAIL_VERIFY_TTL_SECONDS.parse(undefined)).toBe(24 * 3600);
  });
});
