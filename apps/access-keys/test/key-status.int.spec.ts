import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { AccessKeysRpc, AccessMessages, CONSENT_VERSION, REDEEM_FAILURES_PER_MINUTE, type IssuedAccessKey, type RpcDeclaration } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { generateTestKeys, uniqueStackId } from '@lv/testing';
import { CONSENT_HASH } from '../src/secrets.js';
import { standInOwnerNames, startInProcessAccessKeys, type InProcessAccessKeys } from './support/in-process-access-keys.js';

// Issue 28: a key's landing page asks access-keys, before the disclaimer, whether a key still works
// and whose vault it opens. access-keys runs in-process over the shared NATS, Redis and a fresh
// database; identity is a stand-in answering the owner's display name in Nest's wire format.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('keystatus');
process.env.STACK_ID = STACK_ID;
const keys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const ownerId = randomUUID();
const ownerToken = signer.sign({ sub: ownerId, sid: randomUUID(), email: 'sam@example.com', tier: 'none', admin: false, emailVerified: true, kind: 'user' }, 600).token;
let addressCounter = 0;
const freshIp = () => `10.77.${Math.floor(++addressCounter / 256) % 256}.${addressCounter % 256}`;

describe('key status (rpc.access-keys.key-status)', () => {
  let accessKeys: InProcessAccessKeys | undefined;
  let identity: NatsConnection | undefined;
  const asked: string[] = [];

  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, ip: string, token?: string) =>
    accessKeys!.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'key-status-spec', ip } });
  const status = (key: string, ip = freshIp(), owner: string | null = null) => call(AccessKeysRpc.keyStatus, { access_key: key, owner }, ip);
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const createKey = async () => {
    const made = await call(AccessKeysRpc.draftKey, {}, freshIp(), ownerToken);
    return call(AccessKeysRpc.createKey, { ...(made as object), name: 'Ellie', email: 'ellie@example.com' }, freshIp(), ownerToken) as Promise<IssuedAccessKey>;
  };
  const sql = (text: string, params: unknown[]) => accessKeys!.db.orm.em.fork().execute(text, params);

  beforeAll(async () => {
    // identity's stand-in: the owner's full name.
    identity = await standInOwnerNames({ [ownerId]: 'Sam Taylor' }, asked);
    accessKeys = await startInProcessAccessKeys('key-status', { jwtPublicKey: keys.publicKey });
  });

  afterAll(async () => {
    await accessKeys?.close();
    await identity?.close();
  });

  it("says an active key is active, with the owner's name from identity, and redeeming it still works", async () => {
    const issued = await createKey();
    expect(await status(issued.access_key, freshIp(), ownerId)).toEqual({ status: 'active', owner_name: 'Sam Taylor' });
    expect(await status(issued.access_key.toUpperCase())).toEqual({ status: 'active', owner_name: 'Sam Taylor' });
    expect(asked).toContain(ownerId);
    await expect(call(AccessKeysRpc.redeem, { access_key: issued.access_key, consent: { version: CONSENT_VERSION, text_hash: CONSENT_HASH } }, freshIp())).resolves.toMatchObject({ owner_id: ownerId });
  });

  it('says a revoked key is revoked and an expired key expired, without counting them as failures', async () => {
    const revoked = await createKey();
    await call(AccessKeysRpc.revokeKey, { key_id: revoked.key_id }, freshIp(), ownerToken);
    const expired = await createKey();
    await sql(`update access_keys set expires_at = now() - interval '1 minute' where id = ?`, [expired.key_id]);
    const ip = freshIp();
    for (let i = 0; i < REDEEM_FAILURES_PER_MINUTE + 2; i++) {
      expect(await status(revoked.access_key, ip)).toEqual({ status: 'revoked', owner_name: 'Sam Taylor' });
      expect(await status(expired.access_key, ip)).toEqual({ status: 'expired', owner_name: 'Sam Taylor' });
    }
  });

  it("refuses an unknown key, or another vault's, exactly as redeem does, and counts it against redeem's limit", async () => {
    const good = await createKey();
    const ip = freshIp();
    await expect(status(randomUUID(), ip)).rejects.toMatchObject({ code: 'INVALID_OR_EXPIRED_KEY', message: AccessMessages.keyInvalid });
    await expect(status(good.access_key, ip, randomUUID())).rejects.toMatchObject({ code: 'INVALID_OR_EXPIRED_KEY', message: AccessMessages.keyInvalid });
    expect(await codeOf(status('not-a-key', ip))).toBe('VALIDATION_FAILED');
    // The rest of the minute's failures spent on redeem: the key-status check is then refused too, even for a good key.
    for (let i = 2; i < REDEEM_FAILURES_PER_MINUTE; i++) {
      expect(await codeOf(call(AccessKeysRpc.redeem, { access_key: randomUUID(), consent: { version: CONSENT_VERSION, text_hash: CONSENT_HASH } }, ip))).toBe('INVALID_OR_EXPIRED_KEY');
    }
    await expect(status(good.access_key, ip)).rejects.toMatchObject({ code: 'RATE_LIMITED', message: AccessMessages.tooManyKeyAttempts });
    // And failures on key-status alone limit redeem from that address.
    const other = freshIp();
    for (let i = 0; i < REDEEM_FAILURES_PER_MINUTE; i++) expect(await codeOf(status(randomUUID(), other))).toBe('INVALID_OR_EXPIRED_KEY');
    expect(await codeOf(call(AccessKeysRpc.redeem, { access_key: good.access_key, consent: { version: CONSENT_VERSION, text_hash: CONSENT_HASH } }, other))).toBe('RATE_LIMITED');
  });
});
