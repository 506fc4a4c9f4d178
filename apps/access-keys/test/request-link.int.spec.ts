import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  AccessKeysRpc, Queues, REQUEST_FORM_LOOKUPS_PER_MINUTE, RequestLinkMessages, type AccessRequestNoticeJob, type AccessRequestPage, type RpcDeclaration,
} from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { queuePrefix } from '@lv/platform/queues';
import { generateTestKeys, uniqueStackId } from '@lv/testing';
import { standInOwnerNames, startInProcessAccessKeys, type InProcessAccessKeys } from './support/in-process-access-keys.js';

// Issue 28, asking for access from the owner's link: his switch (an event on his own stream, a read
// model, open by default), the public lookup the request page makes, the refusal of a request while
// closed, and the owner's notice job queued with each request. access-keys runs in-process over the
// shared NATS, Redis and a fresh database; identity is a stand-in answering the owner's display name.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('reqlink');
process.env.STACK_ID = STACK_ID;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const ownerId = randomUUID();
const otherOwnerId = randomUUID();
const tokenOf = (userId: string) => signer.sign({ sub: userId, sid: randomUUID(), email: `${userId.slice(0, 8)}@example.com`, tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 600).token;
let addressCounter = 0;
const freshIp = () => `10.78.${Math.floor(++addressCounter / 256) % 256}.${addressCounter % 256}`;

describe('the request link (request-setting, request-form, submit-request)', () => {
  let accessKeys: InProcessAccessKeys | undefined;
  let identity: NatsConnection | undefined;
  let redis: Redis;
  let notices: Queue<AccessRequestNoticeJob>;

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string, ip = freshIp()) =>
    accessKeys!.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: `reqlink-${randomUUID()}`, ip } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const setting = (userId: string) => call(AccessKeysRpc.requestSetting, {}, tokenOf(userId));
  const save = (userId: string, open: boolean) => call(AccessKeysRpc.saveRequestSetting, { open }, tokenOf(userId));
  const form = (userId: string, ip?: string) => call(AccessKeysRpc.requestForm, { user_id: userId }, undefined, ip);
  const submit = (userId: string, over: Record<string, unknown> = {}) =>
    call(AccessKeysRpc.submitRequest, { user_id: userId, requester_email: 'ellie@example.com', requester_name: 'Ellie', relationship: 'Daughter', message: 'May I read your letters?', ...over });
  const pending = async (userId: string) => ((await call(AccessKeysRpc.listRequests, {}, tokenOf(userId))) as AccessRequestPage).items;
  const sql = <T>(text: string, params: unknown[]) => accessKeys!.db.orm.em.fork().execute<T[]>(text, params);

  beforeAll(async () => {
    identity = await standInOwnerNames({ [ownerId]: 'Sam Taylor' });
    accessKeys = await startInProcessAccessKeys('request-link', { jwtPublicKey: keys.publicKey, streams: ['access-keys', 'notifications', 'identity'] });
    redis = new Redis(REDIS_URL);
    notices = new Queue<AccessRequestNoticeJob>(Queues.AccessRequestNotices.name, { connection: redis, prefix: queuePrefix(STACK_ID) });
  });

  afterAll(async () => {
    await notices?.obliterate({ force: true }).catch(() => undefined);
    await notices?.close();
    redis?.disconnect();
    await accessKeys?.close();
    await identity?.close();
  });

  it('is open by default; the owner closes and reopens it, as events on his own stream; another owner’s switch is his own', async () => {
    expect(await setting(ownerId)).toEqual({ open: true });
    expect(await form(ownerId)).toEqual({ open: true, owner_name: 'Sam Taylor' });

    expect(await save(ownerId, false)).toEqual({ open: false });
    expect(await setting(ownerId)).toEqual({ open: false });
    expect(await setting(otherOwnerId)).toEqual({ open: true });
    expect(await form(ownerId)).toEqual({ open: false, owner_name: 'Sam Taylor' });
    expect(await form(otherOwnerId)).toEqual({ open: true, owner_name: null });
    // The same choice again records nothing.
    expect(await save(ownerId, false)).toEqual({ open: false });

    expect(await save(ownerId, true)).toEqual({ open: true });
    expect(await form(ownerId)).toEqual({ open: true, owner_name: 'Sam Taylor' });
    const events = await sql<{ type: string; data: { open: boolean } }>(`select type, data from events where stream_id = ? order by version`, [`request-setting-${ownerId}`]);
    expect(events.map((e) => [e.type, e.data.open])).toEqual([['RequestSettingChanged', false], ['RequestSettingChanged', true]]);
    expect(await sql(`select open from request_settings where owner_id = ?`, [otherOwnerId])).toEqual([]);
  });

  it('refuses the switch to callers without an owner’s token, and a body that is not true or false', async () => {
    expect(await codeOf(call(AccessKeysRpc.requestSetting, {}))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(AccessKeysRpc.saveRequestSetting, { open: false }))).toBe('UNAUTHENTICATED');
    expect(await codeOf(call(AccessKeysRpc.saveRequestSetting, { open: 'no' }, tokenOf(ownerId)))).toBe('VALIDATION_FAILED');
    expect(await setting(ownerId)).toEqual({ open: true });
  });

  it('refuses a request while the link is closed (REQUESTS_CLOSED), recording and queueing nothing, and takes them again once reopened', async () => {
    const owner = randomUUID();
    await save(owner, false);
    await expect(submit(owner)).rejects.toMatchObject({ code: 'REQUESTS_CLOSED', message: RequestLinkMessages.requestsClosed });
    expect(await pending(owner)).toEqual([]);
    expect((await notices.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter((j) => j.data.ownerId === owner)).toEqual([]);

    await save(owner, true);
    expect(await submit(owner)).toEqual({ success: true });
    expect(await pending(owner)).toHaveLength(1);
  });

  it('queues the owner’s notice with each request (request-notice-<id>-<its event id>, ids only), and answers its state: pending with who asked, decided, unknown', async () => {
    const owner = randomUUID();
    await submit(owner, { requester_name: 'Ellie Taylor', relationship: 'Daughter' });
    const [request] = await pending(owner);
    const job = (await notices.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed'])).find((j) => j.id?.startsWith(`request-notice-${request!.id}-`));
    expect(job?.data).toMatchObject({ requestId: request!.id, ownerId: owner });
    expect(JSON.stringify(job?.data)).not.toContain('ellie');

    const state = (owner_id: string, request_id: string) => call(AccessKeysRpc.requestNoticeState, { owner_id, request_id });
    expect(await state(owner, request!.id)).toEqual({ state: 'pending', requester_name: 'Ellie Taylor', relationship: 'Daughter' });
    expect(await state(otherOwnerId, request!.id)).toEqual({ state: 'unknown', requester_name: null, relationship: null });
    expect(await state(owner, randomUUID())).toEqual({ state: 'unknown', requester_name: null, relationship: null });
    await call(AccessKeysRpc.declineRequest, { request_id: request!.id }, tokenOf(owner));
    expect(await state(owner, request!.id)).toEqual({ state: 'decided', requester_name: null, relationship: null });
  });

  it('the request page’s lookup: an id of no account answers like a nameless open vault, a malformed one is refused, and an address is limited to REQUEST_FORM_LOOKUPS_PER_MINUTE a minute', async () => {
    expect(await form(randomUUID())).toEqual({ open: true, owner_name: null });
    expect(await codeOf(call(AccessKeysRpc.requestForm, { user_id: 'not-an-id' }))).toBe('VALIDATION_FAILED');
    const ip = freshIp();
    // A new minute may begin during the loop: its count then starts again, so allow the loop to straddle one.
    const codes: string[] = [];
    for (let i = 0; i < REQUEST_FORM_LOOKUPS_PER_MINUTE + 1; i++) codes.push(await codeOf(form(ownerId, ip)));
    if (codes.at(-1) === 'OK') codes.push(...(await Promise.all(Array.from({ length: REQUEST_FORM_LOOKUPS_PER_MINUTE + 1 }, () => codeOf(form(ownerId, ip))))));
    expect(codes).toContain('RATE_LIMITED');
    expect(codes.slice(0, REQUEST_FORM_LOOKUPS_PER_MINUTE).every((c) => c === 'OK')).toBe(true);
    // Another address is not held back.
    expect(await form(ownerId)).toEqual({ open: true, owner_name: 'Sam Taylor' });
  });
});
