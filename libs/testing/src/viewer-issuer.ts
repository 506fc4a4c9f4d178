import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Redis } from 'ioredis';
import {
  RevokedViewSessions, VIEWER_SCOPES, VIEWER_TOKEN_AUDIENCE, VIEWER_TOKEN_ISSUER, ViewerTokenSigner, type ViewerScope, type ViewerTokenClaims,
} from '@lv/platform/auth';
import { generateTestKeys } from './keys.js';

export interface IssuedViewerToken {
  token: string;
  viewSessionId: string;
  vaultOwnerId: string;
  scopes: ViewerScope[];
  expiresAt: number;
}

/**
 * Issues viewer tokens for tests, as access-keys will for real view sessions: its own RS256 key pair
 * (give `publicKey` to the services as VIEWER_JWT_PUBLIC_KEY), real signatures, and real revocation
 * through the same Redis entries the services read.
 */
export class TestViewerIssuer {
  readonly publicKey: string;
  private readonly privateKey: string;
  private readonly signer: ViewerTokenSigner;
  private readonly revocations: RevokedViewSessions | undefined;

  constructor(redis?: Redis, keys = generateTestKeys()) {
    this.publicKey = keys.publicKey;
    this.privateKey = keys.privateKey;
    this.signer = new ViewerTokenSigner(keys.privateKey);
    this.revocations = redis ? new RevokedViewSessions(redis) : undefined;
  }

  /** A live viewer token of `vaultOwnerId`'s vault; all scopes unless told; view only unless `mayDownload`. */
  issue(vaultOwnerId: string, scopes: readonly ViewerScope[] = VIEWER_SCOPES, ttlSeconds?: number, letterId?: string, mayDownload = false): IssuedViewerToken {
    return this.issueFor(randomUUID(), vaultOwnerId, scopes, mayDownload, ttlSeconds, letterId);
  }

  /** A token of a given view session (a renewed token, or one a spec forges with other claims for the same session). */
  issueFor(viewSessionId: string, vaultOwnerId: string, scopes: readonly ViewerScope[], mayDownload = false, ttlSeconds?: number, letterId?: string): IssuedViewerToken {
    const { token, expiresAt } = this.signer.sign({ vaultOwnerId, viewSessionId, scopes, letterId: letterId ?? null, mayDownload }, ttlSeconds);
    return { token, viewSessionId, vaultOwnerId, scopes: [...scopes], expiresAt };
  }

  /** A correctly signed token whose expiry passed a minute ago. */
  expired(vaultOwnerId: string, scopes: readonly ViewerScope[] = VIEWER_SCOPES): IssuedViewerToken {
    const viewSessionId = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const claims: ViewerTokenClaims & { iat: number; exp: number } = { kind: 'viewer', sub: vaultOwnerId, sid: viewSessionId, scopes: [...scopes], iat: now - 16 * 60, exp: now - 60 };
    const token = jwt.sign(claims, this.privateKey, { algorithm: 'RS256', issuer: VIEWER_TOKEN_ISSUER, audience: VIEWER_TOKEN_AUDIENCE });
    return { token, viewSessionId, vaultOwnerId, scopes: [...scopes], expiresAt: (now - 60) * 1000 };
  }

  /** A live token whose view session is already revoked. */
  async revoked(vaultOwnerId: string, scopes: readonly ViewerScope[] = VIEWER_SCOPES): Promise<IssuedViewerToken> {
    const issued = this.issue(vaultOwnerId, scopes);
    await this.revoke(issued.viewSessionId);
    return issued;
  }

  async revoke(viewSessionId: string): Promise<void> {
    if (!this.revocations) throw new Error('TestViewerIssuer needs a Redis connection to revoke view sessions');
    await this.revocations.revoke(viewSessionId);
  }
}
