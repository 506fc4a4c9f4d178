import { sealedTextSchema } from '@lv/contracts';
import { newDataKey, openSealedText, sealText } from './sealed-text.js';

describe('sealed text', () => {
  it('seals into the shape the contracts validate on the wire, and opens back', () => {
    const key = newDataKey();
    const sealed = sealedTextSchema.parse(sealText(key, 'dear reader', 'stream-1'));
    expect(openSealedText(key, sealed, 'stream-1')).toBe('dear reader');
  });

  it('refuses to open under another context', () => {
    const key = newDataKey();
    expect(() => openSealedText(key, sealText(key, 'dear reader', 'stream-1'), 'stream-2')).toThrow();
  });
});
