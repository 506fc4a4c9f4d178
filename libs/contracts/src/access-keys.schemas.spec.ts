import { AccessMessages, extractAccessKey, isAccessKeyFormat } from './access-keys.js';
import { createAccessKeyBodySchema, listAccessRequestsQuerySchema, redeemKeyBodySchema, submitAccessRequestBodySchema } from './access-keys.schemas.js';

const KEY = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('family-access schemas', () => {
  it('takes the pending list’s limit in plain digits only (a fuzzed 0x10 once passed as 16)', () => {
    expect(listAccessRequestsQuerySchema.parse({})).toEqual({ status: 'pending', limit: 50 });
    expect(listAccessRequestsQuerySchema.parse({ limit: '10' }).limit).toBe(10);
    for (const bad of ['0x10', '1e1', ' 10', '0', '51', '-1', '1.5', ['1', '1']]) expect(listAccessRequestsQuerySchema.safeParse({ limit: bad }).success).toBe(false);
  });

  it('finds the key in a pasted link (k, token or key) and checks its form case-insensitively', () => {
    expect(extractAccessKey(`https://vault.example.com/access?k=${KEY}&owner=${OWNER}`)).toBe(KEY);
    expect(extractAccessKey(`http://x/redeem?token=${KEY}`)).toBe(KEY);
    expect(extractAccessKey(`  ${KEY}  `)).toBe(KEY);
    expect(extractAccessKey('https://vault.example.com/access')).toBeUndefined();
    expect(isAccessKeyFormat(KEY.toUpperCase())).toBe(true);
    expect(isAccessKeyFormat('0d5f6b3e-4a51-0c7e-9c39-2b7f8d1e6a10')).toBe(false); // version 0
  });

  it('answers the request form in the spec’s words and keeps optional fields null', () => {
    expect(firstMessage(submitAccessRequestBodySchema.safeParse({ requester_email: 'a@b.co', relationship: 'Son', message: 'x' }))).toBe(AccessMessages.missingOwner);
    expect(firstMessage(submitAccessRequestBodySchema.safeParse({ user_id: OWNER, relationship: 'Son', message: 'x' }))).toBe(AccessMessages.emailRequired);
    const parsed = submitAccessRequestBodySchema.parse({ user_id: OWNER, requester_email: ' Sam@Example.com ', relationship: 'Son', message: 'x', child_name: ' ' });
    expect(parsed).toMatchObject({ requester_email: 'sam@example.com', child_name: null, child_dob: null, access_key: null, submission_id: null });
    const form = { user_id: OWNER, requester_email: 'a@b.co', relationship: 'Son', message: 'x' };
    expect(submitAccessRequestBodySchema.parse({ ...form, submission_id: KEY.toUpperCase() }).submission_id).toBe(KEY);
    expect(submitAccessRequestBodySchema.safeParse({ ...form, submission_id: 'retry-1' }).success).toBe(false);
    expect(submitAccessRequestBodySchema.safeParse({ user_id: OWNER, requester_email: 'a@b.co', relationship: 'Son', message: 'x', child_dob: '2099-01-01' }).success).toBe(false);
  });

  it('refuses a redemption without the consent, and an owner key that is not a random UUID', () => {
    expect(firstMessage(redeemKeyBodySchema.safeParse({ access_key: KEY }))).toBe(AccessMessages.consentRequired);
    expect(redeemKeyBodySchema.parse({ access_key: KEY.toUpperCase(), consent: { version: 'v1.0', text_hash: 'a'.repeat(64) } }).access_key).toBe(KEY);
    expect(createAccessKeyBodySchema.safeParse({ access_key: '0d5f6b3e-4a51-1c7e-9c39-2b7f8d1e6a10', name: 'E', email: 'e@x.co' }).success).toBe(false);
    expect(createAccessKeyBodySchema.parse({ access_key: KEY, draft: `1.${'a'.repeat(43)}`, name: 'E', email: 'e@x.co' }).expires_in_days).toBe(30);
    // Save without the server's draft: no key was generated here.
    expect(createAccessKeyBodySchema.safeParse({ access_key: KEY, name: 'E', email: 'e@x.co' }).success).toBe(false);
  });
});
