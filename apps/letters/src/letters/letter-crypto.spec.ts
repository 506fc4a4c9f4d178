import { newLetterKey, open, seal, sealContext } from './letter-crypto.js';

describe('sealing a letter’s words (AES-256-GCM)', () => {
  const key = newLetterKey();
  const context = sealContext('0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', 'content');

  it('round-trips any text, and never shows it in the sealed value', () => {
    for (const text of ['Dear Ellie,\nI love you.', '', 'émoji 🌻 and 中文', 'x'.repeat(100_000)]) {
      const sealed = seal(key, text, context);
      expect(open(key, sealed, context)).toBe(text);
      if (text.length > 3) expect(JSON.stringify(sealed)).not.toContain(text.slice(0, 8));
    }
  });

  it('uses a fresh IV each time: the same words seal differently', () => {
    expect(seal(key, 'same', context).ct).not.toBe(seal(key, 'same', context).ct);
  });

  it('cannot be opened with another key (a destroyed key is gone for good)', () => {
    expect(() => open(newLetterKey(), seal(key, 'secret', context), context)).toThrow();
  });

  it('is bound to its letter and field', () => {
    const sealed = seal(key, 'secret', context);
    expect(() => open(key, sealed, sealContext('0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', 'title'))).toThrow();
    expect(() => open(key, sealed, sealContext('11111111-1111-4111-8111-111111111111', 'content'))).toThrow();
  });

  it('detects tampering', () => {
    const sealed = seal(key, 'secret words', context);
    const ct = Buffer.from(sealed.ct, 'base64');
    ct[0] = ct[0]! ^ 1;
    expect(() => open(key, { ...sealed, ct: ct.toString('base64') }, context)).toThrow();
  });
});
