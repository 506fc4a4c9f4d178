import { createHash } from 'node:crypto';
import { VIEWER_CONSENT_TEXT, keyEmailSealContext } from '@lv/contracts';
import { openFromJob } from '@lv/platform/queues';
import { CONSENT_HASH, hashAccessKey, hashSessionSecret, newSessionSecret, sealKeyForMail } from './secrets.js';

const openKeyFromMail = (secret: string, keyId: string, sealed: ReturnType<typeof sealKeyForMail>) => openFromJob(secret, keyEmailSealContext(keyId), sealed);

describe('access-keys secrets', () => {
  it('hashes a key the same whatever its case and surrounding spaces', () => {
    const key = '6F9619FF-8B86-4D01-B42D-00C04FC964FF';
    expect(hashAccessKey(` ${key} `)).toBe(hashAccessKey(key.toLowerCase()));
    expect(hashAccessKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAccessKey(key)).not.toContain(key.toLowerCase());
  });

  it('makes session secrets of 43 base64url characters, all different, kept only as hashes', () => {
    const secrets = new Set(Array.from({ length: 200 }, newSessionSecret));
    expect(secrets.size).toBe(200);
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const one = [...secrets][0]!;
    expect(hashSessionSecret(one)).toBe(createHash('sha256').update(one).digest('hex'));
  });

  it('publishes the SHA-256 of the consent text the viewer accepts', () => {
    expect(CONSENT_HASH).toBe(createHash('sha256').update(VIEWER_CONSENT_TEXT, 'utf8').digest('hex'));
  });

  it('seals a key for its own e-mail job only: another job id or another secret does not open it', () => {
    const secret = 'k'.repeat(40);
    const sealed = sealKeyForMail(secret, 'key-1', 'the-key');
    expect(JSON.stringify(sealed)).not.toContain('the-key');
    expect(openKeyFromMail(secret, 'key-1', sealed)).toBe('the-key');
    expect(() => openKeyFromMail(secret, 'key-2', sealed)).toThrow();
    expect(() => openKeyFromMail('x'.repeat(40), 'key-1', sealed)).toThrow();
  });
});
