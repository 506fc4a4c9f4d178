import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ViewerTokenSigner, ViewerTokenVerifier } from '@lv/platform/auth';
import { viewerTokenGrant } from './viewer-grant.js';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const signer = new ViewerTokenSigner(keys.privateKey);
const now = Date.now();
const session = (over: Partial<Parameters<typeof viewerTokenGrant>[1]> = {}) => ({
  id: '9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a', owner_id: '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11', scopes: ['timeline'], expires_at: new Date(now + 30 * 86_400_000),
  letter_id: null, may_download: false, ...over,
});
const lifetime = (token: string) => { const { iat, exp } = jwt.decode(token) as { iat: number; exp: number }; return exp - iat; };

describe('viewer token grant', () => {
  it('lives 15 minutes while the session and the key last longer', () => {
    const grant = viewerTokenGrant(signer, session(), { expires_at: new Date(now + 86_400_000) }, now);
    expect(lifetime(grant.viewer_token)).toBe(900);
  });

  it('never outlives the key: a key expiring in 2 minutes gives a 2-minute token, whatever the session says', () => {
    const grant = viewerTokenGrant(signer, session(), { expires_at: new Date(now + 120_000) }, now);
    expect(lifetime(grant.viewer_token)).toBeLessThanOrEqual(120);
    expect(grant.viewer_token_expires_at).toBeLessThanOrEqual(now + 121_000);
    expect(grant.session_expires_at).toBe(session().expires_at.toISOString());
  });

  it('never outlives the session either', () => {
    const grant = viewerTokenGrant(signer, session({ expires_at: new Date(now + 60_000) }), { expires_at: new Date(now + 86_400_000) }, now);
    expect(lifetime(grant.viewer_token)).toBeLessThanOrEqual(60);
  });

  it('carries the key’s download permission in the token (dl) and the grant (may_download), view only by default', async () => {
    const verifier = new ViewerTokenVerifier(keys.publicKey);
    const viewOnly = viewerTokenGrant(signer, session(), { expires_at: new Date(now + 86_400_000) }, now);
    expect(viewOnly.may_download).toBe(false);
    expect(await verifier.verify(viewOnly.viewer_token)).toMatchObject({ mayDownload: false });
    const downloads = viewerTokenGrant(signer, session({ may_download: true }), { expires_at: new Date(now + 86_400_000) }, now);
    expect(downloads.may_download).toBe(true);
    expect(await verifier.verify(downloads.viewer_token)).toMatchObject({ mayDownload: true });
  });
});
