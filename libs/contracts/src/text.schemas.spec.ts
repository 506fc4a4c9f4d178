import { credentialsBodySchema, updateProfileBodySchema, updateProfilePayloadSchema } from './identity.schemas.js';
import { reviseLetterPayloadSchema, saveReflectionBodySchema, writeLetterBodySchema } from './letters.schemas.js';
import { startUploadBodySchema } from './media.schemas.js';
import { queryInteger, safeText } from './text.schemas.js';
import { isSafeText, TextMessages, validateCredentials } from './validation.js';

const messagesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('isSafeText', () => {
  it.each([
    ['plain words', 'To Sam, with love', true],
    ['an emoji (a surrogate pair)', 'Happy birthday 🎂', true],
    ['tabs, newlines and other control characters PostgreSQL stores', 'a\tb\nc\u0001', true],
    ['U+0000', 'x\u0000y', false],
    ['a lone high surrogate', 'x\uD83Dy', false],
    ['a lone low surrogate', '\uDE00', false],
    ['a reversed pair', '\uDE00\uD83D', false],
  ])('%s', (_label, text, safe) => {
    expect(isSafeText(text)).toBe(safe);
  });
});

describe('safeText', () => {
  it('refuses U+0000 with the shared message, before any length rule of the field', () => {
    const result = safeText().min(5, 'too short').safeParse('\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([TextMessages.unsafe]);
  });

  it('keeps the field’s own message for a value that is not text', () => {
    expect(safeText({ error: 'Send text' }).safeParse(42).error?.issues[0]?.message).toBe('Send text');
  });
});

describe('every text field of the HTTP bodies and payloads refuses U+0000 and lone surrogates, naming the field', () => {
  it.each([
    ['letter title', writeLetterBodySchema, { title: 'To\u0000Sam', content: 'Hi' }, 'title'],
    ['letter content', writeLetterBodySchema, { title: 'To Sam', content: 'x\u0000y' }, 'content'],
    ['reflection', saveReflectionBodySchema, { text: 'half \uD83D of it' }, 'text'],
    ['full name', updateProfileBodySchema, { full_name: 'Sam\u0000' }, 'full_name'],
    ['recording title', startUploadBodySchema, { type: 'video', title: '\uDC00', sha256: 'a'.repeat(64), size: 10 }, 'title'],
    ['email', credentialsBodySchema, { email: 'a\u0000@example.com', password: 'secret-1' }, 'email'],
    ['password', credentialsBodySchema, { email: 'a@example.com', password: 'secret\u0000' }, 'password'],
    ['revise payload content', reviseLetterPayloadSchema, { id: 'x', title: 't', content: '\u0000', expectedVersion: 1 }, 'content'],
    ['profile payload name', updateProfilePayloadSchema, { full_name: '\uD800' }, 'full_name'],
  ])('%s', (_label, schema, input, field) => {
    expect(messagesOf(schema.safeParse(input))).toEqual({ [field]: TextMessages.unsafe });
  });

  it('validateCredentials (identity’s own check) refuses them too', () => {
    expect(validateCredentials({ email: 'a\u0000@example.com', password: '\uD800\uD800xxxxx' })).toEqual({ email: TextMessages.unsafe, password: TextMessages.unsafe });
  });
});

describe('queryInteger', () => {
  const limit = queryInteger(1, 100);
  it.each(['1', '42', '100', '007'])('takes %s', (value) => {
    expect(limit.safeParse(value).data).toBe(Number(value));
  });
  it.each(['0', '101', '0x10', '1e2', ' 7', '', '1.5', '-1', 'abc', '9999999999'])('refuses %j', (value) => {
    expect(limit.safeParse(value).success).toBe(false);
  });
  it('refuses a repeated parameter (an array)', () => {
    expect(limit.safeParse(['1', '1']).success).toBe(false);
  });
});
