import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totpAt, totpStep } from './totp.js';
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';

// RFC 6238, Appendix B: the seeds are the ASCII digits repeated to each hash's key length.
const SHA1_KEY = Buffer.from('12345678901234567890');
const SHA256_KEY = Buffer.from('12345678901234567890123456789012');
const SHA512_KEY = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');
const VECTORS: [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s gives the RFC test vectors (8 digits, SHA-1, SHA-256, SHA-512)', (seconds, sha1, sha256, sha512) => {
    const step = totpStep(seconds * 1000);
    expect(hotp(SHA1_KEY, step, 8, 'sha1')).toBe(sha1);
    expect(hotp(SHA256_KEY, step, 8, 'sha256')).toBe(sha256);
    expect(hotp(SHA512_KEY, step, 8, 'sha512')).toBe(sha512);
  });

  it('HOTP gives RFC 4226 Appendix D values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(SHA1_KEY, counter))).toEqual(expected);
  });

  it('the 6-digit app code is the last six digits of the 8-digit vector', () => {
    const secret = base32Encode(SHA1_KEY);
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpAt(secret, 59_000)).toBe('287082');
    expect(totpAt(secret, 1111111109_000)).toBe('081804');
  });

  it('base32 round-trips, ignoring case, spaces and padding, and refuses other characters', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret.toLowerCase().replace(/(.{4})/g, '$1 '))!)).toBe(secret);
    expect(base32Decode('not base32!')).toBeNull();
  });

  it('accepts the codes one step either side of now, and none further', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    expect(matchTotp(secret, totpAt(secret, now), now, null)).toBe(step);
    expect(matchTotp(secret, totpAt(secret, now - 30_000), now, null)).toBe(step - 1);
    expect(matchTotp(secret, totpAt(secret, now + 30_000), now, null)).toBe(step + 1);
    expect(matchTotp(secret, totpAt(secret, now - 60_000), now, null)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, now + 60_000), now, null)).toBeNull();
  });

  it('never accepts a code again once its step was used, nor an older one', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = matchTotp(secret, totpAt(secret, now), now, null)!;
    expect(matchTotp(secret, totpAt(secret, now), now, step)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, now - 30_000), now, step)).toBeNull();
    expect(matchTotp(secret, totpAt(secret, now + 30_000), now, step)).toBe(step + 1);
  });

  it('refuses anything that is not six digits, and another secret’s code', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const code = totpAt(secret, now);
    for (const bad of ['', '12345', '1234567', ` ${code}`, '12a456']) expect(matchTotp(secret, bad, now, null)).toBeNull();
    const other = newTotpSecret();
    const otherCode = totpAt(other, now);
    if (otherCode !== code) expect(matchTotp(secret, otherCode, now, null)).toBeNull();
  });

  it('writes the otpauth URI an authenticator app scans', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'owner@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Legacy Vault:owner@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: 'JBSWY3DPEHPK3PXP', issuer: 'Legacy Vault', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of about 49 random bits, shaped xxxxx-xxxxx', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });

  it('match as typed whatever the case, spaces or dashes, and only their own hash', () => {
    const [code, other] = newRecoveryCodes();
    const stored = hashRecoveryCode(normaliseRecoveryCode(code!)!);
    expect(hashRecoveryCode(normaliseRecoveryCode(` ${code!.toUpperCase().replace('-', ' ')} `)!)).toBe(stored);
    expect(hashRecoveryCode(normaliseRecoveryCode(other!)!)).not.toBe(stored);
    expect(stored).not.toContain(code!.replace('-', ''));
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses what is not shaped like one', () => {
    for (const bad of ['', '123456', 'abcde-abcd', 'abcde-abcdef', 'abcde-abcd0', 'abcde_abcdf']) expect(normaliseRecoveryCode(bad)).toBeNull();
  });
});
