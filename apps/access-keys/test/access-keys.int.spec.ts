import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  AccessKeysEvents, AccessKeysRpc, AccessMessages, CONSENT_VERSION, SUDO_WINDOW_SECONDS, keyEmailSealContext, NotificationsEvents, Queues, VIEW_SECTIONS, type IssuedAccessKey, type KeyDraft, type OpenedViewSession,
  type DeliveryTimingJob, type TrusteeNoticeJob, type RpcDeclaration, type SendKeyEmailJob,
} from '@lv/contracts';
import { AccessTokenSigner, RevokedViewSessions, signOperatorToken, ViewerTokenVerifier } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { createQueue, openFromJob, queuePrefix } from '@lv/platform/queues';
import { scopedStreamName, scopedSubject } from '@lv/platform/messaging';
import type { RpcClient, RunningService } from '@lv/platform/nest';
import { generateTestKeys, makeStreamsAsOwners, uniqueStackId, waitFor, type TestDatabase } from '@lv/testing';
import type { AccessKeysConfig } from '../src/config.js';
import { CONSENT_HASH } from '../src/secrets.js';
import { startInProcessAccessKeys, type InProcessAccessKeys } from './support/in-process-access-keys.js';

// access-keys in-process over the shared NATS (a STACK_ID of its own), Redis and a fresh database,
// called the way the gateway calls it: RpcClient with the caller's token and the request's meta.

jest.setTimeout(180_000);

const STACK_ID = uniqueStackId('access');
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const KEY_MAIL_SECRET = 'spec-key-mail-secret-'.padEnd(48, 'x');
const signer = new AccessTokenSigner(keys.privateKey);
const consent = { version: CONSENT_VERSION, text_hash: CONSENT_HASH };

interface Owner { id: string; token: string }
/** An owner whose address is verified (the token's claim): his keys and invitations are e-mailed. */
const newOwner = (): Owner => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 600).token };
};
/** A client address of its own per call site, so limits of one test do not reach another. */
let addressCounter = 0;
const freshIp = () => `10.${Math.floor(++addressCounter / 65536) % 256}.${Math.floor(addressCounter / 256) % 256}.${addressCounter % 256}`;

describe('access-keys service over NATS', () => {
  let accessKeys: InProcessAccessKeys | undefined;
  let db: TestDatabase;
  let service: RunningService<AccessKeysConfig>;
  let rpc: RpcClient;
  let redis: Redis;
  let queue: Queue<SendKeyEmailJob>;
  const ownerA = newOwner();
  const ownerB = newOwner();

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string, ip = '192.0.2.10') =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'access-spec', ip, userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(text: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(text, params);
  const submit = (owner: Owner, over: Record<string, unknown> = {}, ip = freshIp()) =>
    call(AccessKeysRpc.submitRequest, { user_id: owner.id, requester_email: 'Sam@Example.com', requester_name: 'Sam', relationship: 'Son', message: 'I would like to read Dad’s letters.', ...over }, undefined, ip);
  const pending = (owner: Owner) => call(AccessKeysRpc.listRequests, {}, owner.token) as Promise<{ items: { id: string; requester_email: string; held_key: unknown }[] }>;
  const redeem = (key: string, ip = freshIp(), over: Record<string, unknown> = {}) =>
    call(AccessKeysRpc.redeem, { access_key: key, consent, ...over }, undefined, ip) as Promise<OpenedViewSession>;
  const draftKey = (owner: Owner) => call(AccessKeysRpc.draftKey, {}, owner.token) as Promise<KeyDraft>;
  /** Generate Access Key, then Save: the key is the one the service made for this owner unless `over` says otherwise. */
  const createKey = async (owner: Owner, over: Record<string, unknown> = {}) =>
    call(AccessKeysRpc.createKey, { ...(await draftKey(owner)), name: 'Ellie', email: 'ellie@example.com', ...over }, owner.token) as Promise<IssuedAccessKey>;

  beforeAll(async () => {
    // The key e-mail reports below are published as notifications would, into its own stream.
    await makeStreamsAsOwners(NATS_URL, ['notifications'], STACK_ID);
    accessKeys = await startInProcessAccessKeys('access', { jwtPublicKey: keys.publicKey, viewerKeys, keyMailSecret: KEY_MAIL_SECRET });
    ({ db, service, rpc } = accessKeys);
    redis = new Redis(REDIS_URL);
    queue = new Queue<SendKeyEmailJob>(Queues.KeyEmails.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await accessKeys?.close();
    redis?.disconnect();
  });

  it('takes a request for an owner, shows it to that owner only, and keeps the requester’s words sealed in the events', async () => {
    expect(await submit(ownerA, { message: 'A message only the owner should read' })).toEqual({ success: true });
    const mine = await pending(ownerA);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ requester_email: 'sam@example.com', relationship: 'Son', status: 'pending', held_key: null });
    expect((await pending(ownerB)).items).toHaveLength(0);
    const stored = await sql<{ data: unknown }>(`select data from events where stream_id = ?`, [`access-request-${mine.items[0]!.id}`]);
    expect(JSON.stringify(stored)).not.toContain('only the owner should read');
    expect(JSON.stringify(stored)).not.toContain('sam@example.com');
  });

  it('refuses bad request bodies with the spec’s words and stores nothing', async () => {
    const before = (await pending(ownerA)).items.length;
    await expect(call(AccessKeysRpc.submitRequest, { user_id: 'not-an-id', requester_email: 'a@b.co', relationship: 'x', message: 'y' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(submit(ownerA, { requester_email: 'nope' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(submit(ownerA, { child_dob: '2999-01-01' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await pending(ownerA)).items).toHaveLength(before);
  });

  it('limits the request form per address to 10 an hour', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) await submit(ownerB, {}, ip);
    // With the seconds left in the hour's window, which the gateway sends as Retry-After (issue 29).
    await expect(submit(ownerB, {}, ip)).rejects.toMatchObject({ code: 'RATE_LIMITED', message: AccessMessages.tooManyRequests });
    const { retryAfter } = ((await submit(ownerB, {}, ip).catch((error: unknown) => error)) as DomainError).details;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await codeOf(submit(ownerB, {}, freshIp()))).toBe('OK');
  });

  it('approves once: a key valid 30 days returned once, its e-mail job queued with the key sealed; deciding again is refused', async () => {
    await submit(ownerA, { requester_email: 'approve@example.com' });
    const request = (await pending(ownerA)).items.find((r) => r.requester_email === 'approve@example.com')!;
    expect(await codeOf(call(AccessKeysRpc.approveRequest, { request_id: request.id }, ownerB.token))).toBe('NOT_FOUND');
    const issued = (await call(AccessKeysRpc.approveRequest, { request_id: request.id, scopes: ['letters', 'timeline'] }, ownerA.token)) as IssuedAccessKey;
    expect(issued.access_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(issued.scopes).toEqual(['letters', 'timeline']);
    expect(Math.round((Date.parse(issued.expires_at) - Date.now()) / 86_400_000)).toBe(30);
    const job = await queue.getJob(`key-${issued.key_id}`);
    expect(job?.data).toMatchObject({ keyId: issued.key_id, ownerId: ownerA.id, recipientEmail: 'approve@example.com', sharedBy: `${ownerA.id}@example.com` });
    expect(JSON.stringify(job?.data)).not.toContain(issued.access_key);
    expect(openFromJob(KEY_MAIL_SECRET, keyEmailSealContext(issued.key_id), job!.data.sealedKey)).toBe(issued.access_key);
    expect(await codeOf(call(AccessKeysRpc.approveRequest, { request_id: request.id }, ownerA.token))).toBe('ALREADY_DECIDED');
    expect(await codeOf(call(AccessKeysRpc.declineRequest, { request_id: request.id }, ownerA.token))).toBe('ALREADY_DECIDED');
    // Only the hash is kept.
    expect(JSON.stringify(await sql('select * from access_keys'))).not.toContain(issued.access_key);
    expect(JSON.stringify(await sql('select data from events'))).not.toContain(issued.access_key);
    expect(await call(AccessKeysRpc.keyMailState, { key_id: issued.key_id })).toEqual({ state: 'active' });
    expect(await call(AccessKeysRpc.keyMailState, { key_id: randomUUID() })).toEqual({ state: 'unknown' });
  });

  it('an owner whose address is unverified gets his keys (to share himself) but no key e-mail, and the key says why; verified, the next key is e-mailed', async () => {
    const id = randomUUID();
    const tokenOf = (emailVerified: boolean) => signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, emailVerified, kind: 'user' }, 600).token;
    const unverified: Owner = { id, token: tokenOf(false) };
    const made = await createKey(unverified, { name: 'Unmailed', email: 'stranger@example.com' });
    expect(made).toMatchObject({ recipient_email: 'stranger@example.com', emailed: false });
    await submit(unverified, { requester_email: 'unmailed@example.com' });
    const request = (await pending(unverified)).items.find((r) => r.requester_email === 'unmailed@example.com')!;
    const approved = (await call(AccessKeysRpc.approveRequest, { request_id: request.id }, unverified.token)) as IssuedAccessKey;
    expect(approved.emailed).toBe(false);
    for (const key of [made, approved]) expect(await queue.getJob(`key-${key.key_id}`)).toBeUndefined();
    const listed = (await call(AccessKeysRpc.listKeys, {}, unverified.token)) as { id: string; status: string; email_status: string; email_failure: string | null }[];
    for (const key of [made, approved]) {
      expect(listed.find((k) => k.id === key.key_id)).toMatchObject({ status: 'active', email_status: 'failed', email_failure: 'email_not_verified' });
    }
    // The key works all the same: the owner shares it himself.
    expect(await codeOf(redeem(made.access_key))).toBe('OK');
    // A token without the claim (signed before it existed) counts as unverified too.
    const claimless = signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'none', admin: false, kind: 'user' }, 600).token;
    expect(((await call(AccessKeysRpc.createKey, { ...(await draftKey(unverified)), name: 'Old token', email: 'ellie@example.com' }, claimless)) as IssuedAccessKey).emailed).toBe(false);
    // Verified (the next token identity signs says so): the key and its e-mail go as usual.
    const verified: Owner = { id, token: tokenOf(true) };
    const mailed = await createKey(verified, { name: 'Mailed now' });
    expect(mailed.emailed).toBe(true);
    expect((await queue.getJob(`key-${mailed.key_id}`))?.data).toMatchObject({ keyId: mailed.key_id, recipientEmail: 'ellie@example.com' });
    expect(((await call(AccessKeysRpc.listKeys, {}, verified.token)) as { id: string; email_status: string }[]).find((k) => k.id === mailed.key_id)?.email_status).toBe('queued');
  });

  it('declines: the request leaves the pending list, no key and no job', async () => {
    await submit(ownerA, { requester_email: 'decline@example.com' });
    const request = (await pending(ownerA)).items.find((r) => r.requester_email === 'decline@example.com')!;
    const declined = await call(AccessKeysRpc.declineRequest, { request_id: request.id }, ownerA.token);
    expect(declined).toMatchObject({ status: 'declined', key_id: null });
    expect((await pending(ownerA)).items.find((r) => r.id === request.id)).toBeUndefined();
  });

  it('saves only a key it made for this owner, once: a chosen key, another vault’s key and a used draft store nothing', async () => {
    const made = await draftKey(ownerA);
    const first = await createKey(ownerA, { ...made, expires_in_days: 7 });
    const count = async () => (await sql<{ n: number }>('select count(*)::int as n from access_keys'))[0]!.n;
    const before = await count();
    // Another vault's key value is refused like any key not made for this owner: no KEY_TAKEN oracle.
    expect(await codeOf(createKey(ownerB, { access_key: made.access_key.toUpperCase() }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(createKey(ownerB, made))).toBe('VALIDATION_FAILED');
    expect(await codeOf(createKey(ownerA, { access_key: '00000000-0000-4000-8000-000000000000' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(createKey(ownerA, { draft: undefined }))).toBe('VALIDATION_FAILED');
    // The same Save sent again (its answer lost) is answered as it was, issuing nothing more (issue 30);
    // the owner's draft saved with other content (here another expiry) is taken.
    expect(await createKey(ownerA, { ...made, expires_in_days: 7 })).toEqual(first);
    expect(await codeOf(createKey(ownerA, made))).toBe('KEY_TAKEN');
    expect(await codeOf(createKey(ownerA, { ...made, expires_in_days: 7, name: 'Ellie B.' }))).toBe('KEY_TAKEN');
    expect(await count()).toBe(before);
    expect((await sql<{ n: number }>(`select count(*)::int as n from events where type = 'AccessKeyIssued' and stream_id = ?`, [`access-key-${first.key_id}`]))[0]!.n).toBe(1);
    expect(await codeOf(createKey(ownerA, { expires_in_days: 0 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(createKey(ownerA, { name: '' }))).toBe('VALIDATION_FAILED');
    const listed = (await call(AccessKeysRpc.listKeys, {}, ownerA.token)) as { name: string; status: string; email_status: string }[];
    expect(listed[0]).toMatchObject({ name: 'Ellie', status: 'active', email_status: 'queued' });
    expect(((await call(AccessKeysRpc.listKeys, {}, ownerB.token)) as unknown[]).length).toBe(0);
  });

  it('redeems only with the consent, records it, and opens a session whose token names the vault, the session and the key’s sections', async () => {
    const issued = await createKey(ownerA, { scopes: ['letters'] });
    expect(await codeOf(redeem(issued.access_key, freshIp(), { consent: undefined }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(redeem(issued.access_key, freshIp(), { consent: { version: CONSENT_VERSION, text_hash: '0'.repeat(64) } }))).toBe('CONSENT_REQUIRED');
    expect(await codeOf(redeem(issued.access_key, freshIp(), { owner: ownerB.id }))).toBe('INVALID_OR_EXPIRED_KEY');
    const opened = await redeem(issued.access_key.toUpperCase(), freshIp(), { owner: ownerA.id });
    expect(opened.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const viewer = await new ViewerTokenVerifier(viewerKeys.publicKey).verify(opened.viewer_token);
    expect(viewer).toMatchObject({ vaultOwnerId: ownerA.id, viewSessionId: opened.session_id, scopes: ['letters'] });
    const [row] = await sql<Record<string, unknown>>('select * from view_sessions where id = ?', [opened.session_id]);
    expect(row).toMatchObject({ consent_version: 'v1.0', consent_hash: CONSENT_HASH, user_agent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' });
    expect(JSON.stringify(row)).not.toContain(opened.session);
    const renewed = (await call(AccessKeysRpc.viewToken, { session: opened.session }, undefined, freshIp())) as { viewer_token: string; session_id: string };
    expect(renewed.session_id).toBe(opened.session_id);
  });

  it('lets a key allow downloads of originals (default view only): the session copies it, its tokens carry it, the owner’s list shows it', async () => {
    const viewOnly = await createKey(ownerA, { scopes: ['timeline'] });
    const downloads = await createKey(ownerA, { scopes: ['timeline'], allow_download: true });
    expect(await codeOf(createKey(ownerA, { allow_download: 'yes' }))).toBe('VALIDATION_FAILED');
    const verifier = new ViewerTokenVerifier(viewerKeys.publicKey);
    const plain = await redeem(viewOnly.access_key);
    expect(plain.may_download).toBe(false);
    expect(await verifier.verify(plain.viewer_token)).toMatchObject({ mayDownload: false });
    const opened = await redeem(downloads.access_key);
    expect(opened.may_download).toBe(true);
    expect(await verifier.verify(opened.viewer_token)).toMatchObject({ mayDownload: true });
    const renewed = (await call(AccessKeysRpc.viewToken, { session: opened.session }, undefined, freshIp())) as { viewer_token: string; may_download: boolean };
    expect(renewed.may_download).toBe(true);
    expect(await verifier.verify(renewed.viewer_token)).toMatchObject({ mayDownload: true });
    const listed = (await call(AccessKeysRpc.listKeys, {}, ownerA.token)) as { id: string; allow_download: boolean }[];
    expect(listed.find((k) => k.id === downloads.key_id)!.allow_download).toBe(true);
    expect(listed.find((k) => k.id === viewOnly.key_id)!.allow_download).toBe(false);
  });

  it('records views of shared sections (once a minute each) and refuses the others', async () => {
    const issued = await createKey(ownerA, { scopes: ['letters', 'timeline'] });
    const opened = await redeem(issued.access_key);
    await call(AccessKeysRpc.recordView, { section: 'letters' }, opened.viewer_token);
    await call(AccessKeysRpc.recordView, { section: 'letters' }, opened.viewer_token);
    await call(AccessKeysRpc.recordView, { section: 'timeline' }, opened.viewer_token);
    expect(await codeOf(call(AccessKeysRpc.recordView, { section: 'court-journal' }, opened.viewer_token))).toBe('FORBIDDEN');
    // A viewer can reach no owner handler, and an owner is not a viewer.
    expect(await codeOf(call(AccessKeysRpc.listKeys, {}, opened.viewer_token))).toBe('FORBIDDEN');
    expect(await codeOf(call(AccessKeysRpc.recordView, { section: 'letters' }, ownerA.token))).toBe('FORBIDDEN');
    const sessions = (await call(AccessKeysRpc.listSessions, {}, ownerA.token)) as { id: string; views: { section: string }[]; consent: { consent_version: string } }[];
    const mine = sessions.find((s) => s.id === opened.session_id)!;
    expect(mine.views.map((v) => v.section).sort()).toEqual(['letters', 'timeline']);
    expect(mine.consent.consent_version).toBe('v1.0');
    expect(((await call(AccessKeysRpc.listSessions, {}, ownerB.token)) as unknown[]).length).toBe(0);
  });

  it('records each opened item once a minute, apart from its section’s list, and shows the owner which items each session opened', async () => {
    const issued = await createKey(ownerA, { scopes: ['letters', 'who-i-am'] });
    const opened = await redeem(issued.access_key);
    const letterA = randomUUID();
    const letterB = randomUUID();
    await call(AccessKeysRpc.recordView, { section: 'letters' }, opened.viewer_token);
    await call(AccessKeysRpc.recordView, { section: 'letters', item: { kind: 'letter', id: letterA } }, opened.viewer_token);
    await call(AccessKeysRpc.recordView, { section: 'letters', item: { kind: 'letter', id: letterA } }, opened.viewer_token);
    await call(AccessKeysRpc.recordView, { section: 'letters', item: { kind: 'letter', id: letterB } }, opened.viewer_token);
    await call(AccessKeysRpc.recordView, { section: 'who-i-am', item: { kind: 'portrait', id: ownerA.id } }, opened.viewer_token);
    // An item of a section the key does not hold is refused like the section, and nothing is kept.
    expect(await codeOf(call(AccessKeysRpc.recordView, { section: 'court-journal', item: { kind: 'document', id: randomUUID() } }, opened.viewer_token))).toBe('FORBIDDEN');
    expect(await codeOf(call(AccessKeysRpc.recordView, { section: 'letters', item: { kind: 'diary', id: letterA } }, opened.viewer_token))).toBe('VALIDATION_FAILED');
    const sessions = (await call(AccessKeysRpc.listSessions, {}, ownerA.token)) as { id: string; views: { section: string; item?: { kind: string; id: string; title: string | null } }[] }[];
    const views = sessions.find((s) => s.id === opened.session_id)!.views;
    expect(views.map((v) => `${v.section}:${v.item ? `${v.item.kind}:${v.item.id}` : '-'}`).sort()).toEqual(
      [`letters:-`, `letters:letter:${letterA}`, `letters:letter:${letterB}`, `who-i-am:portrait:${ownerA.id}`].sort(),
    );
    // access-keys keeps kinds and ids, never words: the gateway reads titles from their owners.
    expect(views.every((v) => !v.item || v.item.title === null)).toBe(true);
  });

  it('opens the final words to a key holder only while the owner allows a preview (the owner always)', async () => {
    const owner = newOwner();
    const thoughts = `Final words ${randomUUID()}`;
    const save = (allow_preview: boolean) => call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview, notify_trustee: false, final_thoughts: thoughts,
    }, owner.token);
    await save(false);
    const issued = await createKey(owner, { scopes: ['if-im-not-there'] });
    const opened = await redeem(issued.access_key);
    expect(await call(AccessKeysRpc.finalAccess, {}, opened.viewer_token)).toEqual({ open: false, released: false, final_thoughts: null });
    expect(await call(AccessKeysRpc.finalEntries, {}, opened.viewer_token)).toEqual([]);
    expect(await call(AccessKeysRpc.finalAccess, {}, owner.token)).toMatchObject({ open: true, final_thoughts: { text: thoughts } });
    await save(true);
    expect(await call(AccessKeysRpc.finalAccess, {}, opened.viewer_token)).toMatchObject({ open: true, released: false, final_thoughts: { text: thoughts } });
    // A key without the section reads nothing of it.
    const lettersOnly = await redeem((await createKey(owner, { scopes: ['letters'] })).access_key);
    expect(await codeOf(call(AccessKeysRpc.finalAccess, {}, lettersOnly.viewer_token))).toBe('FORBIDDEN');
  });

  it('revoking a key ends its sessions at once: no renewal, no view, and every service’s verifier refuses its tokens', async () => {
    const issued = await createKey(ownerA);
    const opened = await redeem(issued.access_key);
    expect(await codeOf(call(AccessKeysRpc.revokeKey, { key_id: issued.key_id }, ownerB.token))).toBe('NOT_FOUND');
    const revoked = await call(AccessKeysRpc.revokeKey, { key_id: issued.key_id }, ownerA.token);
    expect(revoked).toMatchObject({ status: 'revoked' });
    expect(await codeOf(call(AccessKeysRpc.viewToken, { session: opened.session }, undefined, freshIp()))).toBe('VIEW_SESSION_ENDED');
    // The platform's verifier refuses the token itself (the revocation list), before any handler runs.
    expect(await codeOf(call(AccessKeysRpc.recordView, { section: 'letters' }, opened.viewer_token))).toBe('SESSION_EXPIRED');
    expect(await new RevokedViewSessions(redis).isRevoked(opened.session_id)).toBe(true);
    expect(await codeOf(redeem(issued.access_key))).toBe('INVALID_OR_EXPIRED_KEY');
    expect(await call(AccessKeysRpc.keyMailState, { key_id: issued.key_id })).toEqual({ state: 'revoked' });
  });

  it('lets the owner revoke one session and the viewer close their own', async () => {
    const issued = await createKey(ownerA);
    const first = await redeem(issued.access_key);
    const second = await redeem(issued.access_key);
    expect(await call(AccessKeysRpc.revokeSession, { session_id: first.session_id }, ownerA.token)).toMatchObject({ status: 'revoked' });
    expect(await codeOf(call(AccessKeysRpc.revokeSession, { session_id: second.session_id }, ownerB.token))).toBe('NOT_FOUND');
    expect(await call(AccessKeysRpc.closeSession, { session: second.session }, undefined, freshIp())).toEqual({ closed: true });
    expect(await codeOf(call(AccessKeysRpc.viewToken, { session: second.session }, undefined, freshIp()))).toBe('VIEW_SESSION_ENDED');
    expect(await call(AccessKeysRpc.closeSession, { session: 'A'.repeat(43) }, undefined, freshIp())).toEqual({ closed: false });
  });

  it('refuses an expired key like an unknown one', async () => {
    const issued = await createKey(ownerA, { expires_in_days: 1 });
    // The clock moved a day on: the read model's expiry is the event's, put back afterwards.
    await sql(`update access_keys set expires_at = now() - interval '1 minute' where id = ?`, [issued.key_id]);
    expect(await codeOf(redeem(issued.access_key))).toBe('INVALID_OR_EXPIRED_KEY');
    expect(await call(AccessKeysRpc.keyMailState, { key_id: issued.key_id })).toEqual({ state: 'expired' });
    await sql(`update access_keys set expires_at = ? where id = ?`, [issued.expires_at, issued.key_id]);
  });

  it('brute force: 1,000 random keys from 1,000 addresses are all refused; 50 from one address trip the limit, which then refuses even a good key', async () => {
    const good = await createKey(ownerA);
    const codes = new Map<string, number>();
    const guesses = Array.from({ length: 1000 }, () => randomUUID());
    for (let i = 0; i < guesses.length; i += 50) {
      const batch = await Promise.all(guesses.slice(i, i + 50).map((k) => codeOf(redeem(k))));
      for (const c of batch) codes.set(c, (codes.get(c) ?? 0) + 1);
    }
    expect(Object.fromEntries(codes)).toEqual({ INVALID_OR_EXPIRED_KEY: 1000 });

    const ip = freshIp();
    const one: string[] = [];
    for (let i = 0; i < 50; i++) one.push(await codeOf(redeem(randomUUID(), ip)));
    expect(one.filter((c) => c === 'INVALID_OR_EXPIRED_KEY').length).toBeLessThanOrEqual(5);
    expect(one.filter((c) => c === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(45);
    expect(await codeOf(redeem(good.access_key, ip))).toBe('RATE_LIMITED');
    expect(await codeOf(redeem(good.access_key, freshIp()))).toBe('OK');
    // Unknown session secrets count against the same limit.
    const ip2 = freshIp();
    for (let i = 0; i < 5; i++) expect(await codeOf(call(AccessKeysRpc.viewToken, { session: `${'B'.repeat(42)}${i}` }, undefined, ip2))).toBe('VIEW_SESSION_ENDED');
    expect(await codeOf(call(AccessKeysRpc.viewToken, { session: 'C'.repeat(43) }, undefined, ip2))).toBe('RATE_LIMITED');
  });

  it('counts and compares atomically: 60 parallel random redeems from one address get exactly 5 tries, the rest 429 (issue 29)', async () => {
    const ip = freshIp();
    const codes = await Promise.all(Array.from({ length: 60 }, () => codeOf(redeem(randomUUID(), ip))));
    const tally = Object.fromEntries([...new Set(codes)].map((c) => [c, codes.filter((x) => x === c).length]));
    expect(tally).toEqual({ INVALID_OR_EXPIRED_KEY: 5, RATE_LIMITED: 55 });
  });

  it('limits an IPv6 client per /64: the next address of the same /64 is the same budget, another /64 a fresh one', async () => {
    const good = await createKey(ownerA);
    const prefix = `2001:db8:${(++addressCounter).toString(16)}:7`;
    for (let i = 1; i <= 5; i++) expect(await codeOf(redeem(randomUUID(), `${prefix}::${i}`))).toBe('INVALID_OR_EXPIRED_KEY');
    expect(await codeOf(redeem(good.access_key, `${prefix}:ffff:ffff:ffff:ffff`))).toBe('RATE_LIMITED');
    expect(await codeOf(redeem(good.access_key, `2001:db8:${(++addressCounter).toString(16)}:8::1`))).toBe('OK');
  });

  it('shows a key’s e-mail as sent when notifications reports it (a repeated report changes nothing)', async () => {
    const issued = await createKey(ownerA, { name: 'Mailed' });
    const js = jetstream(service.core.nats);
    const eventId = randomUUID();
    const body = {
      eventId, type: 'KeyEmailSent', streamId: `key-email-${issued.key_id}`, version: 1, occurredAt: new Date().toISOString(),
      data: { keyId: issued.key_id, sentAt: new Date().toISOString(), messageId: `<key-${issued.key_id}@legacy-vault>` }, metadata: {},
    };
    for (const id of [eventId, randomUUID()]) {
      const h = natsHeaders();
      h.set('Nats-Msg-Id', id);
      await js.publish(scopedSubject(NotificationsEvents.KeyEmailSent, STACK_ID), JSON.stringify({ ...body, eventId: id }), { headers: h });
    }
    await waitFor(async () => {
      const keys = (await call(AccessKeysRpc.listKeys, {}, ownerA.token)) as { id: string; email_status: string }[];
      return keys.find((k) => k.id === issued.key_id)?.email_status === 'sent';
    }, 15_000, 'the key e-mail status');
    const statusEvents = await sql<{ n: number }>(`select count(*)::int as n from events where stream_id = ? and type = 'AccessKeyEmailStatusChanged'`, [`access-key-${issued.key_id}`]);
    expect(statusEvents[0]!.n).toBe(1);
  });

  it('publishes ids and times only', async () => {
    const jsm = await jetstreamManager(service.core.nats);
    await waitFor(async () => (await jsm.streams.info(scopedStreamName('access-keys', STACK_ID))).state.messages > 5, 15_000, 'access-keys events on JetStream');
    const js = jetstream(service.core.nats);
    const consumer = await js.consumers.get(scopedStreamName('access-keys', STACK_ID));
    const seen: string[] = [];
    const messages = await consumer.fetch({ max_messages: 200, expires: 2000 });
    for await (const m of messages) {
      seen.push(m.string());
      if (seen.length >= (await jsm.streams.info(scopedStreamName('access-keys', STACK_ID))).state.messages) break;
    }
    const all = seen.join('\n');
    expect(all).toContain(AccessKeysEvents.AccessKeyIssued.subject.split('.').at(-2)!);
    for (const secret of ['sam@example.com', 'ellie@example.com', 'keyHash', 'secretHash', 'I would like to read']) expect(all).not.toContain(secret);
  });

  it('sudo mode: a session that last proved who it is over 10 minutes ago issues and revokes no key and changes no trustee, contact key or delivery setting; a fresh proof does', async () => {
    const id = randomUUID();
    const sid = randomUUID();
    const tokenProvedAt = (secondsAgo: number) => signer.sign({
      sub: id, sid, email: `${id}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user', authAt: Math.floor(Date.now() / 1000) - secondsAgo,
    }, 600).token;
    const stale: Owner = { id, token: tokenProvedAt(SUDO_WINDOW_SECONDS + 5) };
    const fresh: Owner = { id, token: tokenProvedAt(5) };
    const issued = await createKey(fresh);
    await submit(fresh, { requester_email: 'sudo.request@example.com' });
    const request = (await pending(fresh)).items.find((r) => r.requester_email === 'sudo.request@example.com')!;
    const contactId = randomUUID();
    await call(AccessKeysRpc.addContact, { id: contactId, name: 'Grace Hale', label: 'My Sibling', email: 'grace.sudo@example.com', phone: null }, stale.token);
    const sensitive: [string, RpcDeclaration, unknown][] = [
      ['create a key', AccessKeysRpc.createKey, { ...(await draftKey(fresh)), name: 'Ellie', email: 'ellie@example.com' }],
      ['approve a request', AccessKeysRpc.approveRequest, { request_id: request.id }],
      ['revoke a key', AccessKeysRpc.revokeKey, { key_id: issued.key_id }],
      ['give a contact a key', AccessKeysRpc.setContactKey, { id: contactId, enabled: true }],
      ['add a trustee', AccessKeysRpc.addTrustee, { id: randomUUID(), name: 'Ann', email: 'ann.sudo@example.com', relationship: 'My Sibling' }],
      ['remove a trustee', AccessKeysRpc.removeTrustee, { id: randomUUID() }],
      ['change delivery settings', AccessKeysRpc.saveDeliverySettings, { delivery_timing: 'immediately', require_legal_verification: false, allow_preview: true, notify_trustee: false, final_thoughts: 'x' }],
    ];
    const refused = await Promise.all(sensitive.map(async ([what, rpcOf, payload]) => [what, await codeOf(call(rpcOf, payload, stale.token))]));
    expect(refused).toEqual(sensitive.map(([what]) => [what, 'SUDO_REQUIRED']));
    // Nothing changed: the key is active, the request pending, no trustee, the contact keyless.
    expect(((await call(AccessKeysRpc.listKeys, {}, stale.token)) as { id: string; status: string }[]).map((k) => [k.id, k.status])).toEqual([[issued.key_id, 'active']]);
    expect((await pending(fresh)).items.map((r) => r.id)).toContain(request.id);
    expect(await call(AccessKeysRpc.listTrustees, {}, stale.token)).toEqual([]);
    expect(((await call(AccessKeysRpc.listContacts, {}, stale.token)) as { id: string; has_access_key: boolean }[]).find((c) => c.id === contactId)?.has_access_key).toBe(false);
    // Reading and the rest stay open to the stale session; the fresh one does what was refused.
    expect(await codeOf(call(AccessKeysRpc.deliverySettings, {}, stale.token))).toBe('OK');
    expect(await codeOf(call(AccessKeysRpc.revokeKey, { key_id: issued.key_id }, fresh.token))).toBe('OK');
    expect(await codeOf(call(AccessKeysRpc.approveRequest, { request_id: request.id }, fresh.token))).toBe('OK');
  });

  describe('If I’m Not There: emergency contacts, their keys, delivery settings', () => {
    const contact = (over: Record<string, unknown> = {}) => ({ id: randomUUID(), name: 'Grace Hale', label: 'My Sibling', email: 'Grace@Example.com', phone: '+44 7700 900123', ...over });
    const contacts = (owner: Owner) => call(AccessKeysRpc.listContacts, {}, owner.token) as Promise<{ id: string; name: string; email: string; has_access_key: boolean; access_key_expires_at: string | null }[]>;
    const setKey = (owner: Owner, id: string, enabled: boolean) =>
      call(AccessKeysRpc.setContactKey, { id, enabled }, owner.token) as Promise<{ contact: { has_access_key: boolean; access_key_expires_at: string | null }; access_key: string | null }>;

    it('adds a contact once (a retried add changes nothing), lists it to its owner only, and keeps its details sealed in the events', async () => {
      const owner = newOwner();
      const grace = contact();
      const added = await call(AccessKeysRpc.addContact, grace, owner.token);
      expect(added).toMatchObject({ id: grace.id, name: 'Grace Hale', label: 'My Sibling', email: 'grace@example.com', phone: '+44 7700 900123', has_access_key: false, access_key_expires_at: null });
      expect(await call(AccessKeysRpc.addContact, grace, owner.token)).toEqual(added);
      await call(AccessKeysRpc.addContact, contact({ name: 'Tom', email: 'tom@example.com', phone: null, label: 'My Lawyer' }), owner.token);
      expect((await contacts(owner)).map((c) => c.name)).toEqual(['Grace Hale', 'Tom']);
      expect(await contacts(newOwner())).toEqual([]);
      // The same id with other details is refused, whoever sends it.
      expect(await codeOf(call(AccessKeysRpc.addContact, { ...grace, name: 'Someone else' }, owner.token))).toBe('CONFLICT');
      expect(await codeOf(call(AccessKeysRpc.addContact, grace, newOwner().token))).toBe('CONFLICT');
      const stored = await sql<{ data: unknown }>(`select data from events where stream_id = ?`, [`emergency-contact-${grace.id}`]);
      expect(JSON.stringify(stored)).not.toMatch(/Grace|grace@example|7700/);
    });

    it('refuses a contact without a name or an e-mail with the spec’s words, and other bad fields, storing nothing', async () => {
      const owner = newOwner();
      for (const [field, bad] of [['name', { name: '  ' }], ['email', { email: '' }], ['name', { name: undefined }]] as const) {
        await expect(call(AccessKeysRpc.addContact, contact(bad), owner.token)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { [field]: 'Please provide name and email.' } } });
      }
      for (const bad of [{ email: 'not-an-email' }, { label: 'My Cousin' }, { phone: 'call me' }, { id: 'not-a-uuid' }]) {
        expect(await codeOf(call(AccessKeysRpc.addContact, contact(bad), owner.token))).toBe('VALIDATION_FAILED');
      }
      expect(await contacts(owner)).toEqual([]);
      expect(await codeOf(call(AccessKeysRpc.addContact, contact()))).toBe('UNAUTHENTICATED');
    });

    it('the access key toggle: on issues a 7-day key for every section and queues its e-mail; the key opens the vault; off revokes it at once', async () => {
      const owner = newOwner();
      const grace = contact();
      await call(AccessKeysRpc.addContact, grace, owner.token);
      const before = Date.now();
      const on = await setKey(owner, grace.id, true);
      expect(on.access_key).toMatch(/^[0-9a-f-]{36}$/);
      expect(on.contact.has_access_key).toBe(true);
      const expires = Date.parse(on.contact.access_key_expires_at!);
      expect(expires - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 5000);
      expect(expires - before).toBeLessThanOrEqual(7 * 86_400_000 + 5000);
      const [key] = await sql<{ id: string; source: string; recipient_email: string; scopes: string[] }>(`select id, source, recipient_email, scopes from access_keys where owner_id = ?`, [owner.id]);
      expect(key).toMatchObject({ source: 'contact', recipient_email: 'grace@example.com', scopes: [...VIEW_SECTIONS] });
      const job = await queue.getJob(`key-${key!.id}`);
      expect(job?.data).toMatchObject({ keyId: key!.id, recipientEmail: 'grace@example.com', recipientName: 'Grace Hale' });
      expect(openFromJob(KEY_MAIL_SECRET, keyEmailSealContext(key!.id), job!.data.sealedKey)).toBe(on.access_key);
      // On again while the key works: the same key, no second one.
      expect((await setKey(owner, grace.id, true)).access_key).toBeNull();
      expect(await sql(`select id from access_keys where owner_id = ?`, [owner.id])).toHaveLength(1);

      const session = await redeem(on.access_key!);
      expect(session.scopes).toEqual([...VIEW_SECTIONS]);
      const off = await setKey(owner, grace.id, false);
      expect(off).toEqual({ contact: expect.objectContaining({ has_access_key: false, access_key_expires_at: null }), access_key: null });
      expect(await codeOf(call(AccessKeysRpc.viewToken, { session: session.session }, undefined, freshIp()))).not.toBe('OK');
      expect(await codeOf(redeem(on.access_key!))).toBe('INVALID_OR_EXPIRED_KEY');
      // Someone else's contact, or none: not found, and nothing issued.
      expect(await codeOf(setKey(newOwner(), grace.id, true))).toBe('NOT_FOUND');
      expect(await codeOf(setKey(owner, randomUUID(), true))).toBe('NOT_FOUND');
    });

    it('removing a contact revokes its key first, and the contact is gone', async () => {
      const owner = newOwner();
      const grace = contact();
      await call(AccessKeysRpc.addContact, grace, owner.token);
      const { access_key } = await setKey(owner, grace.id, true);
      expect(await codeOf(call(AccessKeysRpc.removeContact, { id: grace.id }, newOwner().token))).toBe('NOT_FOUND');
      expect(await call(AccessKeysRpc.removeContact, { id: grace.id }, owner.token)).toEqual({ id: grace.id, removed: true });
      expect(await contacts(owner)).toEqual([]);
      expect(await codeOf(redeem(access_key!))).toBe('INVALID_OR_EXPIRED_KEY');
      expect(await codeOf(call(AccessKeysRpc.removeContact, { id: grace.id }, owner.token))).toBe('NOT_FOUND');
    });

    it('delivery settings: the spec’s defaults until saved, saved as a whole per owner, the trustee and final thoughts sealed', async () => {
      const owner = newOwner();
      expect(await call(AccessKeysRpc.deliverySettings, {}, owner.token)).toEqual({
        delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: true, notify_trustee: true, trustee_name: '', trustee_email: '', final_thoughts: '', updated_at: null,
      });
      const settings = {
        delivery_timing: 'legal_verification', require_legal_verification: true, allow_preview: false, notify_trustee: true, trustee_name: 'Ruth Okafor', trustee_email: 'Ruth@Example.com',
        final_thoughts: 'Look after each other.',
      };
      const saved = await call(AccessKeysRpc.saveDeliverySettings, settings, owner.token);
      expect(saved).toEqual({ ...settings, trustee_email: 'ruth@example.com', updated_at: expect.any(String) });
      expect(await call(AccessKeysRpc.deliverySettings, {}, owner.token)).toEqual(saved);
      expect((await call(AccessKeysRpc.deliverySettings, {}, newOwner().token) as { updated_at: null }).updated_at).toBeNull();
      await expect(call(AccessKeysRpc.saveDeliverySettings, { ...settings, trustee_email: 'nope' }, owner.token)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(call(AccessKeysRpc.saveDeliverySettings, { ...settings, delivery_timing: 'tomorrow' }, owner.token)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      const stored = await sql<{ data: unknown }>(`select data from events where stream_id = ?`, [`delivery-settings-${owner.id}`]);
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toMatch(/Ruth|Look after/);
      // The final thoughts are what a key holder's tab lists, and only while the owner allows a preview.
      expect(await call(AccessKeysRpc.finalEntries, {}, owner.token)).toEqual([{ id: `${owner.id}:final-thoughts`, title: 'Final Thoughts', created_at: saved.updated_at }]);
      const { access_key } = await createKey(owner, { email: 'kid@example.com' });
      const viewer = await redeem(access_key);
      expect(await call(AccessKeysRpc.finalEntries, {}, viewer.viewer_token)).toEqual([]);
      await call(AccessKeysRpc.saveDeliverySettings, { ...settings, allow_preview: true }, owner.token);
      expect((await call(AccessKeysRpc.finalEntries, {}, viewer.viewer_token) as unknown[]).length).toBe(1);
      expect(await codeOf(call(AccessKeysRpc.deliverySettings, {}, viewer.viewer_token))).toBe('FORBIDDEN');
    });
  });

  describe('vault delivery: released exactly once, never early', () => {
    const operator = () => signOperatorToken(signer, 'spec-operator');
    const setUp = async (timing: string, requireLegalVerification = false, contactCount = 2, trustee: { name: string; email: string } | null = null) => {
      const owner = newOwner();
      for (let i = 0; i < contactCount; i++) {
        await call(AccessKeysRpc.addContact, { id: randomUUID(), name: `Contact ${i}`, label: 'My Child', email: `contact${i}-${owner.id}@example.com` }, owner.token);
      }
      await call(AccessKeysRpc.saveDeliverySettings, {
        delivery_timing: timing, require_legal_verification: requireLegalVerification, allow_preview: true, notify_trustee: trustee !== null, trustee_name: trustee?.name ?? '',
        trustee_email: trustee?.email ?? '', final_thoughts: '',
      }, owner.token);
      return owner;
    };
    const report = (owner: Owner) => call(AccessKeysRpc.reportAbsence, { owner_id: owner.id, owner_email: `${owner.id}@example.com` }, operator()) as Promise<{ status: string; release_id: string; due_at: string | null }>;
    const deliveredKeys = (owner: Owner) => sql<{ id: string; recipient_email: string; expires_at: Date }>(`select id, recipient_email, expires_at from access_keys where owner_id = ? and source = 'delivery'`, [owner.id]);
    const releasedEvents = (owner: Owner) => sql(`select data from events where stream_id = ? and type = 'DeliveryReleased'`, [`delivery-${owner.id}`]);

    /** A delivery service on the running one's store, with a clock the spec moves. */
    const onFakeClock = async (start: number) => {
      const { DeliveryService } = await import('../src/if-im-not-there/delivery.service.js');
      const { AccessKeysService } = await import('../src/access-keys.service.js');
      const keysService = service.app.get(AccessKeysService);
      const clock = { now: start };
      const jobs = createQueue(Queues.DeliveryTiming, redis, { prefix: queuePrefix(STACK_ID) });
      const delivery = new DeliveryService({ orm: db.orm, store: keysService.store, keys: keysService, jobs, now: () => new Date(clock.now) });
      return { delivery, clock, jobs };
    };

    it('immediately: the due job gives every contact a 30-day key and its e-mail, once, whatever the duplicates', async () => {
      const owner = await setUp('immediately');
      const view = await report(owner);
      expect(view).toMatchObject({ status: 'waiting', due_at: expect.any(String) });
      await waitFor(async () => (await call(AccessKeysRpc.delivery, {}, owner.token) as { status: string }).status === 'released', 20_000, 'the delivery to be released');
      // A second report, and the same job queued five more times, change nothing.
      expect((await report(owner)).status).toBe('released');
      const deliveryQueue = new Queue<DeliveryTimingJob>(Queues.DeliveryTiming.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      const job: DeliveryTimingJob = { subjectType: 'delivery', subjectId: view.release_id, ownerId: owner.id, dueAt: view.due_at!, sharedBy: `${owner.id}@example.com` };
      for (let i = 0; i < 5; i++) await deliveryQueue.add(Queues.DeliveryTiming.name, job, { jobId: `duplicate-${i}-${owner.id}` });
      await waitFor(async () => ((await deliveryQueue.getJobCounts('wait', 'active', 'delayed')).wait ?? 0) + ((await deliveryQueue.getJobCounts('active')).active ?? 0) === 0, 20_000, 'the duplicates to run');
      await deliveryQueue.close();
      const keys = await deliveredKeys(owner);
      expect(keys.map((k) => k.recipient_email).sort()).toEqual([`contact0-${owner.id}@example.com`, `contact1-${owner.id}@example.com`]);
      for (const key of keys) {
        expect(new Date(key.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
        expect((await queue.getJob(`key-${key.id}`))?.data).toMatchObject({ sharedBy: `${owner.id}@example.com` });
      }
      expect(await releasedEvents(owner)).toHaveLength(1);
    });

    it('tells the trustee (when the settings say so) that it started and that it happened: one notice job per step, sent once its step committed', async () => {
      const trustee = { name: 'Ruth Okafor', email: `ruth-${randomUUID().slice(0, 8)}@example.com` };
      const owner = await setUp('immediately', false, 1, trustee);
      const notices = new Queue<TrusteeNoticeJob>(Queues.TrusteeNotices.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      const view = await report(owner);
      await waitFor(async () => (await call(AccessKeysRpc.delivery, {}, owner.token) as { status: string }).status === 'released', 20_000, 'the delivery to be released');
      const started = await notices.getJob(`trustee-${view.release_id}-started`);
      const released = await notices.getJob(`trustee-${view.release_id}-released`);
      expect(started?.data).toEqual({
        noticeId: `${view.release_id}-started`, releaseId: view.release_id, ownerId: owner.id, kind: 'started', trusteeEmail: trustee.email, trusteeName: 'Ruth Okafor',
        sharedBy: `${owner.id}@example.com`, dueAt: view.due_at,
        // The trace of the operator's report that started it (platform queues: enqueue).
        _trace: expect.objectContaining({ correlationId: expect.any(String) }),
      });
      expect(released?.data).toMatchObject({ kind: 'released', trusteeEmail: trustee.email, dueAt: null });
      // What notifications asks before sending: has that step committed? (Public on the bus, like key-mail-state; NATS permissions limit it to notifications.)
      expect(await call(AccessKeysRpc.trusteeNoticeState, { owner_id: owner.id, release_id: view.release_id })).toEqual({ state: 'released' });
      expect(await call(AccessKeysRpc.trusteeNoticeState, { owner_id: owner.id, release_id: randomUUID() })).toEqual({ state: 'unknown' });

      // No trustee to notify: no notice.
      const quiet = await setUp('after_30_days', false, 1);
      const quietView = await report(quiet);
      expect(await call(AccessKeysRpc.trusteeNoticeState, { owner_id: quiet.id, release_id: quietView.release_id })).toEqual({ state: 'started' });
      expect(await notices.getJob(`trustee-${quietView.release_id}-started`)).toBeUndefined();
      const deliveryQueue = new Queue<DeliveryTimingJob>(Queues.DeliveryTiming.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      await (await deliveryQueue.getJob(`delivery-${quietView.release_id}-${Date.parse(quietView.due_at!)}`))?.remove();
      await deliveryQueue.close();
      await notices.obliterate({ force: true }).catch(() => undefined);
      await notices.close();
    });

    it('after 30 days, on a fake clock: nothing a millisecond early; then once, of 20 racing jobs', async () => {
      const owner = await setUp('after_30_days');
      const start = Date.now();
      const { delivery, clock, jobs } = await onFakeClock(start);
      const view = await delivery.trigger(owner.id, `${owner.id}@example.com`, 'trustee-report', {});
      expect(Date.parse(view.due_at!) - start).toBe(30 * 86_400_000);
      const job: DeliveryTimingJob = { subjectType: 'delivery', subjectId: view.release_id!, ownerId: owner.id, dueAt: view.due_at!, sharedBy: 'x@example.com' };
      clock.now = Date.parse(view.due_at!) - 1;
      expect(await delivery.release(job)).toEqual({ outcome: 'not-due', dueAt: view.due_at });
      expect(await deliveredKeys(owner)).toEqual([]);
      clock.now = Date.parse(view.due_at!);
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => delivery.release(job).catch((e: Error) => ({ outcome: e.name }))));
      expect(outcomes.filter((o) => o.outcome === 'released')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome !== 'released' && o.outcome !== 'nothing')).toEqual([]);
      expect(await deliveredKeys(owner)).toHaveLength(2);
      expect(await releasedEvents(owner)).toHaveLength(1);
      // Its scheduled job is in the queue, delayed until the due time.
      const scheduled = await jobs.getJob(`delivery-${view.release_id}-${Date.parse(view.due_at!)}`);
      expect(await scheduled?.isDelayed()).toBe(true);
      await scheduled?.remove();
      await jobs.close();
    });

    it('“I’m still here”: the owner cancels before it happens, and its job releases nothing; only the owner can', async () => {
      const owner = await setUp('after_30_days');
      const { delivery, clock, jobs } = await onFakeClock(Date.now());
      const view = await delivery.trigger(owner.id, 'x@example.com', 'inactivity', {});
      expect(await codeOf(call(AccessKeysRpc.cancelDelivery, {}, operator()))).toBe('FORBIDDEN');
      expect((await call(AccessKeysRpc.cancelDelivery, {}, newOwner().token) as { status: string }).status).toBe('none');
      expect((await call(AccessKeysRpc.cancelDelivery, {}, owner.token) as { status: string }).status).toBe('cancelled');
      clock.now += 31 * 86_400_000;
      expect(await delivery.release({ subjectType: 'delivery', subjectId: view.release_id!, ownerId: owner.id, dueAt: view.due_at!, sharedBy: 'x' })).toEqual({ outcome: 'nothing' });
      // A job naming a delivery the stream does not show (not committed yet, or stale) is not released either.
      expect(await delivery.release({ subjectType: 'delivery', subjectId: randomUUID(), ownerId: owner.id, dueAt: view.due_at!, sharedBy: 'x' })).toEqual({ outcome: 'unknown' });
      expect(await deliveredKeys(owner)).toEqual([]);
      await (await jobs.getJob(`delivery-${view.release_id}-${Date.parse(view.due_at!)}`))?.remove();
      await jobs.close();
    });

    it('/test-vault-delivery’s checks run against this service: its queue and worker pass; no notifications here, so no key e-mail worker', async () => {
      const owner = await setUp('after_30_days', false, 1);
      const checks = await call(AccessKeysRpc.deliveryChecks, {}, owner.token) as { name: string; passed: boolean }[];
      expect(Object.fromEntries(checks.map((c) => [c.name, c.passed]))).toEqual({
        'Delivery settings load': true, 'Emergency contacts ready': true, 'Delivery timing queue reachable': true, 'Delivery worker running': true,
        'Key e-mail worker running': false, 'Inactivity workers running': false, 'Never released early': true, 'Released exactly once': true,
      });
      expect((await call(AccessKeysRpc.deliveryChecks, {}, newOwner().token) as { name: string; passed: boolean }[]).find((c) => c.name === 'Emergency contacts ready')?.passed).toBe(false);
    });

    it('legal verification: nothing is due until an operator verifies; then the worker releases it', async () => {
      const owner = await setUp('legal_verification', false, 1);
      expect(await codeOf(call(AccessKeysRpc.reportAbsence, { owner_id: owner.id, owner_email: 'a@example.com' }, owner.token))).toBe('FORBIDDEN');
      const view = await report(owner);
      expect(view).toMatchObject({ status: 'awaiting-verification', due_at: null });
      // No job is scheduled for it; and a due job naming it, run by the worker to its end, releases nothing.
      const deliveryQueue = new Queue<DeliveryTimingJob>(Queues.DeliveryTiming.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
      expect((await deliveryQueue.getJobs(['waiting', 'delayed', 'active'])).filter((j) => j.data.subjectId === view.release_id)).toEqual([]);
      const dueJob: DeliveryTimingJob = { subjectType: 'delivery', subjectId: view.release_id, ownerId: owner.id, dueAt: new Date().toISOString(), sharedBy: `${owner.id}@example.com` };
      const probe = await deliveryQueue.add(Queues.DeliveryTiming.name, dueJob, { jobId: `unverified-${view.release_id}`, attempts: 1 });
      // Sentinel: the worker has finished that job (it fails: an unverified delivery is not releasable).
      await waitFor(async () => ['completed', 'failed'].includes(await probe.getState()), 20_000, 'the due job to finish');
      expect(await deliveredKeys(owner)).toEqual([]);
      expect(await probe.getState()).toBe('failed');
      await probe.remove();
      await deliveryQueue.close();
      expect((await call(AccessKeysRpc.verifyDelivery, { owner_id: owner.id, owner_email: `${owner.id}@example.com` }, operator()) as { status: string }).status).toMatch(/waiting|released/);
      // Its job may run before the verification commits (it is queued inside the transaction): it retries until visible.
      await waitFor(async () => (await deliveredKeys(owner)).length === 1, 30_000, 'the verified delivery to be released');
      expect(await releasedEvents(owner)).toHaveLength(1);
    });
  });

  it('rebuilds its read models from the events to the same rows', async () => {
    const snapshot = async () => ({
      requests: await sql('select * from access_requests order by id'),
      keys: await sql('select * from access_keys order by id'),
      sessions: await sql('select * from view_sessions order by id'),
      views: await sql('select * from view_session_views order by session_id, viewed_at, section'),
      contacts: await sql('select * from emergency_contacts order by id'),
      settings: await sql('select * from delivery_settings order by owner_id'),
    });
    const before = await snapshot();
    const operator = signOperatorToken(signer, 'spec-operator');
    expect(await codeOf(call(AccessKeysRpc.rebuildProjections, {}, ownerA.token))).toBe('FORBIDDEN');
    await call(AccessKeysRpc.rebuildProjections, {}, operator);
    expect(await snapshot()).toEqual(before);
    expect(before.contacts.length).toBeGreaterThan(0);
    expect(before.settings.length).toBeGreaterThan(0);
    expect(VIEW_SECTIONS).toHaveLength(5);
  });
});
