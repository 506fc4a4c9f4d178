import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  AccessKeysRpc, CONSENT_VERSION, type DeliveryView, type EmergencyContact, type InactivityWatch, type IssuedAccessKey, type KeyDraft, type OpenedViewSession, type RpcDeclaration, type Trustee,
} from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken } from '@lv/platform/auth';
import type { DomainError } from '@lv/platform/errors';
import { generateTestKeys, publishAccountErased, tablesHolding, uniqueStackId, waitForIdentityConsumer } from '@lv/testing';
import { CONSENT_HASH } from '../src/secrets.js';
import { startAccessKeysStack, type AccessKeysStack } from '../src/test-support/access-keys-stack.js';

// Issue 32, "Delete my account", access-keys' part: identity's AccountErased, consumed from JetStream,
// removes every trustee, revokes every key and ends its viewer sessions, cancels the delivery under way,
// turns the inactivity watch off, destroys every personal-data key of the owner's streams (journaled)
// and deletes the rows that name his people; another owner's are untouched.

jest.setTimeout(120_000);

const STACK_ID = uniqueStackId('acctaccess');
process.env.STACK_ID = STACK_ID;

const keys = generateTestKeys();
const KEY_MAIL_SECRET = 'account-erasure-spec-key-mail-secret-'.padEnd(48, 'q');
const signer = new AccessTokenSigner(keys.privateKey);
const hex = () => randomBytes(4).toString('hex');
const consent = { version: CONSENT_VERSION, text_hash: CONSENT_HASH };
interface Owner { id: string; token: string }
const newOwner = (): Owner => {
  const id = randomUUID();
  return { id, token: signer.sign({ sub: id, sid: randomUUID(), email: `${id}@example.com`, tier: 'pro', admin: false, emailVerified: true, kind: 'user' }, 600).token };
};

describe('access-keys: an erased account', () => {
  let stack: AccessKeysStack;
  let ip = 0;
  const call = <D extends RpcDeclaration>(declaration: D, payload: unknown, token?: string) =>
    stack.rpc.callUnchecked(declaration, payload, { accessToken: token, meta: { requestId: 'account-erasure-spec', ip: `192.0.2.${++ip % 250}`, userAgent: 'SpecAgent/1', origin: 'http://127.0.0.1:3000' } });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
  const sql = <T>(text: string, params: unknown[] = []) => stack.db.orm.em.fork().execute<T[]>(text, params);

  /** Everything an owner keeps here, each naming people with words of their own. */
  const fill = async (owner: Owner, tag: string) => {
    const words = {
      trustee: `Trusteename${tag}`, contact: `Contactname${tag}`, keyName: `Keyname${tag}`, requester: `Requestername${tag}`, message: `Requestmessage${tag}`, thoughts: `Finalthought${tag}`,
    };
    const trustee = await call(AccessKeysRpc.addTrustee, { id: randomUUID(), name: words.trustee, email: `trustee-${tag}@example.com`, relationship: 'My Sibling' }, owner.token) as Trustee;
    const contact = await call(AccessKeysRpc.addContact, { id: randomUUID(), name: words.contact, label: 'My Sibling', email: `contact-${tag}@example.com`, phone: null }, owner.token) as EmergencyContact;
    const draft = await call(AccessKeysRpc.draftKey, {}, owner.token) as KeyDraft;
    const key = await call(AccessKeysRpc.createKey, { ...draft, name: words.keyName, email: `key-${tag}@example.com` }, owner.token) as IssuedAccessKey;
    const session = await call(AccessKeysRpc.redeem, { access_key: key.access_key, consent }) as OpenedViewSession;
    await call(AccessKeysRpc.submitRequest, { user_id: owner.id, requester_email: `req-${tag}@example.com`, requester_name: words.requester, relationship: 'Son', message: `Please ${words.message}` });
    await call(AccessKeysRpc.saveDeliverySettings, {
      delivery_timing: 'after_30_days', require_legal_verification: false, allow_preview: false, notify_trustee: false, final_thoughts: `Always ${words.thoughts}`,
    }, owner.token);
    await call(AccessKeysRpc.saveInactivity, { period_days: 30 }, owner.token);
    // A delivery under way (a trustee's report confirmed by an operator): due in 30 days.
    await stack.rpc.call(AccessKeysRpc.reportAbsence, { owner_id: owner.id, owner_email: `${owner.id}@example.com` }, { accessToken: signOperatorToken(signer, 'spec'), meta: { requestId: 'account-erasure-spec' } });
    return { words, trustee, contact, key, session };
  };

  beforeAll(async () => {
    stack = await startAccessKeysStack({ stackId: STACK_ID, label: 'acctaccess', keys, keyMailSecret: KEY_MAIL_SECRET, ownerName: 'Sam Taylor', ownStreams: ['identity'] });
  });

  afterAll(() => stack?.close());

  it('ends every key, session, trustee, delivery and watch of the owner, shreds his people, once, and nothing of another owner', async () => {
    const dad = newOwner();
    const mum = newOwner();
    const his = await fill(dad, hex());
    const hers = await fill(mum, hex());
    expect((await call(AccessKeysRpc.delivery, {}, dad.token) as DeliveryView).status).toBe('waiting');
    const hisSubjects = (await sql<{ subject_id: string }>(`select distinct right(stream_id, 36) as subject_id from events where data->>'ownerId' = ?`, [dad.id])).map((r) => r.subject_id);
    expect((await sql(`select 1 from personal_data_keys where subject_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`, [JSON.stringify(hisSubjects)])).length).toBeGreaterThan(0);

    const nats = stack.service.core.nats;
    const eventId = await publishAccountErased(nats, dad.id, STACK_ID);
    // The same event again (a relay that lost its ack, past JetStream's duplicate window): the inbox keeps it once.
    await publishAccountErased(nats, dad.id, STACK_ID, { eventId, messageId: randomUUID() });
    await waitForIdentityConsumer(nats, 'access-keys-account-erasures', STACK_ID, 2);

    // His people are in no table, every key that sealed them is gone, and nothing he set up still runs.
    for (const word of Object.values(his.words)) expect({ word, holding: await tablesHolding(stack.db.name, word) }).toEqual({ word, holding: [] });
    expect(await sql(`select subject_id from personal_data_keys where subject_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`, [JSON.stringify(hisSubjects)])).toEqual([]);
    expect(await sql('select trustee_id from trustee_keys where trustee_id = ?', [his.trustee.id])).toEqual([]);
    expect(await codeOf(call(AccessKeysRpc.redeem, { access_key: his.key.access_key, consent }))).not.toBe('OK');
    expect(await codeOf(call(AccessKeysRpc.viewToken, { session: his.session.session }))).not.toBe('OK');
    expect((await call(AccessKeysRpc.delivery, {}, dad.token) as DeliveryView).status).toBe('cancelled');
    expect((await call(AccessKeysRpc.inactivity, {}, dad.token) as InactivityWatch).period_days).toBeNull();
    expect(await call(AccessKeysRpc.listTrustees, {}, dad.token)).toEqual([]);
    expect(await call(AccessKeysRpc.listKeys, {}, dad.token)).toEqual([]);
    // Handled once: one inbox row, and the account journaled once with it.
    expect(await sql('select consumer from inbox where event_id = ?', [eventId])).toEqual([{ consumer: 'access-keys-account-erasures' }]);
    expect(await sql(`select stream_id from erasure_journal where stream_type = 'account'`)).toEqual([{ stream_id: `account-${dad.id}` }]);

    // Hers is untouched: her trustee, her key and session, her delivery, her people.
    expect((await call(AccessKeysRpc.listTrustees, {}, mum.token) as Trustee[]).map((t) => t.name)).toEqual([hers.words.trustee]);
    expect(await codeOf(call(AccessKeysRpc.viewToken, { session: hers.session.session }))).toBe('OK');
    expect((await call(AccessKeysRpc.delivery, {}, mum.token) as DeliveryView).status).toBe('waiting');
    for (const word of [hers.words.contact, hers.words.thoughts, hers.words.message]) expect((await tablesHolding(stack.db.name, word)).length).toBeGreaterThan(0);
  });
});
