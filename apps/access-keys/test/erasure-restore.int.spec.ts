import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { AccessKeysRpc, CONSENT_VERSION, Queues, type IssuedAccessKey, type KeyDraft, type RpcDeclaration, type Trustee } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import { runBackup } from '@lv/platform/backup';
import { createQueue, queuePrefix } from '@lv/platform/queues';
import { RpcClient, startService, type RunningService } from '@lv/platform/nest';
import {
  databaseUrl, deleteStackStreams, generateTestKeys, makeStreamsAsOwners, openRestoreDrill, publishAccountErased, queryDatabase, tablesHolding, uniqueStackId, userTokenSigner, waitFor,
  type RestoreDrill,
} from '@lv/testing';
import { startS3Server } from '../../../tools/dev/s3-server.mjs';
import type { AccessKeysConfig } from '../src/config.js';
import { accessKeysMigrations } from '../src/migrations.js';
import { CONSENT_HASH } from '../src/secrets.js';

// Issue 33, erasure survives a restore, for trustees and accounts: back up, remove a trustee and erase
// another owner's account, restore; access-keys, started on the restored database, replays the erasure
// journal: the trustee is removed again and the account erased again (its key revoked, its people
// gone), their names and addresses in no table and no dump.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('trusteeerasure');
process.env.STACK_ID = STACK_ID;
const { accessKeysService } = await import('../src/access-keys.definition.js');
const { createLogger } = await import('@lv/platform/logging');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const hex = () => randomBytes(4).toString('hex');
const keys = generateTestKeys();
const viewerKeys = generateTestKeys();
const signer = new AccessTokenSigner(keys.privateKey);
const tokenFor = userTokenSigner(keys.privateKey);
const KEY_MAIL_SECRET = 'trustee-erasure-spec-key-mail-secret-'.padEnd(48, 'q');

describe('a removed trustee and an erased account after a restore of an older snapshot', () => {
  let drill: RestoreDrill;
  let access: RunningService<AccessKeysConfig> | undefined;
  let rpc: RpcClient;
  const newOwner = () => {
    const id = randomUUID();
    return { id, token: tokenFor(id, { email: `${id}@example.com`, emailVerified: true }, 600) };
  };
  const owner = newOwner();
  /** An owner whose account is erased after the snapshot. */
  const gone = newOwner();
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token = owner.token) =>
    rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'trustee-erasure-spec', ip: '192.0.2.77' } });
  const start = (database: string) => startService(accessKeysService, {
    DATABASE_URL: databaseUrl(database), ERASURE_JOURNAL_URL: databaseUrl(drill.journalDatabase), NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey,
    VIEWER_JWT_PUBLIC_KEY: viewerKeys.publicKey, VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey, KEY_MAIL_SECRET, LOG_LEVEL: 'silent', RPC_TIMEOUT_MS: '1000',
  }, { logger: createLogger('trustee-erasure-spec', 'silent') });
  beforeAll(async () => {
    drill = await openRestoreDrill({ label: 'trusteeerasure', service: 'access-keys', migrations: accessKeysMigrations.slice(1), startS3: (directory) => startS3Server({ port: 0, directory, accessKey: 'spec-key', secretKey: 'spec-secret-0123456789' }) });
    // identity owns its stream; the spec stands in for it and publishes AccountErased as its outbox relay does.
    await makeStreamsAsOwners(NATS_URL, ['identity'], STACK_ID);
    access = await start(drill.source.name);
    rpc = new RpcClient(NATS_URL, 5000);
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await access?.close();
    await deleteStackStreams(NATS_URL, ['access-keys', 'identity'], STACK_ID);
    // The invitations' e-mail jobs (they carry the names for notifications) go with the spec's stack.
    const redis = new Redis(REDIS_URL);
    const links = createQueue(Queues.TrusteeLinks, redis, { prefix: queuePrefix(STACK_ID) });
    await links.obliterate({ force: true }).catch(() => undefined);
    await links.close();
    redis.disconnect();
    await drill?.close();
  });

  it('back up, remove a trustee and erase an account, restore: their names and addresses are in no table and no dump, and they stay gone', async () => {
    const his = { name: `Bobname${hex()}`, email: `bob-${hex()}@example.com`, contact: `Erasedcontact${hex()}`, keyName: `Erasedkey${hex()}` };
    const hers = { name: `Annname${hex()}`, email: `ann-${hex()}@example.com` };
    const bob = await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: his.name, email: his.email, relationship: 'My Sibling' }) as Trustee;
    const ann = await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: hers.name, email: hers.email, relationship: 'My Sibling' }) as Trustee;
    await call(AccessKeysRpc.addContact, { id: randomUUID(), name: his.contact, label: 'My Sibling', email: `c-${hex()}@example.com`, phone: null }, gone.token);
    const draft = await call(AccessKeysRpc.draftKey, {}, gone.token) as KeyDraft;
    const key = await call(AccessKeysRpc.createKey, { ...draft, name: his.keyName, email: `k-${hex()}@example.com` }, gone.token) as IssuedAccessKey;
    const consent = { version: CONSENT_VERSION, text_hash: CONSENT_HASH };
    const { snapshot } = await runBackup(drill.settings());
    await publishAccountErased(access!.core.nats, gone.id, STACK_ID);
    await waitFor(async () => (await queryDatabase(drill.journalDatabase, `select 1 from erasures where stream_type = 'account' and key_id = $1`, [gone.id])).length === 1, 20_000, 'the account erasure to be journaled');

    expect(await call(AccessKeysRpc.removeTrustee, { id: bob.id })).toMatchObject({ id: bob.id, status: 'removed', name: '', email: '' });
    for (const word of Object.values(his)) expect({ word, holding: await tablesHolding(drill.source.name, word) }).toEqual({ word, holding: [] });
    const journaled = () => queryDatabase<Record<string, unknown>>(drill.journalDatabase, 'select service, stream_type, stream_id, key_id from erasures where key_id = $1', [bob.id]);
    await waitFor(async () => (await journaled()).length === 1, 10_000, 'the erasure to be journaled');
    expect(await journaled()).toEqual([{ service: 'access-keys', stream_type: 'trustee', stream_id: `trustee-${bob.id}`, key_id: bob.id }]);

    // The stack is lost; the snapshot, older than the removal, is restored into an empty one: Bob listed, named.
    await access!.close();
    access = undefined;
    await drill.loseAndRestore(snapshot);
    expect(await queryDatabase(drill.restoredDatabase, 'select name, status from trustees where id = $1', [bob.id])).toEqual([{ name: his.name, status: 'invited' }]);
    expect(await queryDatabase(drill.restoredDatabase, 'select name, revoked_at from access_keys where id = $1', [key.key_id])).toEqual([{ name: his.keyName, revoked_at: null }]);

    // access-keys starts on the restored database and, before it takes a request, removes him again.
    access = await start(drill.restoredDatabase);
    for (const word of Object.values(his)) expect({ word, holding: await tablesHolding(drill.restoredDatabase, word) }).toEqual({ word, holding: [] });
    expect(await queryDatabase(drill.restoredDatabase, 'select 1 from trustee_keys where trustee_id = $1', [bob.id])).toEqual([]);
    const dump = (await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', databaseUrl(drill.restoredDatabase)], { maxBuffer: 256 * 1024 * 1024 })).stdout;
    expect(dump).toContain(bob.id);
    for (const word of Object.values(his)) expect(dump.toLowerCase()).not.toContain(word.toLowerCase());
    await expect(call(AccessKeysRpc.redeem, { access_key: key.access_key, consent })).rejects.toMatchObject({ code: expect.any(String) });
    expect((await queryDatabase<{ type: string }>(drill.restoredDatabase, 'select type from events where stream_id = $1 order by version', [`access-key-${key.key_id}`])).map((e) => e.type)).toContain('AccessKeyRevoked');
    const listed = await call(AccessKeysRpc.listTrustees, {}) as Trustee[];
    expect(listed.map((t) => [t.id, t.name, t.email, t.status])).toEqual([[ann.id, hers.name, hers.email, 'invited'], [bob.id, '', '', 'removed']]);

    // A later replay (the operators' erasures:replay) finds nothing left to erase; an owner may not run it.
    expect(await rpc.call(AccessKeysRpc.replayErasures, {}, { accessToken: signOperatorToken(signer, 'spec'), meta: { requestId: 'trustee-erasure-spec' } })).toMatchObject({ erasedAgain: 0 });
    await expect(call(AccessKeysRpc.replayErasures, {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
