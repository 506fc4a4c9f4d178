#!/usr/bin/env node
// RS256 key pairs: generated once, then reused (a restart keeps sessions valid). The access-token
// pair: identity signs with the private key, every service verifies with the public one. The viewer
// pair (view sessions of a vault): access-keys will sign, every service verifies.
// Usage: node tools/dev/keys.mjs <private.pem> <public.pem> [<private.pem> <public.pem> ...]
//        (docker-compose's jwt-keys step makes both pairs)
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Creates the PEM files if either is missing; returns their paths and contents. */
export function ensureJwtKeys({ privateKeyPath, publicKeyPath }) {
  privateKeyPath = resolve(privateKeyPath);
  publicKeyPath = resolve(publicKeyPath);
  let created = false;
  if (!existsSync(privateKeyPath) || !existsSync(publicKeyPath)) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    mkdirSync(dirname(privateKeyPath), { recursive: true, mode: 0o700 });
    mkdirSync(dirname(publicKeyPath), { recursive: true });
    writeFileSync(privateKeyPath, privateKey, { mode: 0o600 });
    writeFileSync(publicKeyPath, publicKey, { mode: 0o644 });
    created = true;
  }
  return {
    created,
    privateKeyPath,
    publicKeyPath,
    privateKey: readFileSync(privateKeyPath, 'utf8'),
    publicKey: readFileSync(publicKeyPath, 'utf8'),
  };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const paths = process.argv.slice(2);
  if (paths.length === 0 || paths.length % 2 !== 0) {
    console.error('usage: node tools/dev/keys.mjs <private.pem> <public.pem> [<private.pem> <public.pem> ...]');
    process.exit(2);
  }
  for (let i = 0; i < paths.length; i += 2) {
    const keys = ensureJwtKeys({ privateKeyPath: paths[i], publicKeyPath: paths[i + 1] });
    console.log(keys.created ? `generated an RS256 key pair: ${keys.privateKeyPath}, ${keys.publicKeyPath}` : `RS256 key pair already present: ${keys.publicKeyPath}`);
  }
}
