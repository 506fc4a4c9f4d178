import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM output, base64: what events and jobs carry instead of a secret or personal words.
 * Contracts' sealedTextSchema validates the same shape on the wire (sealed-text.spec.ts holds them together).
 */
export interface SealedText {
  alg: 'A256GCM';
  iv: string;
  tag: string;
  ct: string;
}

/** A stream's data key: 32 random bytes, one per sealed stream (a letter, a recording). */
export const DATA_KEY_BYTES = 32;

export function newDataKey(): Buffer {
  return randomBytes(DATA_KEY_BYTES);
}

/** AES-256-GCM with a fresh 96-bit IV per value, authenticated together with `context` (what the value belongs to). */
export function sealText(key: Buffer, plaintext: string, context: string): SealedText {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { alg: 'A256GCM', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ct: ct.toString('base64') };
}

/** Decrypts and authenticates; throws when the key, the context or a single bit of the value is wrong. */
export function openSealedText(key: Buffer, sealed: SealedText, context: string): string {
  if (sealed?.alg !== 'A256GCM') throw new Error('unknown sealing algorithm');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64')), decipher.final()]).toString('utf8');
}
