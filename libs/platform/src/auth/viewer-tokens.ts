import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Redis } from 'ioredis';
import { AccessMessages } from '@lv/contracts';
import { DomainError } from '../errors/index.js';
import { isViewerScope, type ViewerCaller, type ViewerScope } from './caller.js';

/**
 * Viewer tokens are signed with their own key pair, issuer and audience: an access token can never
 * pass as a viewer token or the reverse, and the key that mints them (access-keys') is not identity's.
 */
export const VIEWER_TOKEN_ISSUER = 'legacy-vault-access-keys';
export const VIEWER_TOKEN_AUDIENCE = 'legacy-vault-viewer';
/** A view session's token lives 15 minutes; the viewer's client renews it while the session is open. */
export const VIEWER_TOKEN_TTL_SECONDS = 15 * 60;

/** Claims inside a viewer token. `sub` is the vault's owner, `sid` the view session. */
export interface ViewerTokenClaims {
  kind: 'viewer';
  sub: string;
  sid: string;
  scopes: ViewerScope[];
  /** Present when the session's key is limited to one letter. */
  letter?: string;
  /** Present (true) when the session's key allows downloads of originals; absent means view only. */
  dl?: true;
}

export interface ViewSessionGrant {
  vaultOwnerId: string;
  viewSessionId: string;
  scopes: readonly ViewerScope[];
  letterId?: string | null;
  /** The key allows downloads of originals (default: view only). */
  mayDownload?: boolean;
}

/** Mints viewer tokens. Only the holder of the viewer private key (access-keys; tests) can. */
export class ViewerTokenSigner {
  constructor(private readonly privateKeyPem: string) {}

  sign(grant: ViewSessionGrant, ttlSeconds = VIEWER_TOKEN_TTL_SECONDS): { token: string; expiresAt: number } {
    if (!grant.scopes.every(isViewerScope)) throw new Error(`unknown viewer scope in ${JSON.stringify(grant.scopes)}`);
    const claims: ViewerTokenClaims = {
      kind: 'viewer', sub: grant.vaultOwnerId, sid: grant.viewSessionId, scopes: [...grant.scopes],
      ...(grant.letterId ? { letter: grant.letterId } : {}), ...(grant.mayDownload ? { dl: true as const } : {}),
    };
    const token = jwt.sign(claims, this.privateKeyPem, { algorithm: 'RS256', expiresIn: ttlSeconds, issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE });
    const { exp } = jwt.decode(token) as { exp: number };
    return { token, expiresAt: exp * 1000 };
  }
}

const revokedViewKey = (viewSessionId: string) => `lv:revoked-view-session:${viewSessionId}`;

/**
 * View sessions ended before their tokens expire (the owner revoked the key, the session was closed).
 * Every service reads it on every request, as it reads RevokedSessions for owners. An entry only has
 * to outlive the longest viewer token; an hour leaves room over the 15-minute TTL.
 */
export class RevokedViewSessions {
  constructor(private readonly redis: Redis, private readonly ttlSeconds = 3600) {}

  async revoke(viewSessionId: string): Promise<void> {
    await this.redis.set(revokedViewKey(viewSessionId), '1', 'EX', this.ttlSeconds);
  }

  async isRevoked(viewSessionId: string): Promise<boolean> {
    return (await this.redis.exists(revokedViewKey(viewSessionId))) === 1;
  }
}

/** Verifies viewer tokens with the viewer public key, and their view session against revocations. */
export class ViewerTokenVerifier {
  private readonly publicKey: KeyObject;

  constructor(publicKeyPem: string, private readonly revoked?: Pick<RevokedViewSessions, 'isRevoked'>) {
    // Parsed once: jsonwebtoken would otherwise parse the PEM again on every call.
    this.publicKey = createPublicKey(publicKeyPem);
  }

  async verify(token: string | undefined): Promise<ViewerCaller> {
    if (!token) throw new DomainError('UNAUTHENTICATED');
    let claims: ViewerTokenClaims & { exp: number };
    try {
      claims = jwt.verify(token, this.publicKey, { algorithms: ['RS256'], issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE }) as ViewerTokenClaims & { exp: number };
    } catch (error) {
      // The viewer's words (spec), not an owner's "sign in again": a viewer has no account to sign in to.
      if (error instanceof jwt.TokenExpiredError) throw new DomainError('SESSION_EXPIRED', AccessMessages.viewExpired);
      throw new DomainError('UNAUTHENTICATED');
    }
    // A well-signed token with the wrong shape is still not a viewer: refuse rather than guess.
    if (claims.kind !== 'viewer' || typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || !Array.isArray(claims.scopes)
      || (claims.letter !== undefined && typeof claims.letter !== 'string') || (claims.dl !== undefined && claims.dl !== true)) {
      throw new DomainError('UNAUTHENTICATED');
    }
    if (this.revoked && (await this.revoked.isRevoked(claims.sid))) throw new DomainError('SESSION_EXPIRED', AccessMessages.viewExpired);
    return {
      kind: 'viewer', vaultOwnerId: claims.sub, viewSessionId: claims.sid, scopes: claims.scopes.filter(isViewerScope), expiresAt: claims.exp * 1000, mayDownload: claims.dl === true,
      ...(claims.letter !== undefined ? { letterId: claims.letter } : {}),
    };
  }
}

/** True when a token claims to be a viewer token (unverified: only picks which verifier checks it). */
export function looksLikeViewerToken(token: string): boolean {
  const decoded = jwt.decode(token);
  return !!decoded && typeof decoded === 'object' && decoded.iss === VIEWER_TOKEN_ISSUER;
}
