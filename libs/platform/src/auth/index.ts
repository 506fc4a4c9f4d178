import jwt from 'jsonwebtoken';
import type { Redis } from 'ioredis';
import type { AccessTokenClaims } from '@lv/contracts';
import { DomainError } from '../errors/index.js';
import type { AccountCaller } from './caller.js';

export * from './caller.js';

const ISSUER = 'legacy-vault-identity';
const AUDIENCE = 'legacy-vault';

/** Mints access tokens. Only identity (and the ops CLI, which holds the same key) has the private key. */
export class AccessTokenSigner {
  constructor(private readonly privateKeyPem: string) {}

  sign(claims: AccessTokenClaims, ttlSeconds: number): { token: string; expiresAt: number } {
    const token = jwt.sign(claims, this.privateKeyPem, { algorithm: 'RS256', expiresIn: ttlSeconds, issuer: ISSUER, audience: AUDIENCE });
    const { exp } = jwt.decode(token) as { exp: number };
    return { token, expiresAt: exp * 1000 };
  }
}

const revokedKey = (sessionId: string) => `lv:revoked-session:${sessionId}`;

/**
 * Sessions revoked before their access tokens expire. Identity writes an entry on sign-out and on
 * refresh-token reuse; every service reads it, so a revoked session stops working everywhere at
 * once rather than when its last access token runs out. Entries expire with the longest token.
 */
export class RevokedSessions {
  constructor(private readonly redis: Redis, private readonly ttlSeconds = 3600) {}

  async revoke(sessionId: string): Promise<void> {
    await this.redis.set(revokedKey(sessionId), '1', 'EX', this.ttlSeconds);
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(revokedKey(sessionId))) === 1;
  }
}

/** Verifies access tokens with identity's public key. */
export class AccessTokenVerifier {
  constructor(private readonly publicKeyPem: string, private readonly revoked?: RevokedSessions) {}

  async verify(token: string | undefined): Promise<AccountCaller> {
    if (!token) throw new DomainError('UNAUTHENTICATED');
    let claims: AccessTokenClaims;
    try {
      claims = jwt.verify(token, this.publicKeyPem, { algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE }) as AccessTokenClaims;
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw new DomainError('SESSION_EXPIRED');
      throw new DomainError('UNAUTHENTICATED');
    }
    if (claims.kind === 'user' && this.revoked && (await this.revoked.isRevoked(claims.sid))) {
      throw new DomainError('SESSION_EXPIRED');
    }
    return { kind: claims.kind, userId: claims.sub, sessionId: claims.sid, email: claims.email, tier: claims.tier, isAdmin: claims.admin };
  }
}

/** The ops CLI's short-lived token: operator kind, no user behind it. */
export function signOperatorToken(signer: AccessTokenSigner, operator = process.env.USER ?? 'operator'): string {
  return signer.sign({ sub: `operator:${operator}`, sid: 'operator', email: '', tier: 'none', admin: true, kind: 'operator' }, 120).token;
}


export * from './viewer-tokens.js';
export * from './caller-verifier.js';
