import { EmailChangeMessages, IdentityRpc, type AccountEmailJob } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import type { RunningService } from '@lv/platform/nest';
import { generateTestKeys } from '@lv/testing';
import { asSession, startMailingIdentity, type MailingIdentity } from './test-support/harness.js';
import type { IdentityConfig } from '../src/config.js';

// Changing the sign-in address against identity over NATS: the new address confirms by its link before
// anything changes, the old one is told at once with a "this wasn't me" link, every other session ends
// on the change, and every bad link (used, altered, another account's, the wrong kind) is refused alike.

const keys = generateTestKeys();

describe('identity e-mail change', () => {
  let harness: MailingIdentity;
  let identity: RunningService<IdentityConfig>;
  let emails: MailingIdentity['emails'];
  let caller: MailingIdentity['caller'];
  const call: MailingIdentity['caller']['call'] = (...args) => caller.call(...args);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  let n = 0;
  const newEmail = (stem = 'dad') => `${stem}.${Date.now()}.${n++}@example.com`;
  const PASSWORD = 'lantern-on-the-hill';
  const signUp = (email: string) => call(IdentityRpc.signUp, { email, password: PASSWORD });
  const signIn = (email: string) => call(IdentityRpc.signIn, { email, password: PASSWORD }).then(asSession);
  const jobsFor = (to: string, kind: AccountEmailJob['kind']) => emails.jobsFor(to, kind);

  /** Opens the link of the latest job of that kind for that address, as notifications would, and returns its token. */
  async function linkOf(to: string, kind: AccountEmailJob['kind'], page: string): Promise<string> {
    const job = (await jobsFor(to, kind)).at(-1);
    expect(job).toBeDefined();
    const path = emails.linkOf(job!);
    expect(path.startsWith(`${page}#`)).toBe(true);
    const token = new URLSearchParams(path.split('#')[1]).get('token')!;
    expect(JSON.stringify(job)).not.toContain(token);
    return token;
  }

  /** An account signed in twice (here: the one that asks; laptop: another browser) that asked to move to `next`. */
  async function askedToMove() {
    const email = newEmail();
    const next = newEmail('moved');
    const here = await signUp(email);
    const laptop = await signIn(email);
    await call(IdentityRpc.changeEmail, { email: next, currentPassword: PASSWORD }, here.accessToken);
    return { email, next, here, laptop };
  }

  beforeAll(async () => {
    harness = await startMailingIdentity('identityemailchange', keys, 203);
    ({ identity, emails, caller } = harness);
  });

  afterAll(() => harness?.close());

  it('keeps the profile on the old address until the new one confirms, and tells the old address at once with a 7-day undo link', async () => {
    const { email, next, here } = await askedToMove();
    expect((await call(IdentityRpc.getMe, {}, here.accessToken)).email).toBe(email);
    const [confirmJob] = await jobsFor(next, 'email-change-confirm');
    expect(Date.parse(confirmJob!.expiresAt!) - Date.parse(confirmJob!.at)).toBe(24 * 3600 * 1000);
    const [notice] = await jobsFor(email, 'email-change-notice');
    expect(Date.parse(notice!.expiresAt!) - Date.parse(notice!.at)).toBe(7 * 24 * 3600 * 1000);
    await linkOf(email, 'email-change-notice', '/undo-email-change');
    // Only hashes are stored.
    const rows = await identity.core.orm.em.fork().execute<{ token_hash: string }[]>('select token_hash from email_change_links where user_id = ?', [here.profile.id]);
    expect(rows.map((row) => row.token_hash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9a-f]{64}$/)]);
  });

  it('changes the address when the new one confirms, ending every other session', async () => {
    const { email, next, here, laptop } = await askedToMove();
    const token = await linkOf(next, 'email-change-confirm', '/confirm-email');
    expect(await call(IdentityRpc.confirmEmailChange, { token })).toEqual({ message: EmailChangeMessages.confirmed, sessionsEnded: 1 });
    expect((await call(IdentityRpc.getMe, {}, here.accessToken)).email).toBe(next);
    expect(await codeOf(call(IdentityRpc.getMe, {}, laptop.accessToken))).toBe('SESSION_EXPIRED');
    expect(await codeOf(call(IdentityRpc.refresh, { refreshToken: laptop.refreshToken }))).toBe('SESSION_EXPIRED');
    expect(await codeOf(signIn(email))).toBe('INVALID_CREDENTIALS');
    expect((await signIn(next)).profile.id).toBe(here.profile.id);
    // Used once.
    expect(await codeOf(call(IdentityRpc.confirmEmailChange, { token }))).toBe('EMAIL_CHANGE_LINK_INVALID');
  });

  it('undoes a confirmed change from the old address: the address comes back, every session ends, a reset link goes out', async () => {
    const { email, next, here } = await askedToMove();
    await call(IdentityRpc.confirmEmailChange, { token: await linkOf(next, 'email-change-confirm', '/confirm-email') });
    const undo = await linkOf(email, 'email-change-notice', '/undo-email-change');
    expect(await call(IdentityRpc.undoEmailChange, { token: undo })).toEqual({ message: EmailChangeMessages.undone, sessionsEnded: 1 });
    expect(await codeOf(call(IdentityRpc.getMe, {}, here.accessToken))).toBe('SESSION_EXPIRED');
    const back = await signIn(email);
    expect(back.profile).toMatchObject({ id: here.profile.id, email });
    expect(await codeOf(signIn(next))).toBe('INVALID_CREDENTIALS');
    expect(await jobsFor(email, 'password-reset')).toHaveLength(1);
    expect(await codeOf(call(IdentityRpc.undoEmailChange, { token: undo }))).toBe('EMAIL_CHANGE_LINK_INVALID');
  });

  it('undo before the confirmation voids the confirm link', async () => {
    const { email, next } = await askedToMove();
    await call(IdentityRpc.undoEmailChange, { token: await linkOf(email, 'email-change-notice', '/undo-email-change') });
    expect(await codeOf(call(IdentityRpc.confirmEmailChange, { token: await linkOf(next, 'email-change-confirm', '/confirm-email') }))).toBe('EMAIL_CHANGE_LINK_INVALID');
    expect((await signIn(email)).profile.email).toBe(email);
  });

  it('refuses altered, wrong-kind, unknown and replaced links alike', async () => {
    const { email, next, here } = await askedToMove();
    const confirm = await linkOf(next, 'email-change-confirm', '/confirm-email');
    const undo = await linkOf(email, 'email-change-notice', '/undo-email-change');
    const altered = `${confirm.slice(0, -2)}${confirm.endsWith('AA') ? 'BB' : 'AA'}`;
    const other = await askedToMove();
    const othersId = (await linkOf(other.next, 'email-change-confirm', '/confirm-email')).split('.')[0];
    for (const token of [altered, undo, 'not-a-token', `${othersId}.${confirm.split('.')[1]}`]) {
      expect(await codeOf(call(IdentityRpc.confirmEmailChange, { token }))).toBe('EMAIL_CHANGE_LINK_INVALID');
    }
    expect(await codeOf(call(IdentityRpc.undoEmailChange, { token: confirm }))).toBe('EMAIL_CHANGE_LINK_INVALID');
    // A newer request replaces the pending one: its link no longer confirms.
    const later = newEmail('later');
    await call(IdentityRpc.changeEmail, { email: later, currentPassword: PASSWORD }, here.accessToken);
    expect(await codeOf(call(IdentityRpc.confirmEmailChange, { token: confirm }))).toBe('EMAIL_CHANGE_LINK_INVALID');
    expect(await codeOf(call(IdentityRpc.confirmEmailChange, { token: await linkOf(later, 'email-change-confirm', '/confirm-email') }))).toBe('OK');
  });
});
