#!/usr/bin/env node
// Key pairs: generated once, then reused (a restart keeps sessions valid and evidence verifiable).
// RS256: the access-token pair (identity signs with the private key, every service verifies with the
// public one) and the viewer pair (view sessions of a vault: access-keys will sign, every service
// verifies). Ed25519: court-journal's evidence key, which signs the heads of evidence chains (its
// public half is published and printed in every evidence bundle).
// Usage: node tools/dev/keys.mjs <private.pem> <public.pem> [...] [--ed25519 <private.pem> <public.pem> ...]
//        (pairs after --ed25519 are Ed25519; docker-compose's keys step makes all three pairs)
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Creates the PEM files (RS256 2048-bit, or Ed25519) if either is missing; returns their paths and contents. */
export function ensureKeyPair({ privateKeyPath, publicKeyPath, type = 'rsa' }) {
  privateKeyPath = resolve(privateKeyPath);
  publicKeyPath = resolve(publicKeyPath);
  let created = false;
  if (!existsSync(privateKeyPath) || !existsSync(publicKeyPath)) {
    const encodings = { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } };
    const { privateKey, publicKey } = type === 'ed25519' ? generateKeyPairSync('ed25519', encodings) : generateKeyPairSync('rsa', { modulusLength: 2048, ...encodings });
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

/** An RS256 pair of access or viewer tokens. */
export const ensureJwtKeys = (paths) => ensureKeyPair({ ...paths, type: 'rsa' });

/** The Ed25519 evidence key of court-journal. */
export const ensureEvidenceKey = (paths) => ensureKeyPair({ ...paths, type: 'ed25519' });

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const args = process.argv.slice(2);
  const split = args.indexOf('--ed25519');
  const rsa = split < 0 ? args : args.slice(0, split);
  const ed25519 = split < 0 ? [] : args.slice(split + 1);
  if (rsa.length + ed25519.length === 0 || rsa.length % 2 !== 0 || ed25519.length % 2 !== 0) {
    console.error('usage: node tools/dev/keys.mjs <private.pem> <public.pem> [...] [--ed25519 <private.pem> <public.pem> ...]');
    process.exit(2);
  }
  for (const [paths, type, label] of [[rsa, 'rsa', 'RS256'], [ed25519, 'ed25519', 'Ed25519']]) {
    for (let i = 0; i < paths.length; i += 2) {
      const keys = ensureKeyPair({ privateKeyPath: paths[i], publicKeyPath: paths[i + 1], type });
      console.log(keys.created ? `generated an ${label} key pair: ${keys.privateKeyPath}, ${keys.publicKeyPath}` : `${label} key pair already present: ${keys.publicKeyPath}`);
    }
  }
}
