import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { PasskeyAuthenticationResponse, PasskeyRegistrationResponse } from '@lv/contracts';

// A WebAuthn authenticator in software for the specs: one ES256 (P-256) key pair per passkey, real
// attestation objects (format 'none') and real assertion signatures, built byte by byte from the
// WebAuthn Level 3 layouts (authenticator data, COSE key, CBOR), so identity's checks run unchanged.

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** The CBOR head of a major type with its length (RFC 8949 §3): enough for the maps, strings and byte strings used here. */
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const head = Buffer.alloc(3);
  head[0] = (major << 5) | 25;
  head.writeUInt16BE(length, 1);
  return head;
}
const cborBytes = (bytes: Buffer) => Buffer.concat([cborHead(2, bytes.length), bytes]);
const cborText = (text: string) => Buffer.concat([cborHead(3, Buffer.byteLength(text)), Buffer.from(text)]);
/** A small integer key or value of a COSE map: 0..23 and -1..-24 fit in the head. */
const cborInt = (n: number) => (n >= 0 ? cborHead(0, n) : cborHead(1, -1 - n));

/** The passkey's public key as COSE_Key (RFC 9053): EC2, ES256, P-256, x and y. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return Buffer.concat([cborHead(5, 5), cborInt(1), cborInt(2), cborInt(3), cborInt(-7), cborInt(-1), cborInt(1), cborInt(-2), cborBytes(x), cborInt(-3), cborBytes(y)]);
}

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftwarePasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

interface CeremonyOptions {
  challenge: string;
  rp?: { id: string };
  rpId?: string;
  user?: { id: string };
}

function readOptions(options: Record<string, unknown>): CeremonyOptions {
  const challenge = options['challenge'];
  if (typeof challenge !== 'string') throw new Error('the options carry no challenge');
  const rp = options['rp'];
  const rpId = options['rpId'];
  const user = options['user'];
  return {
    challenge,
    ...(rp && typeof rp === 'object' && 'id' in rp && typeof rp.id === 'string' ? { rp: { id: rp.id } } : {}),
    ...(typeof rpId === 'string' ? { rpId } : {}),
    ...(user && typeof user === 'object' && 'id' in user && typeof user.id === 'string' ? { user: { id: user.id } } : {}),
  };
}

export class SoftwareAuthenticator {
  /** `origin` is where the browser says the page was: a wrong one is what a phishing site would produce. */
  constructor(private readonly origin: string) {}

  /** navigator.credentials.create(): a new passkey for the options' RP and user, attestation 'none'. */
  create(options: Record<string, unknown>, origin = this.origin): { passkey: SoftwarePasskey; response: PasskeyRegistrationResponse } {
    const { challenge, rp, user } = readOptions(options);
    if (!rp || !user) throw new Error('not registration options');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([sha256(rp.id), Buffer.from([UP | UV | AT]), Buffer.alloc(4), Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
    const attestationObject = Buffer.concat([cborHead(5, 3), cborText('fmt'), cborText('none'), cborText('attStmt'), cborHead(5, 0), cborText('authData'), cborBytes(authData)]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin, crossOrigin: false }));
    const id = credentialId.toString('base64url');
    return {
      passkey: { credentialId, privateKey, publicKey, userHandle: user.id, counter: 0 },
      response: { id, rawId: id, type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: clientDataJSON.toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] } },
    };
  }

  /** navigator.credentials.get(): the passkey signs the options' challenge (its counter goes up by one). */
  get(passkey: SoftwarePasskey, options: Record<string, unknown>, { origin = this.origin, userVerified = true }: { origin?: string; userVerified?: boolean } = {}): PasskeyAuthenticationResponse {
    const { challenge, rpId } = readOptions(options);
    if (!rpId) throw new Error('not authentication options');
    passkey.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(passkey.counter);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | (userVerified ? UV : 0)]), counter]);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), passkey.privateKey);
    const id = passkey.credentialId.toString('base64url');
    return {
      id, rawId: id, type: 'public-key', clientExtensionResults: {},
      response: { clientDataJSON: clientDataJSON.toString('base64url'), authenticatorData: authData.toString('base64url'), signature: signature.toString('base64url'), userHandle: passkey.userHandle },
    };
  }
}
