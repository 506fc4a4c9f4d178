import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { DomainError } from '../errors/index.js';
import { AccessTokenSigner, AccessTokenVerifier, CallerVerifier, ownerOf, vaultOwnerId, ViewerTokenSigner, ViewerTokenVerifier, VIEWER_TOKEN_AUDIENCE, VIEWER_TOKEN_ISSUER } from './index.js';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const access = pair();
const viewerKeys = pair();
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: DomainError) => e.code);

describe('viewer tokens', () => {
  const signer = new ViewerTokenSigner(viewerKeys.privateKey);
  const verifier = new ViewerTokenVerifier(viewerKeys.publicKey);
  const callers = new CallerVerifier(new AccessTokenVerifier(access.publicKey), verifier);
  const ownerToken = new AccessTokenSigner(access.privateKey).sign({ sub: 'owner-1', sid: randomUUID(), email: 'a@example.com', tier: 'pro', admin: false, kind: 'user' }, 60).token;

  it('carry the vault, the view session and the scopes, for 15 minutes by default', async () => {
    const { token, expiresAt } = signer.sign({ vaultOwnerId: 'owner-1', viewSessionId: 'view-1', scopes: ['timeline', 'letters'] });
    expect(expiresAt - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const viewer = await verifier.verify(token);
    expect(viewer).toEqual({ kind: 'viewer', vaultOwnerId: 'owner-1', viewSessionId: 'view-1', scopes: ['timeline', 'letters'], expiresAt, mayDownload: false });
    expect(vaultOwnerId(viewer)).toBe('owner-1');
    expect(() => ownerOf(viewer)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('carry the download permission only when the key allows it (dl), and refuse a dl claim that is not true', async () => {
    const { token } = signer.sign({ vaultOwnerId: 'owner-1', viewSessionId: 'view-dl', scopes: ['timeline'], mayDownload: true });
    expect(jwt.decode(token)).toMatchObject({ dl: true });
    expect(await verifier.verify(token)).toMatchObject({ mayDownload: true });
    const viewOnly = signer.sign({ vaultOwnerId: 'owner-1', viewSessionId: 'view-nodl', scopes: ['timeline'], mayDownload: false }).token;
    expect(jwt.decode(viewOnly)).not.toHaveProperty('dl');
    const forged = jwt.sign({ kind: 'viewer', sub: 'owner-1', sid: 'view-x', scopes: ['timeline'], dl: 'yes' }, viewerKeys.privateKey, { algorithm: 'RS256', expiresIn: 60, issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE });
    expect(await codeOf(verifier.verify(forged))).toBe('UNAUTHENTICATED');
  });

  it('carry the one letter a milestone key is limited to, and refuse a letter claim that is not a string', async () => {
    const { token } = signer.sign({ vaultOwnerId: 'owner-1', viewSessionId: 'view-2', scopes: ['letters'], letterId: 'letter-1' });
    expect(await verifier.verify(token)).toMatchObject({ scopes: ['letters'], letterId: 'letter-1' });
    const unlimited = await verifier.verify(signer.sign({ vaultOwnerId: 'owner-1', viewSessionId: 'view-3', scopes: ['letters'], letterId: null }).token);
    expect(unlimited).not.toHaveProperty('letterId');
    const bad = jwt.sign({ kind: 'viewer', sub: 'owner-1', sid: 'v', scopes: ['letters'], letter: 42 }, viewerKeys.privateKey, { algorithm: 'RS256', issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE, expiresIn: 60 });
    expect(await codeOf(verifier.verify(bad))).toBe('UNAUTHENTICATED');
  });

  it('are refused when expired, signed with another key, or when an access token is offered instead', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = jwt.sign({ kind: 'viewer', sub: 'owner-1', sid: 'v', scopes: [], iat: now - 120, exp: now - 60 }, viewerKeys.privateKey, { algorithm: 'RS256', issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE });
    expect(await codeOf(verifier.verify(expired))).toBe('SESSION_EXPIRED');
    const foreign = new ViewerTokenSigner(pair().privateKey).sign({ vaultOwnerId: 'owner-1', viewSessionId: 'v', scopes: ['letters'] }).token;
    expect(await codeOf(verifier.verify(foreign))).toBe('UNAUTHENTICATED');
    expect(await codeOf(verifier.verify(ownerToken))).toBe('UNAUTHENTICATED');
    expect(await codeOf(verifier.verify(undefined))).toBe('UNAUTHENTICATED');
  });

  it('cannot pass as access tokens: same key or not, the issuer and audience differ', async () => {
    // Even a viewer token signed with identity's own key is not an access token.
    const sameKey = new ViewerTokenSigner(access.privateKey).sign({ vaultOwnerId: 'owner-1', viewSessionId: 'v', scopes: ['letters'] }).token;
    expect(await codeOf(new AccessTokenVerifier(access.publicKey).verify(sameKey))).toBe('UNAUTHENTICATED');
    expect(await codeOf(callers.verify(sameKey))).toBe('UNAUTHENTICATED');
  });

  it('are told apart from access tokens by CallerVerifier, and refused outright without a viewer key', async () => {
    const viewerToken = signer.sign({ vaultOwnerId: 'owner-1', viewSessionId: 'v', scopes: ['letters'] }).token;
    expect((await callers.verify(viewerToken)).kind).toBe('viewer');
    expect((await callers.verify(ownerToken)).kind).toBe('user');
    const withoutViewers = new CallerVerifier(new AccessTokenVerifier(access.publicKey));
    expect(await codeOf(withoutViewers.verify(viewerToken))).toBe('UNAUTHENTICATED');
    expect(await codeOf(withoutViewers.verify(ownerToken))).toBe('OK');
  });

  it('refuse an unknown scope when signing, and drop unknown scopes when verifying', async () => {
    expect(() => signer.sign({ vaultOwnerId: 'o', viewSessionId: 'v', scopes: ['diary' as never] })).toThrow(/unknown viewer scope/);
    const odd = jwt.sign({ kind: 'viewer', sub: 'o', sid: 'v', scopes: ['letters', 'diary'] }, viewerKeys.privateKey, { algorithm: 'RS256', issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE, expiresIn: 60 });
    expect((await verifier.verify(odd)).scopes).toEqual(['letters']);
  });
});
