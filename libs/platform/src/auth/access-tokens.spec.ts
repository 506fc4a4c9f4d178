import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { alterMiddleCharacter } from '@lv/testing';
import type { DomainError } from '../errors/index.js';
import { AccessTokenSigner, AccessTokenVerifier, type RevokedSessions } from './index.js';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const keys = pair();
const otherKeys = pair();
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);
const claims = (sid = randomUUID()) => ({ sub: 'user-1', sid, email: 'a@example.com', tier: 'pro' as const, admin: false, kind: 'user' as const });

/** A revocation store that answers from a set (the unit under test is the verifier, not Redis). */
function revocations(revoked = new Set<string>()): { store: RevokedSessions; revoked: Set<string>; lookups: string[] } {
  const lookups: string[] = [];
  const store = { isRevoked: async (sid: string) => { lookups.push(sid); return revoked.has(sid); }, close: async () => undefined } as unknown as RevokedSessions;
  return { store, revoked, lookups };
}

describe('AccessTokenVerifier (verified tokens remembered until they expire)', () => {
  it('reads the emailVerified claim, and a token without it (signed before it existed) as not verified', async () => {
    const verifier = new AccessTokenVerifier(keys.publicKey);
    const signer = new AccessTokenSigner(keys.privateKey);
    expect((await verifier.verify(signer.sign({ ...claims(), emailVerified: true }, 60).token)).emailVerified).toBe(true);
    expect((await verifier.verify(signer.sign({ ...claims(), emailVerified: false }, 60).token)).emailVerified).toBe(false);
    expect((await verifier.verify(signer.sign(claims(), 60).token)).emailVerified).toBe(false);
  });

  it('reads the last proof from authAt (sudo mode), and a token without it as proved when it was issued', async () => {
    const verifier = new AccessTokenVerifier(keys.publicKey);
    const signer = new AccessTokenSigner(keys.privateKey);
    const longAgo = Math.floor(Date.now() / 1000) - 3600;
    expect((await verifier.verify(signer.sign({ ...claims(), authAt: longAgo }, 60).token)).provedAt).toBe(longAgo * 1000);
    const before = Math.floor(Date.now() / 1000) * 1000;
    const issuedNow = (await verifier.verify(signer.sign(claims(), 60).token)).provedAt;
    expect(issuedNow).toBeGreaterThanOrEqual(before);
    expect(issuedNow).toBeLessThanOrEqual(Date.now());
  });

  it('answers the same caller for a remembered token, and checks its session on every call', async () => {
    const { store, revoked, lookups } = revocations();
    const verifier = new AccessTokenVerifier(keys.publicKey, store);
    const c = claims();
    const { token } = new AccessTokenSigner(keys.privateKey).sign(c, 60);
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    expect(second).toEqual(first);
    expect(first).toMatchObject({ kind: 'user', userId: 'user-1', sessionId: c.sid });
    // A caller changing its copy cannot change what the next request is told.
    (first as { userId: string }).userId = 'someone-else';
    expect((await verifier.verify(token)).userId).toBe('user-1');
    expect(lookups).toEqual([c.sid, c.sid, c.sid]);
    revoked.add(c.sid);
    expect(await codeOf(verifier.verify(token))).toBe('SESSION_EXPIRED');
  });

  it('refuses a remembered token once it has expired', async () => {
    let now = Date.now();
    const verifier = new AccessTokenVerifier(keys.publicKey, undefined, () => now);
    const { token, expiresAt } = new AccessTokenSigner(keys.privateKey).sign(claims(), 60);
    expect(await codeOf(verifier.verify(token))).toBe('OK');
    now = expiresAt - 1;
    expect(await codeOf(verifier.verify(token))).toBe('OK');
    now = expiresAt;
    expect(await codeOf(verifier.verify(token))).toBe('SESSION_EXPIRED');
  });

  it('never lets a remembered token vouch for another: a token signed with another key, or altered, is refused', async () => {
    const verifier = new AccessTokenVerifier(keys.publicKey);
    const good = new AccessTokenSigner(keys.privateKey).sign(claims(), 60).token;
    expect(await codeOf(verifier.verify(good))).toBe('OK');
    const forged = new AccessTokenSigner(otherKeys.privateKey).sign(claims(), 60).token;
    expect(await codeOf(verifier.verify(forged))).toBe('UNAUTHENTICATED');
    const [header, payload, signature] = good.split('.');
    const altered = `${header}.${payload}.${alterMiddleCharacter(signature!)}`;
    expect(await codeOf(verifier.verify(altered))).toBe('UNAUTHENTICATED');
    expect(await codeOf(verifier.verify(`${good} `))).toBe('UNAUTHENTICATED');
    expect(await codeOf(verifier.verify(undefined))).toBe('UNAUTHENTICATED');
  });

  it('refuses a token that arrives already expired', async () => {
    const verifier = new AccessTokenVerifier(keys.publicKey);
    const { token } = new AccessTokenSigner(keys.privateKey).sign(claims(), -10);
    expect(await codeOf(verifier.verify(token))).toBe('SESSION_EXPIRED');
  });
});
