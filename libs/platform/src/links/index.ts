import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@lv/contracts';

/**
 * Signed, owner-bound links to bytes a service serves over its own HTTP listener (vault-media's
 * playback, court-journal's previews, downloads and evidence bundles), HMAC-SHA256 under a secret of
 * the service, one sub-key per purpose (so a value minted for one purpose never verifies for another).
 *
 * - A link names the owner, the resource, an expiry and any extra parameters it carries (a
 *   disposition): altering any of them breaks the signature; an expired one is refused.
 * - A link alone is not enough: the browser must also present the owner binding (an httpOnly cookie
 *   minted with the link for the signed-in user and session, passed on by the gateway). A link used
 *   by anyone else, signed in as someone else or not at all, is refused: links are bound to their owner.
 */
export type LinkProblem = 'malformed' | 'bad-signature' | 'expired' | 'no-binding' | 'foreign';

export interface VerifiedOwnerLink {
  userId: string;
  resourceId: string;
  expiresAt: number;
  /** The extra signed parameters, as signed. */
  extra: Record<string, string>;
}

export interface VerifiedBinding {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LINK_PURPOSE = /^[a-z][a-z-]*$/;

export interface OwnerLinkSignerOptions {
  /** What the secret signs for (`legacy-vault/<namespace>/<purpose>` derives each sub-key). */
  namespace: string;
  /** The secret (at least 32 characters), named in the error when it is too short. */
  secret: string;
  secretName: string;
  /** Purposes besides 'bind' (e.g. 'play'; 'file', 'bundle'). */
  purposes: readonly string[];
  ttlSeconds: number;
  now?: () => number;
}

export class OwnerLinkSigner {
  private readonly keys = new Map<string, Buffer>();
  readonly ttlSeconds: number;
  /** The signer's clock (ViewerLinks reads the same one, so a spec's fake clock moves both). */
  readonly now: () => number;

  constructor(options: OwnerLinkSignerOptions) {
    if (options.secret.length < 32) throw new Error(`${options.secretName} must be at least 32 characters`);
    for (const purpose of ['bind', ...options.purposes]) {
      if (!LINK_PURPOSE.test(purpose)) throw new Error(`not a link purpose: ${purpose}`);
      this.keys.set(purpose, createHmac('sha256', options.secret).update(`legacy-vault/${options.namespace}/${purpose}`).digest());
    }
    this.ttlSeconds = options.ttlSeconds;
    this.now = options.now ?? Date.now;
  }

  /** HMAC-SHA256 (base64url) of the parts under the purpose's sub-key. */
  mac(purpose: string, ...parts: string[]): string {
    const key = this.keys.get(purpose);
    if (!key) throw new Error(`unknown link purpose: ${purpose}`);
    return createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
  }

  static same(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }

  /**
   * `<path>?<extra>&u=<owner>&exp=<epoch s>&sig=<mac>`, valid for the link lifetime. The extra
   * parameters are signed after the expiry, in the order given.
   */
  signLink(purpose: string, path: string, userId: string, resourceId: string, extra: Record<string, string> = {}): { url: string; expiresAt: number } {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    const sig = this.mac(purpose, userId, resourceId, String(exp), ...Object.values(extra));
    const query = new URLSearchParams({ ...extra, u: userId, exp: String(exp), sig });
    return { url: `${path}?${query.toString()}`, expiresAt: exp * 1000 };
  }

  /** Checks a link's signature and expiry (not yet who presents it: see verifyBinding). */
  verifyLink(purpose: string, resourceId: string, query: Record<string, unknown>, extraNames: readonly string[] = []): VerifiedOwnerLink | LinkProblem {
    const { u, exp, sig } = query;
    if (typeof u !== 'string' || typeof exp !== 'string' || typeof sig !== 'string' || !isUuid(u) || !isUuid(resourceId) || !/^\d{1,12}$/.test(exp)) return 'malformed';
    const extra: Record<string, string> = {};
    for (const name of extraNames) {
      const value = query[name];
      if (typeof value !== 'string') return 'malformed';
      extra[name] = value;
    }
    if (!OwnerLinkSigner.same(sig, this.mac(purpose, u, resourceId, exp, ...extraNames.map((n) => extra[n]!)))) return 'bad-signature';
    const expiresAt = Number(exp) * 1000;
    if (expiresAt <= this.now()) return 'expired';
    return { userId: u, resourceId, expiresAt, extra };
  }

  /** The owner binding: `<user>.<session>.<exp>.<mac>`, given to the browser as an httpOnly cookie. */
  signBinding(userId: string, sessionId: string): { value: string; maxAgeSeconds: number } {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    return { value: `${userId}.${sessionId}.${exp}.${this.mac('bind', userId, sessionId, String(exp))}`, maxAgeSeconds: this.ttlSeconds };
  }

  verifyBinding(value: string | undefined): VerifiedBinding | 'no-binding' {
    if (!value) return 'no-binding';
    const parts = value.split('.');
    if (parts.length !== 4) return 'no-binding';
    const [userId, sessionId, exp, sig] = parts as [string, string, string, string];
    if (!isUuid(userId) || !SESSION_ID.test(sessionId) || !/^\d{1,12}$/.test(exp)) return 'no-binding';
    if (!OwnerLinkSigner.same(sig, this.mac('bind', userId, sessionId, exp))) return 'no-binding';
    const expiresAt = Number(exp) * 1000;
    if (expiresAt <= this.now()) return 'no-binding';
    return { userId, sessionId, expiresAt };
  }

  /** Link and binding together: the link is intact and current, and the one presenting it is its owner. */
  authorise(purpose: string, resourceId: string, query: Record<string, unknown>, binding: string | undefined, extraNames: readonly string[] = []): (VerifiedOwnerLink & { sessionId: string }) | LinkProblem {
    const link = this.verifyLink(purpose, resourceId, query, extraNames);
    if (typeof link === 'string') return link;
    const bound = this.verifyBinding(binding);
    if (bound === 'no-binding') return 'no-binding';
    if (bound.userId !== link.userId) return 'foreign';
    return { ...link, sessionId: bound.sessionId };
  }
}

export * from './viewer-links.js';
