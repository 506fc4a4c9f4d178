import { generateKeyPairSync, randomBytes } from 'node:crypto';

export interface TestKeys {
  privateKey: string;
  publicKey: string;
}

/** An RS256 key pair for a test's own token issuer. */
export function generateTestKeys(): TestKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKey, publicKey };
}

/** A STACK_ID unique to one spec file, so its subjects, streams and consumers are its own. */
export function uniqueStackId(label: string): string {
  return `t_${label.replace(/[^a-z0-9]/gi, '').slice(0, 12)}_${randomBytes(3).toString('hex')}`;
}
