import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalHeadBytes, generateEvidenceKey, keyFingerprint, keyIdOf, loadEvidenceKeyRing, signHead, verifyHead } from './keys.js';

const OWNER = '6f1c1f6e-2b7a-4c39-9d0e-3f4a5b6c7d8e';
const head = (signedAt: string) => ({ ownerId: OWNER, sequence: 3, headHash: 'ab'.repeat(32), signedAt });

describe('evidence keys and signed heads', () => {
  it('names a key by its SPKI fingerprint and signs heads that verify', () => {
    const key = generateEvidenceKey();
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(keyFingerprint(key.publicKeyPem).slice(0, 16)).toBe(key.keyId);
    expect(keyIdOf(key.privateKeyPem)).toBe(key.keyId);
    const ring = loadEvidenceKeyRing({ current: key.privateKeyPem });
    const signed = ring.sign(head('2026-03-20T12:00:00.000Z'));
    expect(signed.keyId).toBe(key.keyId);
    expect(Buffer.from(signed.signature, 'base64url')).toHaveLength(64);
    expect(verifyHead(signed, ring.publicKeys)).toEqual({ ok: true, keyId: key.keyId, fingerprint: keyFingerprint(key.publicKeyPem), publicKeyPem: key.publicKeyPem });
  });

  it('refuses a head whose any signed field changed', () => {
    const ring = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const signed = ring.sign(head('2026-03-20T12:00:00.000Z'));
    for (const changed of [
      { ...signed, sequence: 4 },
      { ...signed, headHash: 'cd'.repeat(32) },
      { ...signed, ownerId: '00000000-0000-4000-8000-000000000000' },
      { ...signed, signedAt: '2026-03-20T12:00:01.000Z' },
    ]) {
      expect(verifyHead(changed, ring.publicKeys)).toEqual({ ok: false, reason: expect.stringMatching(/signature does not match/) });
    }
    const sig = Buffer.from(signed.signature, 'base64url');
    sig[10]! ^= 0x01;
    expect(verifyHead({ ...signed, signature: sig.toString('base64url') }, ring.publicKeys).ok).toBe(false);
  });

  it('keeps heads signed by a rotated-out key valid within the overlap, and only then', () => {
    const old = generateEvidenceKey(new Date('2025-01-01T00:00:00.000Z'));
    const oldRing = loadEvidenceKeyRing({ current: { pem: old.privateKeyPem, validFrom: old.createdAt } });
    const signedBefore = oldRing.sign(head('2026-05-31T23:59:59.000Z'));
    const signedAfter = oldRing.sign(head('2026-06-01T00:00:01.000Z'));
    const fresh = generateEvidenceKey(new Date('2026-06-01T00:00:00.000Z'));
    const ring = loadEvidenceKeyRing({
      current: { pem: fresh.privateKeyPem, validFrom: fresh.createdAt },
      previous: [{ pem: old.publicKeyPem, validFrom: old.createdAt, validUntil: '2026-06-01T00:00:00.000Z' }],
    });
    expect(ring.keyId).toBe(fresh.keyId);
    expect(ring.publicKeys.keys.map((k) => [k.keyId, k.validUntil])).toEqual([[fresh.keyId, null], [old.keyId, '2026-06-01T00:00:00.000Z']]);
    expect(verifyHead(signedBefore, ring.publicKeys)).toMatchObject({ ok: true, keyId: old.keyId });
    expect(verifyHead(signedAfter, ring.publicKeys)).toEqual({ ok: false, reason: expect.stringMatching(/after key .* stopped being honoured/) });
    expect(verifyHead(ring.sign(head('2026-06-02T00:00:00.000Z')), ring.publicKeys)).toMatchObject({ ok: true, keyId: fresh.keyId });
    // The new key cannot vouch for a head dated before it existed.
    expect(verifyHead(ring.sign(head('2026-05-01T00:00:00.000Z')), ring.publicKeys)).toEqual({ ok: false, reason: expect.stringMatching(/before key .* became valid/) });
  });

  it('refuses a head signed by a key that is not listed, or a listing whose id is not its key', () => {
    const ring = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const stranger = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const forged = stranger.sign(head('2026-03-20T12:00:00.000Z'));
    expect(verifyHead(forged, ring.publicKeys)).toEqual({ ok: false, reason: expect.stringMatching(/not among the trusted keys/) });
    // The stranger's key listed under the vault's key id: the id is the fingerprint's, so it shows.
    const relabelled = { ...forged, keyId: ring.keyId };
    const keys = { keys: [{ ...ring.publicKeys.keys[0]!, publicKeyPem: stranger.publicKeys.keys[0]!.publicKeyPem }] };
    expect(verifyHead(relabelled, keys)).toEqual({ ok: false, reason: expect.stringMatching(/the id does not belong to it/) });
  });

  it('signs only with the key a head names, and only Ed25519', () => {
    const key = generateEvidenceKey();
    const other = generateEvidenceKey();
    expect(() => signHead({ ...head('2026-03-20T12:00:00.000Z'), keyId: other.keyId }, createPrivateKey(key.privateKeyPem))).toThrow(/not the id of this key/);
    expect(() => signHead({ ...head('2026-03-20T12:00:00.000Z'), keyId: key.keyId }, createPublicKey(key.publicKeyPem))).toThrow(/private/);
    const rsa = execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024']).toString();
    expect(() => loadEvidenceKeyRing({ current: rsa })).toThrow(/not Ed25519/);
  });

  it('takes an Ed25519 key made by `openssl genpkey` (what an operator runs to rotate)', () => {
    const pem = execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519']).toString();
    const publicPem = execFileSync('openssl', ['pkey', '-pubout'], { input: pem }).toString();
    const ring = loadEvidenceKeyRing({ current: pem });
    expect(ring.publicKeys.keys[0]!.publicKeyPem).toBe(publicPem);
    expect(verifyHead(ring.sign(head('2026-03-20T12:00:00.000Z')), { keys: [{ ...ring.publicKeys.keys[0]!, publicKeyPem: publicPem }] }).ok).toBe(true);
  });

  it('produces signatures that openssl verifies over the canonical head bytes', () => {
    const key = generateEvidenceKey();
    const signed = signHead({ ...head('2026-03-20T12:00:00.000Z'), keyId: key.keyId }, createPrivateKey(key.privateKeyPem));
    const dir = mkdtempSync(join(tmpdir(), 'evidence-openssl-'));
    try {
      writeFileSync(join(dir, 'key.pem'), key.publicKeyPem);
      writeFileSync(join(dir, 'head.bin'), canonicalHeadBytes(signed));
      writeFileSync(join(dir, 'head.sig'), Buffer.from(signed.signature, 'base64url'));
      const ok = execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', 'key.pem', '-rawin', '-in', 'head.bin', '-sigfile', 'head.sig'], { cwd: dir }).toString();
      expect(ok).toMatch(/Signature Verified Successfully/);
      writeFileSync(join(dir, 'head.bin'), canonicalHeadBytes({ ...signed, sequence: 2 }));
      expect(() => execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', 'key.pem', '-rawin', '-in', 'head.bin', '-sigfile', 'head.sig'], { cwd: dir, stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
