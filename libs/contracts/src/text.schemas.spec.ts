import { credentialsBodySchema, updateProfileBodySchema, updateProfilePayloadSchema } from './identity.schemas.js';
import { reviseLetterPayloadSchema, saveReflectionBodySchema, writeLetterBodySchema } from './letters.schemas.js';
import { startUploadBodySchema } from './media.schemas.js';
import { cleanFileName, queryInteger, safeText } from './text.schemas.js';
import { startCourtUploadBodySchema } from './court-journal.schemas.js';
import { startMusicUploadPayloadSchema } from './community.schemas.js';
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

describe('file names from a browser (issue 29: spoofable names)', () => {
  it.each([
    ['a right-to-left override that shows a PDF as a JPEG', 'invoice\u202Egpj.pdf', 'invoicegpj.pdf'],
    ['CR and LF that would split a header or a log line', 'order\r\nX-Injected: 1.pdf', 'orderX-Injected: 1.pdf'],
    ['isolates, embeddings and marks', '\u2066a\u2069\u202Ab\u202C\u200Fc\u061C.txt', 'abc.txt'],
    ['C1 controls and DEL', 'x\u0085y\u007Fz.pdf', 'xyz.pdf'],
    ['a decomposed accent, composed (NFC)', 'cafe\u0301.pdf', 'caf\u00E9.pdf'],
    ['an ordinary name, unchanged', 'Contact order (2026).pdf', 'Contact order (2026).pdf'],
  ])('%s', (_label, name, stored) => {
    expect(cleanFileName(name)).toBe(stored);
    expect(startCourtUploadBodySchema.shape.fileName.parse(name)).toBe(stored);
  });

  it('checks the length and presence of what is left once cleaned', () => {
    expect(startCourtUploadBodySchema.shape.fileName.safeParse('\u202E\r\n').success).toBe(false);
    expect(startMusicUploadPayloadSchema.shape.fileName.parse(' \u202Esong.mp3 ')).toBe('song.mp3');
  });
});
