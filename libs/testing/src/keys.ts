import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { AccessTokenClaims } from '@lv/contracts';
import { AccessTokenSigner } from '@lv/platform/auth';

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

/**
 * Signs spec users' access tokens with `privateKey`: a signed-in pro user who is not an admin, with an
 * address made from the id, for 15 minutes, unless `claims` or `ttlSeconds` say otherwise.
 */
export function userTokenSigner(privateKey: string): (userId: string, claims?: Partial<AccessTokenClaims>, ttlSeconds?: number) => string {
  const signer = new AccessTokenSigner(privateKey);
  return (userId, claims = {}, ttlSeconds = 900) =>
    signer.sign({ sub: userId, sid: randomUUID(), email: `${userId.slice(0, 8)}@example.com`, tier: 'pro', admin: false, kind: 'user', ...claims }, ttlSeconds).token;
}

/** A STACK_ID unique to one spec file, so its subjects, streams and consumers are its own. */
export function uniqueStackId(label: string): string {
  return `t_${label.replace(/[^a-z0-9]/gi, '').slice(0, 12)}_${randomBytes(3).toString('hex')}`;
}
