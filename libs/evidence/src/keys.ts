import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { EvidencePublicKeys, SignedEvidenceHead } from '@lv/contracts';
import { canonicalBytes, sha256Hex, SHA256_HEX_PATTERN } from './canonical.js';

/** Written into every head's signed bytes, so a signature over one kind of record never fits another. */
export const EVIDENCE_HEAD_FORMAT = 'legacy-vault/evidence-head/v1';
/** validFrom of a key whose start nobody recorded: heads it signed are honoured from the beginning. */
export const EPOCH = '1970-01-01T00:00:00.000Z';

export type EvidenceHead = Omit<SignedEvidenceHead, 'signature'>;

/**
 * The bytes a head's signature covers: canonical JSON of
 * {"format":"legacy-vault/evidence-head/v1","headHash":..,"keyId":..,"ownerId":..,"sequence":..,"signedAt":..}.
 */
export function canonicalHeadBytes(head: EvidenceHead): Buffer {
  return canonicalBytes({
    format: EVIDENCE_HEAD_FORMAT,
    ownerId: head.ownerId,
    sequence: head.sequence,
    headHash: head.headHash,
    signedAt: head.signedAt,
    keyId: head.keyId,
  });
}

/** SHA-256 (hex) of a public key's SPKI DER: `openssl pkey -pubin -in key.pem -outform DER | sha256sum`. */
export function keyFingerprint(key: KeyObject | string): string {
  return sha256Hex(asPublic(key).export({ type: 'spki', format: 'der' }));
}

function asPublic(key: KeyObject | string): KeyObject {
  return typeof key !== 'string' && key.type === 'public' ? key : createPublicKey(key);
}

/** A public key as SPKI PEM, always written the same way (for key.pem and the README). */
export function publicKeyPem(key: KeyObject | string): string {
  return asPublic(key).export({ type: 'spki', format: 'pem' }).toString();
}

/** A key's id: the first 16 hex digits of its fingerprint. */
export function keyIdOf(key: KeyObject | string): string {
  return keyFingerprint(key).slice(0, 16);
}

function assertEd25519(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError(`${what} is a ${key.asymmetricKeyType ?? key.type} key, not Ed25519`);
}

export interface GeneratedEvidenceKey {
  keyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
  createdAt: string;
}

/** A new Ed25519 evidence key (PKCS#8 and SPKI PEM). */
export function generateEvidenceKey(now: Date = new Date()): GeneratedEvidenceKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    keyId: keyIdOf(publicKey),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    createdAt: now.toISOString(),
  };
}

/** Signs a head with the private evidence key; `head.keyId` must be that key's id. */
export function signHead(head: EvidenceHead, privateKey: KeyObject): SignedEvidenceHead {
  assertEd25519(privateKey, 'the evidence key');
  if (privateKey.type !== 'private') throw new TypeError('signHead needs the private evidence key');
  const keyId = keyIdOf(privateKey);
  if (head.keyId !== keyId) throw new TypeError(`head.keyId ${head.keyId} is not the id of this key (${keyId})`);
  if (!SHA256_HEX_PATTERN.test(head.headHash)) throw new TypeError('headHash is not 64 lower-case hex digits');
  const signature = sign(null, canonicalHeadBytes(head), privateKey).toString('base64url');
  return { ownerId: head.ownerId, sequence: head.sequence, headHash: head.headHash, signedAt: head.signedAt, keyId: head.keyId, signature };
}

export type HeadVerdict =
  | { ok: true; keyId: string; fingerprint: string; /** SPKI PEM as publicKeyPem() writes it. */ publicKeyPem: string }
  | { ok: false; reason: string };

/**
 * Checks a signed head against a set of public keys: the key must be listed, its id must be its
 * fingerprint's, the head must have been signed inside the key's validity (validFrom <= signedAt <=
 * validUntil, validUntil null for the current key) and the Ed25519 signature must match.
 */
export function verifyHead(signed: SignedEvidenceHead, publicKeys: EvidencePublicKeys): HeadVerdict {
  const listed = publicKeys.keys.filter((k) => k.keyId === signed.keyId);
  if (!listed.length) return { ok: false, reason: `signed by key ${signed.keyId}, which is not among the trusted keys (${publicKeys.keys.map((k) => k.keyId).join(', ') || 'none'})` };
  const signedAt = Date.parse(signed.signedAt);
  if (Number.isNaN(signedAt)) return { ok: false, reason: 'signedAt is not a time' };
  let lastReason = '';
  for (const key of listed) {
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey(key.publicKeyPem);
      assertEd25519(publicKey, `key ${key.keyId}`);
    } catch (error) {
      lastReason = `key ${key.keyId} is not a usable Ed25519 public key (${(error as Error).message})`;
      continue;
    }
    const fingerprint = keyFingerprint(publicKey);
    if (fingerprint.slice(0, 16) !== key.keyId) {
      lastReason = `key listed as ${key.keyId} has fingerprint ${fingerprint}: the id does not belong to it`;
      continue;
    }
    if (signedAt < Date.parse(key.validFrom)) {
      lastReason = `signed at ${signed.signedAt}, before key ${key.keyId} became valid (${key.validFrom})`;
      continue;
    }
    if (key.validUntil !== null && signedAt > Date.parse(key.validUntil)) {
      lastReason = `signed at ${signed.signedAt}, after key ${key.keyId} stopped being honoured (${key.validUntil})`;
      continue;
    }
    const signature = Buffer.from(signed.signature, 'base64url');
    const headBytes = canonicalHeadBytes(signed);
    if (signature.length === 64 && verify(null, headBytes, publicKey, signature)) {
      return { ok: true, keyId: key.keyId, fingerprint, publicKeyPem: publicKeyPem(publicKey) };
    }
    lastReason = `the signature does not match the head (sequence ${signed.sequence}, headHash ${signed.headHash}) under key ${key.keyId}`;
  }
  return { ok: false, reason: lastReason };
}

export interface EvidenceKeyRingConfig {
  /** The current private key (PKCS#8 PEM): it signs every new head. */
  current: string | { pem: string; validFrom?: string };
  /** Keys rotated out (private or public PEM): heads they signed until validUntil stay valid. */
  previous?: { pem: string; validFrom?: string; validUntil: string }[];
}

export interface EvidenceKeyRing {
  keyId: string;
  /** Signs the head of a chain with the current key. */
  sign(head: Omit<EvidenceHead, 'keyId'>): SignedEvidenceHead;
  /** What EVIDENCE_KEYS_PATH publishes: the current key first, then those still honoured. */
  publicKeys: EvidencePublicKeys;
}

/**
 * The service's evidence keys. Rotation with overlap: put the new key in `current` and the old one in
 * `previous` with validUntil = the moment of the switch (or a little after); heads the old key signed
 * until then keep verifying, later ones do not.
 */
export function loadEvidenceKeyRing(config: EvidenceKeyRingConfig): EvidenceKeyRing {
  const current = typeof config.current === 'string' ? { pem: config.current } : config.current;
  const privateKey = createPrivateKey(current.pem);
  assertEd25519(privateKey, 'the current evidence key');
  const keyId = keyIdOf(privateKey);
  const keys: EvidencePublicKeys['keys'] = [{ keyId, algorithm: 'Ed25519', publicKeyPem: publicKeyPem(privateKey), validFrom: current.validFrom ?? EPOCH, validUntil: null }];
  for (const old of config.previous ?? []) {
    const pub = createPublicKey(old.pem);
    assertEd25519(pub, 'a previous evidence key');
    if (Number.isNaN(Date.parse(old.validUntil))) throw new TypeError(`previous key ${keyIdOf(pub)}: validUntil is not a time`);
    if (keys.some((k) => k.keyId === keyIdOf(pub))) throw new TypeError(`evidence key ${keyIdOf(pub)} is listed twice`);
    keys.push({ keyId: keyIdOf(pub), algorithm: 'Ed25519', publicKeyPem: publicKeyPem(pub), validFrom: old.validFrom ?? EPOCH, validUntil: new Date(old.validUntil).toISOString() });
  }
  return {
    keyId,
    sign: (head) => signHead({ ...head, keyId }, privateKey),
    publicKeys: { keys },
  };
}
