import { describe, expect, it, jest } from '@jest/globals';
import { fingerprintOf } from './media.js';

describe('fingerprintOf', () => {
  it('hashes a recording once, however many times it is saved', async () => {
    const blob = new Blob(['a recording']);
    const hash = jest.fn(async (_blob: Blob) => 'f'.repeat(64));
    await expect(fingerprintOf(blob, hash)).resolves.toBe('f'.repeat(64));
    await expect(fingerprintOf(blob, hash)).resolves.toBe('f'.repeat(64));
    expect(hash).toHaveBeenCalledTimes(1);
  });

  it('hashes each recording on its own', async () => {
    const hash = jest.fn(async (blob: Blob) => String(blob.size).padStart(64, '0'));
    const first = await fingerprintOf(new Blob(['one']), hash);
    const second = await fingerprintOf(new Blob(['three']), hash);
    expect(first).not.toBe(second);
    expect(hash).toHaveBeenCalledTimes(2);
  });

  it('forgets a failed hash, so the next save tries again', async () => {
    const blob = new Blob(['a recording']);
    const hash = jest.fn<(blob: Blob) => Promise<string>>().mockRejectedValueOnce(new Error('no Web Crypto')).mockResolvedValueOnce('a'.repeat(64));
    await expect(fingerprintOf(blob, hash)).rejects.toThrow('no Web Crypto');
    await expect(fingerprintOf(blob, hash)).resolves.toBe('a'.repeat(64));
    expect(hash).toHaveBeenCalledTimes(2);
  });
});
