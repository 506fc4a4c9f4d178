import { DomainError } from '../errors/index.js';
import type { AccessTokenVerifier } from './index.js';
import type { Caller } from './caller.js';
import { looksLikeViewerToken, type ViewerTokenVerifier } from './viewer-tokens.js';

/**
 * Verifies whichever token a request carries: an access token (owner, operator) with identity's key,
 * a viewer token with the viewer key. The issuer only picks the verifier; the signature, audience,
 * expiry and revocation are then checked in full by that verifier. Without a viewer verifier (no
 * VIEWER_JWT_PUBLIC_KEY configured) every viewer token is refused.
 */
export class CallerVerifier {
  constructor(readonly accessTokens: AccessTokenVerifier, readonly viewerTokens?: ViewerTokenVerifier) {}

  async verify(token: string | undefined): Promise<Caller> {
    if (!token) throw new DomainError('UNAUTHENTICATED');
    // A token the access verifier checked before needs no decoding to tell which kind it is.
    if (!this.accessTokens.remembers(token) && looksLikeViewerToken(token)) {
      if (!this.viewerTokens) throw new DomainError('UNAUTHENTICATED');
      return this.viewerTokens.verify(token);
    }
    return this.accessTokens.verify(token);
  }
}
