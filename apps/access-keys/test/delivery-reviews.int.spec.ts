import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  AccessKeysRpc, Queues, trusteeLinkSealContext, type DeliveryHistory, type DeliveryReview, type DeliveryReviewSummary, type DeliveryView, type RpcDeclaration, type Trustee, type TrusteeLinkJob,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import type { RpcClient } from '@lv/platform/nest';
import { openFromJob } from '@lv/platform/queues';
import { generateTestKeys, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import { startAccessKeysStack, type AccessKeysStack } from '../src/test-support/access-keys-stack.js';

// The operators' review queue (issue 31) inside access-keys, over NATS as the gateway calls it: a
// delivery waiting for legal verification is listed for admins, opened, approved (released as
// delivery:verify releases it) or rejected with a reason; every opening and decision is an event on
// the owner's delivery stream carrying the admin's id. Anyone else is refused.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('delreviews');
process.env.STACK_ID = STACK_ID;

const keys = generateTestKeys();
const KEY_MAIL_SECRET = 'delivery-reviews-spec-mail-secret-'.padEnd(48, 'r');
const signer = new AccessTokenSigner(keys.privateKey);

interface Person { id: string; token: string }
const person = (admin = false): Person => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin, emailVerified: true, kind: 'user' }, 600).token };
};

describe('access-keys: delivery reviews', () => {
  let stack: AccessKeysStack;
  let db: TestDatabase;
  let rpc: RpcClient;
  const admin = person(true);
  const operator = () => signOperatorToken(signer, 'reviews-spec');

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'delivery-reviews-spec', ip: '192.0.2.71', userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const list = (token = admin.token) => call(AccessKeysRpc.listDeliveryReviews, {}, token) as Promise<DeliveryReviewSummary[]>;
  const history = (owner: Person) => call(AccessKeysRpc.deliveryHistory, { owner_id: owner.id }, operator()) as Promise<DeliveryHistory>;
  const eventsOf = (owner: Person, type: string) => db.orm.em.fork().execute<{ data: Record<string, unknown>; metadata: { actor?: { kind: string; id: string } } }[]>(
    `select data, metadata from events where stream_id = ? and type = ? order by version`, [`delivery-${owner.id}`, type]);

  /** An owner whose settings ask for legal verification, with a contact and a trustee, reported absent by an operator. */
  const reportedOwner = async (timing: 'legal_verification' | 'immediately' = 'legal_verification'): Promise<Person> => {
    const owner = person();
    await call(AccessKeysRpc.addContact, { id: randomUUID(), name: 'Robin', label: 'My Child', email: `robin-${owner.id}@example.com` }, owner.token);
    await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: 'Ann Lee', email: `ann-${owner.id}@example.com`, relationship: 'My Sibling' }, owner.token);
    await call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: timing, require_legal_verification: timing === 'legal_verification', allow_preview: true, notify_trustee: false, trustee_name: '', trustee_email: '', final_thoughts: '',
    }, owner.token);
    await call(AccessKeysRpc.reportAbsence, { owner_id: owner.id, owner_email: `${owner.id}@example.com` }, operator());
    return owner;
  };

  beforeAll(async () => {
    stack = await startAccessKeysStack({ stackId: STACK_ID, label: 'delreviews', keys, keyMailSecret: KEY_MAIL_SECRET, ownerName: 'Sam Taylor' });
    ({ db, rpc } = stack);
  });

  afterAll(() => stack?.close());

  it('lists a delivery while it waits for verification, and only then', async () => {
    const waiting = await reportedOwner();
    const immediate = await reportedOwner('immediately');
    const listed = await list();
    expect(listed.find((r) => r.owner_id === waiting.id)).toMatchObject({ owner_id: waiting.id, trigger: 'trustee-report', reported: null, release_id: expect.any(String) });
    expect(listed.some((r) => r.owner_id === immediate.id)).toBe(false);
  });

  it('refuses everyone but admins (and operators): a member, the owner himself, a missing token', async () => {
    const owner = await reportedOwner();
    const member = person();
    for (const token of [member.token, owner.token]) {
      expect(await codeOf(list(token))).toBe('FORBIDDEN');
      expect(await codeOf(call(AccessKeysRpc.openDeliveryReview, { owner_id: owner.id }, token))).toBe('FORBIDDEN');
      expect(await codeOf(call(AccessKeysRpc.approveDeliveryReview, { owner_id: owner.id }, token))).toBe('FORBIDDEN');
      expect(await codeOf(call(AccessKeysRpc.rejectDeliveryReview, { owner_id: owner.id, reason: 'no' }, token))).toBe('FORBIDDEN');
    }
    expect(await codeOf(call(AccessKeysRpc.listDeliveryReviews, {}))).toBe('UNAUTHENTICATED');
    // delivery:show is the ops CLI's: an admin's browser token does not reach it.
    expect(await codeOf(call(AccessKeysRpc.deliveryHistory, { owner_id: owner.id }, admin.token))).toBe('FORBIDDEN');
    // Nothing was recorded by the refused calls, and the delivery still waits.
    expect(await eventsOf(owner, 'DeliveryReviewOpened')).toEqual([]);
    expect((await history(owner)).status).toBe('awaiting-verification');
  });

  it('opening a review records the admin, every time, and shows the trustees and no vault contents', async () => {
    const owner = await reportedOwner();
    const review = await call(AccessKeysRpc.openDeliveryReview, { owner_id: owner.id }, admin.token) as DeliveryReview;
    expect(review).toMatchObject({ owner_id: owner.id, trustees: [{ name: 'Ann Lee', relationship: 'My Sibling', status: 'invited' }], documents: [] });
    expect(review.log).toEqual([{ action: 'opened', operator_id: admin.id, at: expect.any(String), reason: null }]);
    await call(AccessKeysRpc.openDeliveryReview, { owner_id: owner.id }, admin.token);
    const opened = await eventsOf(owner, 'DeliveryReviewOpened');
    expect(opened.map((e) => [e.data.operatorId, e.metadata.actor])).toEqual([[admin.id, { kind: 'user', id: admin.id }], [admin.id, { kind: 'user', id: admin.id }]]);
    // Opened, it still waits: an opening decides nothing.
    expect((await list()).some((r) => r.owner_id === owner.id)).toBe(true);
  });

  it('approve releases the delivery as delivery:verify does, recorded with the admin', async () => {
    const owner = await reportedOwner();
    const view = await call(AccessKeysRpc.approveDeliveryReview, { owner_id: owner.id }, admin.token) as DeliveryView;
    expect(view.status).toMatch(/waiting|released/);
    await waitFor(async () => (await history(owner)).status === 'released', 30_000, 'the approved delivery to be released');
    const [verified] = await eventsOf(owner, 'DeliveryVerified');
    expect(verified).toMatchObject({ data: { operatorId: admin.id }, metadata: { actor: { kind: 'user', id: admin.id } } });
    expect((await list()).some((r) => r.owner_id === owner.id)).toBe(false);
    expect(await codeOf(call(AccessKeysRpc.openDeliveryReview, { owner_id: owner.id }, admin.token))).toBe('CONFLICT');
  });

  it('reject ends the delivery with its reason, recorded with the admin; nothing is released, and a decision cannot be taken twice', async () => {
    const owner = await reportedOwner();
    expect(await codeOf(call(AccessKeysRpc.rejectDeliveryReview, { owner_id: owner.id, reason: '   ' }, admin.token))).toBe('VALIDATION_FAILED');
    const view = await call(AccessKeysRpc.rejectDeliveryReview, { owner_id: owner.id, reason: 'The certificate names someone else.' }, admin.token) as DeliveryView;
    expect(view.status).toBe('rejected');
    const [rejected] = await eventsOf(owner, 'DeliveryRejected');
    expect(rejected).toMatchObject({ data: { operatorId: admin.id }, metadata: { actor: { kind: 'user', id: admin.id } } });
    // The reason is about the owner: sealed under his key in the events table, read back through the service.
    expect(JSON.stringify(rejected!.data)).not.toContain('certificate');
    expect((await list()).some((r) => r.owner_id === owner.id)).toBe(false);
    expect(await codeOf(call(AccessKeysRpc.approveDeliveryReview, { owner_id: owner.id }, admin.token))).toBe('CONFLICT');
    expect(await codeOf(call(AccessKeysRpc.rejectDeliveryReview, { owner_id: owner.id, reason: 'again' }, admin.token))).toBe('CONFLICT');
    // The owner sees it ended; the ops CLI's history shows every step with its time and actor.
    expect((await call(AccessKeysRpc.delivery, {}, owner.token) as DeliveryView).status).toBe('rejected');
    const shown = await history(owner);
    expect(shown.events.map((e) => e.type)).toEqual(['DeliveryTriggered', 'DeliveryRejected']);
    expect(shown.events[1]).toMatchObject({ actor: { kind: 'user', id: admin.id }, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(shown.events[1]!.data).toMatchObject({ operatorId: admin.id, personal: { reason: 'The certificate names someone else.' } });
  });

  it("a trustee's report: the queue names who reported, their relationship, what and when", async () => {
    const owner = person();
    await call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: 'legal_verification', require_legal_verification: true, allow_preview: true, notify_trustee: false, trustee_name: '', trustee_email: '', final_thoughts: '',
    }, owner.token);
    const ann = await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: 'Ann Lee', email: `ann-${owner.id}@example.com`, relationship: 'My Sibling' }, owner.token) as Trustee;
    // Her link as notifications would e-mail it: accepted with the invitation, then her own link to report with.
    const mail = stack.queue(Queues.TrusteeLinks);
    const linkJobs = async (kind: TrusteeLinkJob['kind']) => (await mail.getJobs(['wait', 'delayed', 'active', 'completed', 'failed'])).filter((j) => j.data.trusteeId === ann.id && j.data.kind === kind);
    const linkOf = (job: { data: TrusteeLinkJob }) =>
      Object.fromEntries(new URL(openFromJob(KEY_MAIL_SECRET, trusteeLinkSealContext(job.data.linkId), job.data.sealedLink), 'http://vault.example').searchParams);
    await waitFor(async () => (await linkJobs('invitation')).length === 1, 5000, 'the invitation job');
    await call(AccessKeysRpc.answerTrustee, { ...linkOf((await linkJobs('invitation'))[0]!), answer: 'accept' });
    await call(AccessKeysRpc.requestTrusteeLink, { email: ann.email });
    await waitFor(async () => (await linkJobs('link')).length === 1, 5000, 'the trustee link job');
    await call(AccessKeysRpc.reportOwner, { ...linkOf((await linkJobs('link'))[0]!), kind: 'died', note: 'The funeral is on Friday.' });
    const listed = (await list()).find((r) => r.owner_id === owner.id);
    expect(listed).toMatchObject({ trigger: 'trustee-report', reported: { by: 'Ann Lee', relationship: 'My Sibling', kind: 'died', reported_at: expect.any(String) }, not_before: expect.any(String) });
  });

  it('the ops CLI operator reviews too: its verify carries the operator id', async () => {
    const owner = await reportedOwner();
    await call(AccessKeysRpc.verifyDelivery, { owner_id: owner.id, owner_email: `${owner.id}@example.com` }, operator());
    const [verified] = await eventsOf(owner, 'DeliveryVerified');
    expect(verified).toMatchObject({ data: { operatorId: 'operator:reviews-spec' }, metadata: { actor: { kind: 'operator', id: 'operator:reviews-spec' } } });
  });
});
