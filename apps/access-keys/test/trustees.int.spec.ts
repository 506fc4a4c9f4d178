import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  AccessKeysRpc, ErrorCodes, Queues, TRUSTEE_LINK_VALID_DAYS, trusteeLinkSealContext, TrusteeMessages, type DeliveryView, type RpcDeclaration, type Trustee, type TrusteeLinkJob, type TrusteeView,
} from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { OwnerLinkSigner } from '@lv/platform/links';
import type { RpcClient } from '@lv/platform/nest';
import { openFromJob, type TypedQueue } from '@lv/platform/queues';
import { alterMiddleCharacter, generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import { startAccessKeysStack, type AccessKeysStack } from '../src/test-support/access-keys-stack.js';

// Trustees end to end inside access-keys: the owner's list over NATS as the gateway calls it, each
// invitation queued for notifications with its sealed link, and the trustee's public page answering
// only to a link that is signed, current and unused. identity is a stand-in answering owners' names.

jest.setTimeout(180_000);

const STACK_ID = uniqueStackId('trustees');
process.env.STACK_ID = STACK_ID;
const { TRUSTEE_LINK_PURPOSE } = await import('../src/trustees/trustees.service.js');

const keys = generateTestKeys();
const KEY_MAIL_SECRET = 'trustees-spec-key-mail-secret-'.padEnd(48, 'q');
const signer = new AccessTokenSigner(keys.privateKey);
const DAY = 86_400_000;
/** The owner's veto window here: 3 seconds (a test minimum; production boot refuses below 72 hours). */
const VETO_MS = 3000;

interface Owner { id: string; token: string }
const newOwner = (): Owner => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 600).token };
};

describe('access-keys: trustees', () => {
  let stack: AccessKeysStack;
  let db: TestDatabase;
  let rpc: RpcClient;
  let mail: TypedQueue<TrusteeLinkJob>;
  let ip = 0;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string, clientIp = '192.0.2.60') =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'trustees-spec', ip: clientIp, userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);
  const add = (owner: Owner, email: string, name = 'Ann') =>
    call(AccessKeysRpc.addTrustee, { id: randomUUID(), name, email, relationship: 'My Sibling' }, owner.token) as Promise<Trustee>;
  const list = (owner: Owner) => call(AccessKeysRpc.listTrustees, {}, owner.token) as Promise<Trustee[]>;
  const jobsFor = async (trusteeId: string) => (await mail.getJobs(['wait', 'delayed', 'active', 'completed', 'failed'])).filter((j) => j.data.trusteeId === trusteeId);
  /** The link in the trustee's e-mail job, opened as notifications opens it. */
  const linkOf = (job: { data: TrusteeLinkJob }) =>
    Object.fromEntries(new URL(openFromJob(KEY_MAIL_SECRET, trusteeLinkSealContext(job.data.linkId), job.data.sealedLink), 'http://vault.example').searchParams);
  const latestLink = async (trusteeId: string) => {
    const jobs = (await jobsFor(trusteeId)).sort((a, b) => a.timestamp - b.timestamp);
    return linkOf(jobs.at(-1)!);
  };

  beforeAll(async () => {
    stack = await startAccessKeysStack({
      stackId: STACK_ID, label: 'trustees', keys, keyMailSecret: KEY_MAIL_SECRET, ownerName: 'Sam Taylor', env: { TRUSTEE_REPORT_VETO_HOURS: String(VETO_MS / 3_600_000) },
    });
    ({ db, rpc } = stack);
    mail = stack.queue(Queues.TrusteeLinks);
  });

  afterAll(() => stack?.close());

  it('names up to five trustees, each invited by e-mail once with a link valid 14 days; names and addresses sealed in the events', async () => {
    const owner = newOwner();
    const ann = await add(owner, 'ann@example.com');
    expect(ann).toMatchObject({ name: 'Ann', email: 'ann@example.com', relationship: 'My Sibling', status: 'invited', answeredAt: null });
    expect(Date.parse(ann.invitationExpiresAt!) - Date.parse(ann.invitedAt!)).toBeGreaterThan(TRUSTEE_LINK_VALID_DAYS * DAY - 2000);
    const jobs = await jobsFor(ann.id);
    expect(jobs.map((j) => [j.data.kind, j.data.trusteeEmail, j.data.ownerName])).toEqual([['invitation', 'ann@example.com', 'Sam Taylor']]);
    for (let i = 2; i <= 5; i++) await add(owner, `t${i}@example.com`, `T${i}`);
    expect(await codeOf(add(owner, 'six@example.com'))).toBe('VALIDATION_FAILED');
    expect(await codeOf(add(newOwner(), 'ann@example.com'))).toBe('OK');
    expect((await list(owner)).map((t) => t.status)).toEqual(['invited', 'invited', 'invited', 'invited', 'invited']);
    const events = JSON.stringify(await sql('select data from events where stream_id = ?', [`trustees-${owner.id}`]));
    expect(events).not.toContain('ann@example.com');
    expect(events).not.toContain(linkOf(jobs[0]!).n);
  });

  it('sends an owner at most 10 invitation e-mails a day and one address at most 3, from all owners: past either, 429 and nothing recorded or sent', async () => {
    const owner = newOwner();
    const named = [];
    for (let i = 1; i <= 5; i++) named.push(await add(owner, `cap${i}-${owner.id}@example.com`, `C${i}`));
    // A refused invitation (a sixth trustee) gives its count back: five resends still go.
    expect(await codeOf(add(owner, `six-${owner.id}@example.com`))).toBe('VALIDATION_FAILED');
    for (const t of named) expect(await codeOf(call(AccessKeysRpc.resendTrusteeInvitation, { id: t.id }, owner.token))).toBe('OK');
    const before = await jobsFor(named[0]!.id);
    const refusal = await call(AccessKeysRpc.resendTrusteeInvitation, { id: named[0]!.id }, owner.token).then(() => null, (e: DomainError) => e.toBody());
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', message: TrusteeMessages.tooManyInvitations });
    expect(refusal?.retryAfter).toBeGreaterThan(86_000);
    expect(await jobsFor(named[0]!.id)).toHaveLength(before.length);
    expect(await latestLink(named[0]!.id)).toEqual(linkOf(before.sort((a, b) => a.timestamp - b.timestamp).at(-1)!));

    // One address, invited by three owners: the fourth owner's invitation is refused, and adds nobody.
    const shared = `shared-${owner.id}@example.com`;
    for (let i = 0; i < 3; i++) expect(await codeOf(add(newOwner(), shared))).toBe('OK');
    const fourth = newOwner();
    expect(await codeOf(add(fourth, shared))).toBe('RATE_LIMITED');
    expect(await list(fourth)).toEqual([]);
  });

  it('the invitation link shows the trustee only their role, accepts once; refused alike: forged, altered, expired, used, replaced, removed, another owner’s', async () => {
    const owner = newOwner();
    const ann = await add(owner, `ann-${owner.id}@example.com`);
    const link = await latestLink(ann.id);
    expect(await call(AccessKeysRpc.trusteeView, link)).toEqual({ ownerName: 'Sam Taylor', trusteeName: 'Ann', relationship: 'My Sibling', status: 'invited', report: null, blockedUntil: null });

    // Forged (signed with another secret), altered (each part), expired (signed 15 days ago), another owner's.
    const forger = new OwnerLinkSigner({ namespace: 'access-keys/trustee', secret: 'not-the-key-mail-secret-'.padEnd(48, 'x'), secretName: 'X', purposes: [TRUSTEE_LINK_PURPOSE], ttlSeconds: 14 * 86_400 });
    const forged = Object.fromEntries(new URL(forger.signLink(TRUSTEE_LINK_PURPOSE, '/trustee', owner.id, ann.id, { t: ann.id, n: link.n! }).url, 'http://x').searchParams);
    const stale = new OwnerLinkSigner({
      namespace: 'access-keys/trustee', secret: KEY_MAIL_SECRET, secretName: 'KEY_MAIL_SECRET', purposes: [TRUSTEE_LINK_PURPOSE], ttlSeconds: 14 * 86_400, now: () => Date.now() - 15 * DAY,
    });
    const expired = Object.fromEntries(new URL(stale.signLink(TRUSTEE_LINK_PURPOSE, '/trustee', owner.id, ann.id, { t: ann.id, n: link.n! }).url, 'http://x').searchParams);
    const other = newOwner();
    const bad = [
      forged, expired,
      { ...link, sig: alterMiddleCharacter(link.sig!) }, { ...link, n: alterMiddleCharacter(link.n!) }, { ...link, u: other.id }, { ...link, exp: String(Number(link.exp) + 60) },
      { ...link, t: randomUUID() }, {}, { ...link, sig: undefined },
    ];
    for (const body of bad) {
      expect(await codeOf(call(AccessKeysRpc.trusteeView, body))).toMatch(/TRUSTEE_LINK_INVALID|VALIDATION_FAILED/);
      expect(await codeOf(call(AccessKeysRpc.answerTrustee, { ...body, answer: 'accept' }))).toMatch(/TRUSTEE_LINK_INVALID|VALIDATION_FAILED/);
    }
    // Every well-formed bad link gets the one answer.
    for (const body of bad.slice(0, 6)) expect(await codeOf(call(AccessKeysRpc.trusteeView, body))).toBe('TRUSTEE_LINK_INVALID');

    // 20 racing answers with the one link: one accept is recorded, the rest find it used.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => codeOf(call(AccessKeysRpc.answerTrustee, { ...link, answer: i % 2 ? 'accept' : 'decline' }))));
    expect(answers.filter((a) => a === 'OK')).toHaveLength(1);
    expect(answers.filter((a) => a !== 'OK').every((a) => a === 'TRUSTEE_LINK_INVALID')).toBe(true);
    const answered = (await list(owner))[0]!;
    expect(['accepted', 'declined']).toContain(answered.status);
    expect(answered.answeredAt).not.toBeNull();
    expect(await codeOf(call(AccessKeysRpc.trusteeView, link))).toBe('TRUSTEE_LINK_INVALID');
    expect(await codeOf(call(AccessKeysRpc.resendTrusteeInvitation, { id: ann.id }, owner.token))).toBe('CONFLICT');

    // A resend replaces the link; removal ends the new one at once.
    const bo = await add(owner, `bo-${owner.id}@example.com`, 'Bo');
    const first = await latestLink(bo.id);
    await call(AccessKeysRpc.resendTrusteeInvitation, { id: bo.id }, owner.token);
    const second = await latestLink(bo.id);
    expect(second.n).not.toBe(first.n);
    expect(await codeOf(call(AccessKeysRpc.trusteeView, first))).toBe('TRUSTEE_LINK_INVALID');
    expect(await codeOf(call(AccessKeysRpc.trusteeView, second))).toBe('OK');
    expect((await call(AccessKeysRpc.removeTrustee, { id: bo.id }, owner.token)) as Trustee).toMatchObject({ status: 'removed' });
    expect(await codeOf(call(AccessKeysRpc.answerTrustee, { ...second, answer: 'accept' }))).toBe('TRUSTEE_LINK_INVALID');
    expect(await codeOf(call(AccessKeysRpc.removeTrustee, { id: bo.id }, owner.token))).toBe('NOT_FOUND');
    // The worker's question: the removed trustee's link is stale, an unknown one unknown.
    const boJobs = await jobsFor(bo.id);
    expect(await call(AccessKeysRpc.trusteeLinkState, { ownerId: owner.id, trusteeId: bo.id, linkId: boJobs.at(-1)!.data.linkId })).toEqual({ state: 'stale' });
    expect(await call(AccessKeysRpc.trusteeLinkState, { ownerId: owner.id, trusteeId: bo.id, linkId: randomUUID() })).toEqual({ state: 'unknown' });
  });

  it('owner routes are the caller’s own: another owner or no token is refused', async () => {
    const owner = newOwner();
    const ann = await add(owner, `ann-${owner.id}@example.com`);
    const other = newOwner();
    expect(await list(other)).toEqual([]);
    expect(await codeOf(call(AccessKeysRpc.removeTrustee, { id: ann.id }, other.token))).toBe('NOT_FOUND');
    expect(await codeOf(call(AccessKeysRpc.resendTrusteeInvitation, { id: ann.id }, other.token))).toBe('NOT_FOUND');
    // Ann's id is Ann's: another owner cannot name someone under it.
    expect(await codeOf(call(AccessKeysRpc.addTrustee, { id: ann.id, name: 'Mallory', email: 'm@example.com', relationship: 'Other' }, other.token))).toBe('CONFLICT');
    expect(await codeOf(call(AccessKeysRpc.listTrustees, {}))).toBe('UNAUTHENTICATED');
    expect((await list(owner)).map((t) => t.status)).toEqual(['invited']);
  });

  it('refuses every invitation of an owner whose address is unverified (EMAIL_NOT_VERIFIED, 403), recording and sending nothing; verified, it goes', async () => {
    const id = randomUUID();
    const tokenOf = (emailVerified: boolean) => signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified, kind: 'user' }, 600).token;
    const unverified: Owner = { id, token: tokenOf(false) };
    const refused: unknown = await add(unverified, `ann-${id}@example.com`).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: TrusteeMessages.verifyEmailFirst });
    expect(ErrorCodes.EMAIL_NOT_VERIFIED.status).toBe(403);
    expect(await list(unverified)).toEqual([]);
    // The delivery settings' trustee is adopted (no e-mail), but sending him his invitation is refused alike.
    await call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: true, notify_trustee: true, trustee_name: 'Sol', trustee_email: `sol-${id}@example.com`, final_thoughts: '',
    }, unverified.token);
    const [sol] = await list(unverified);
    expect(await codeOf(call(AccessKeysRpc.resendTrusteeInvitation, { id: sol!.id }, unverified.token))).toBe('EMAIL_NOT_VERIFIED');
    expect(await jobsFor(sol!.id)).toHaveLength(0);
    expect((await sql<{ n: number }>(`select count(*)::int as n from events where type = 'TrusteeLinkIssued' and stream_id = ?`, [`trustees-${id}`]))[0]!.n).toBe(0);
    // Verified (the next token identity signs says so): both go, and count against the budget only now.
    const verified: Owner = { id, token: tokenOf(true) };
    expect((await call(AccessKeysRpc.resendTrusteeInvitation, { id: sol!.id }, verified.token)) as Trustee).toMatchObject({ status: 'invited' });
    const ann = await add(verified, `ann-${id}@example.com`);
    expect(ann.status).toBe('invited');
    expect(await jobsFor(ann.id)).toHaveLength(1);
  });

  it("adopts the delivery settings' single trustee as the first, not invited until the owner sends it", async () => {
    const owner = newOwner();
    await call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: true, notify_trustee: true, trustee_name: 'Sol Icitor', trustee_email: `sol-${owner.id}@example.com`, final_thoughts: '',
    }, owner.token);
    const [sol, ...rest] = await list(owner);
    expect(rest).toEqual([]);
    expect(sol).toMatchObject({ name: 'Sol Icitor', email: `sol-${owner.id}@example.com`, relationship: 'Other', status: 'named', invitedAt: null });
    expect(await list(owner)).toHaveLength(1);
    expect(await jobsFor(sol!.id)).toHaveLength(0);
    expect((await call(AccessKeysRpc.resendTrusteeInvitation, { id: sol!.id }, owner.token)) as Trustee).toMatchObject({ status: 'invited' });
    expect(await jobsFor(sol!.id)).toHaveLength(1);
  });

  it('"send me my trustee link": the same answer for any address; a new link only to an invited or accepted trustee; limited per client address', async () => {
    const owner = newOwner();
    const email = `kim-${owner.id}@example.com`;
    const kim = await add(owner, email, 'Kim');
    ip++;
    const clientIp = `198.51.100.${ip}`;
    const ask = (address: string) => call(AccessKeysRpc.requestTrusteeLink, { email: address }, undefined, clientIp);
    expect(await ask(email.toUpperCase())).toEqual({ message: TrusteeMessages.linkRequested });
    expect(await ask(`nobody-${owner.id}@example.com`)).toEqual({ message: TrusteeMessages.linkRequested });
    expect(await jobsFor(kim.id)).toHaveLength(2);
    // The new invitation link works, and replaced the first.
    const jobs = (await jobsFor(kim.id)).sort((a, b) => a.timestamp - b.timestamp);
    expect(await codeOf(call(AccessKeysRpc.trusteeView, linkOf(jobs[0]!)))).toBe('TRUSTEE_LINK_INVALID');
    expect(await call(AccessKeysRpc.answerTrustee, { ...linkOf(jobs[1]!), answer: 'accept' })).toMatchObject({ status: 'accepted' });
    expect(await ask(email)).toEqual({ message: TrusteeMessages.linkRequested });
    expect((await jobsFor(kim.id)).map((j) => j.data.kind).sort()).toEqual(['invitation', 'invitation', 'link']);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await codeOf(ask(`nobody-${i}@example.com`)));
    expect(codes).toEqual(['OK', 'OK', 'RATE_LIMITED', 'RATE_LIMITED']);
  });

  describe("reports and the owner's veto", () => {
    let ipN = 0;
    /** An accepted trustee's own link ("send me my trustee link" after accepting). */
    const acceptedLink = async (trustee: Trustee) => {
      await call(AccessKeysRpc.answerTrustee, { ...(await latestLink(trustee.id)), answer: 'accept' });
      await call(AccessKeysRpc.requestTrusteeLink, { email: trustee.email }, undefined, `198.${51 + ++ipN}.100.7`);
      await waitFor(async () => (await jobsFor(trustee.id)).some((j) => j.data.kind === 'link'), 5000, 'the trustee link job');
      return latestLink(trustee.id);
    };
    const report = (link: Record<string, string>, kind = 'incapacitated', note = 'In St Mary’s since Monday') => call(AccessKeysRpc.reportOwner, { ...link, kind, note });
    const delivery = (owner: Owner) => call(AccessKeysRpc.delivery, {}, owner.token) as Promise<DeliveryView>;

    it('only an accepted, listed trustee reports; the owner sees who reported what and vetoes; the delivery is cancelled and the reporter blocked', async () => {
      const owner = newOwner();
      const ann = await add(owner, `ann-${owner.id}@example.com`, 'Ann');
      const bo = await add(owner, `bo-${owner.id}@example.com`, 'Bo');
      const cy = await add(owner, `cy-${owner.id}@example.com`, 'Cy');
      // Invited, not accepted: refused with its own code. Accepted then removed: the link is dead.
      expect(await codeOf(report(await latestLink(cy.id)))).toBe('TRUSTEE_NOT_ACCEPTED');
      const boLink = await acceptedLink(bo);
      await call(AccessKeysRpc.removeTrustee, { id: bo.id }, owner.token);
      expect(await codeOf(report(boLink))).toBe('TRUSTEE_LINK_INVALID');
      expect(await codeOf(report({ ...boLink, sig: alterMiddleCharacter(boLink.sig!) }))).toBe('TRUSTEE_LINK_INVALID');
      expect((await delivery(owner)).status).toBe('none');

      const annLink = await acceptedLink(ann);
      const view = (await report(annLink)) as TrusteeView;
      expect(view.report).toMatchObject({ kind: 'incapacitated' });
      expect(Date.parse(view.report!.vetoEndsAt) - Date.parse(view.report!.reportedAt)).toBe(VETO_MS);
      const started = await delivery(owner);
      expect(started.status).toBe('waiting');
      expect(Date.parse(started.due_at!)).toBeGreaterThanOrEqual(Date.parse(view.report!.vetoEndsAt));
      // The owner's banner; another owner sees nothing and cannot veto it.
      expect(await call(AccessKeysRpc.openTrusteeReport, {}, owner.token)).toEqual({
        report: expect.objectContaining({ trusteeName: 'Ann', kind: 'incapacitated', note: 'In St Mary’s since Monday', vetoEndsAt: view.report!.vetoEndsAt }),
        history: [expect.objectContaining({ trusteeName: 'Ann', kind: 'incapacitated', vetoEndsAt: view.report!.vetoEndsAt, closedAt: null, closedBy: null })],
      });
      const stranger = newOwner();
      expect(await call(AccessKeysRpc.openTrusteeReport, {}, stranger.token)).toEqual({ report: null, history: [] });
      expect(await codeOf(call(AccessKeysRpc.vetoTrusteeReport, {}, stranger.token))).toBe('CONFLICT');
      expect(await codeOf(call(AccessKeysRpc.vetoTrusteeReport, {}))).toBe('UNAUTHENTICATED');
      // The note is sealed like names.
      expect(JSON.stringify(await sql('select data from events where stream_id = ?', [`trustees-${owner.id}`]))).not.toContain('St Mary');

      // "I'm still here": the report ends, the delivery is cancelled, once; the reporter is blocked 30 days.
      expect(await call(AccessKeysRpc.vetoTrusteeReport, {}, owner.token)).toEqual({ message: TrusteeMessages.vetoed });
      expect(await codeOf(call(AccessKeysRpc.vetoTrusteeReport, {}, owner.token))).toBe('CONFLICT');
      expect((await delivery(owner)).status).toBe('cancelled');
      expect(await call(AccessKeysRpc.openTrusteeReport, {}, owner.token)).toEqual({
        report: null, history: [expect.objectContaining({ trusteeName: 'Ann', closedBy: 'veto', closedAt: expect.any(String) })],
      });
      expect(await codeOf(report(annLink, 'died'))).toBe('TRUSTEE_REPORT_BLOCKED');
      const blocked = (await call(AccessKeysRpc.trusteeView, annLink)) as TrusteeView;
      expect(Date.parse(blocked.blockedUntil!) - Date.now()).toBeGreaterThan(29 * DAY);
      // Past the window the cancelled delivery's job finds nothing: no keys, no release.
      await waitFor(async () => Date.now() > Date.parse(view.report!.vetoEndsAt) + 500, 10_000, 'the veto window to pass');
      expect((await delivery(owner)).status).toBe('cancelled');
    });

    it('not vetoed: released exactly once, never before the veto window ends (even on "immediately")', async () => {
      const owner = newOwner();
      await call(AccessKeysRpc.saveDeliverySettings, { delivery_timing: 'immediately', require_legal_verification: false, allow_preview: true, notify_trustee: false, final_thoughts: '' }, owner.token);
      const ann = await add(owner, `ann-${owner.id}@example.com`, 'Ann');
      const link = await acceptedLink(ann);
      // 10 racing reports: one report, one delivery.
      const codes = await Promise.all(Array.from({ length: 10 }, () => codeOf(report(link, 'died', ''))));
      expect(codes.every((c) => c === 'OK')).toBe(true);
      const stream = await sql<{ type: string }>('select type from events where stream_id = ?', [`trustees-${owner.id}`]);
      expect(stream.filter((e) => e.type === 'TrusteeReported')).toHaveLength(1);
      const { report: open } = (await call(AccessKeysRpc.openTrusteeReport, {}, owner.token)) as { report: { vetoEndsAt: string } };
      expect((await delivery(owner)).status).toBe('waiting');
      await waitFor(async () => (await delivery(owner)).status === 'released', 20_000, 'the release');
      const releases = await sql<{ data: { releasedAt: string } }>(`select data from events where stream_id = ? and type = 'DeliveryReleased'`, [`delivery-${owner.id}`]);
      expect(releases).toHaveLength(1);
      expect(Date.parse(releases[0]!.data.releasedAt)).toBeGreaterThanOrEqual(Date.parse(open.vetoEndsAt));
    });
  });
});
