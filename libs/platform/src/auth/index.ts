import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Redis } from 'ioredis';
import type { AccessTokenClaims } from '@lv/contracts';
import { DomainError } from '../errors/index.js';
import type { AccountCaller } from './caller.js';
import { REVOCATIONS_CHANNEL, RevocationCache, type RevocationCacheOptions } from './revocation-cache.js';

export * from './address-bucket.js';
export * from './caller.js';
export * from './revocation-cache.js';

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
 * refresh-token reuse, and announces it on REVOCATIONS_CHANNEL; every service reads it, so a revoked
 * session stops working everywhere at once rather than when its last access token runs out.
 * Entries expire with the longest token. With `cache`, readers reuse "not revoked" answers for a
 * moment and drop them when an announcement arrives (RevocationCache); `close()` then ends its
 * subscription.
 */
export class RevokedSessions {
  private readonly cache?: RevocationCache;

  constructor(private readonly redis: Redis, private readonly ttlSeconds = 3600, options: { cache?: RevocationCacheOptions } = {}) {
    if (options.cache) this.cache = new RevocationCache(redis, options.cache);
  }

  async revoke(sessionId: string): Promise<void> {
    // One transaction: no reader can see the announcement before the entry it announces.
    const results = await this.redis.multi().set(revokedKey(sessionId), '1', 'EX', this.ttlSeconds).publish(REVOCATIONS_CHANNEL, sessionId).exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (!results || failed) throw failed ?? new Error('the revocation was not written (transaction aborted)');
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    const lookUp = async () => (await this.redis.exists(revokedKey(sessionId))) === 1;
    return this.cache ? this.cache.isRevoked(sessionId, lookUp) : lookUp();
  }

  /** Whether "not revoked" answers are being reused now (a cache was asked for and its subscription is live). */
  get cached(): boolean {
    return this.cache?.isLive ?? false;
  }

  async close(): Promise<void> {
    await this.cache?.close();
  }
}

/** Tokens remembered as verified, at most (about 300 bytes each). */
const VERIFIED_TOKENS_MAX = 10_000;

const tokenKey = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Verifies access tokens with identity's public key. A token whose signature was checked once is
 * remembered (by its SHA-256) until it expires, so the second hop of a request and the next
 * requests of a session skip the RSA work; its expiry and its session's revocation are still
 * checked on every call.
 */
export class AccessTokenVerifier {
  private readonly publicKey: KeyObject;
  private readonly verified = new Map<string, { caller: AccountCaller; expiresAtMs: number }>();

  constructor(publicKeyPem: string, private readonly revoked?: RevokedSessions, private readonly now: () => number = Date.now) {
    // Parsed once: jsonwebtoken would otherwise parse the PEM again on every call.
    this.publicKey = createPublicKey(publicKeyPem);
  }

  async verify(token: string | undefined): Promise<AccountCaller> {
    if (!token) throw new DomainError('UNAUTHENTICATED');
    const { caller, expiresAtMs } = this.checkSignature(token);
    if (expiresAtMs <= this.now()) throw new DomainError('SESSION_EXPIRED');
    if (caller.kind === 'user' && this.revoked && (await this.revoked.isRevoked(caller.sessionId))) {
      throw new DomainError('SESSION_EXPIRED');
    }
    return { ...caller };
  }

  /** Whether this token's signature was checked here before (and is remembered): it is an access token, whatever else it is not. */
  remembers(token: string): boolean {
    return this.verified.has(tokenKey(token));
  }

  /** Whether revocation answers are being reused now (see RevokedSessions.cached). */
  get revocationsCached(): boolean {
    return this.revoked?.cached ?? false;
  }

  async close(): Promise<void> {
    await this.revoked?.close();
  }

  private checkSignature(token: string): { caller: AccountCaller; expiresAtMs: number } {
    const key = tokenKey(token);
    const known = this.verified.get(key);
    if (known) return known;
    let claims: AccessTokenClaims & { exp: number; iat: number };
    try {
      claims = jwt.verify(token, this.publicKey, { algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE, clockTimestamp: Math.floor(this.now() / 1000) }) as AccessTokenClaims & { exp: number; iat: number };
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw new DomainError('SESSION_EXPIRED');
      throw new DomainError('UNAUTHENTICATED');
    }
    const entry = {
      caller: { kind: claims.kind, userId: claims.sub, sessionId: claims.sid, email: claims.email, tier: claims.tier, isAdmin: claims.admin, emailVerified: claims.emailVerified === true,
        provedAt: (typeof claims.authAt === 'number' ? claims.authAt : claims.iat) * 1000 },
      expiresAtMs: claims.exp * 1000,
    };
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.forgetExpiredOrOldest();
    this.verified.set(key, entry);
    return entry;
  }

  private forgetExpiredOrOldest(): void {
    const now = this.now();
    for (const [key, entry] of this.verified) if (entry.expiresAtMs <= now) this.verified.delete(key);
    if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
  }
}

/** The ops CLI's short-lived token: operator kind, no user behind it. */
export function signOperatorToken(signer: AccessTokenSigner, operator = process.env.USER ?? 'operator'): string {
  return signer.sign({ sub: `operator:${operator}`, sid: 'operator', email: '', tier: 'none', admin: true, kind: 'operator' }, 120).token;
}


export * from './viewer-tokens.js';
export * from './caller-verifier.js';
