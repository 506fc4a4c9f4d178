import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEDIA_PLAY_PATH, SIGNED_MEDIA_URL_SECONDS } from '@lv/contracts';

/**
 * Signed playback links, owner bindings and report tokens, all HMAC-SHA256 under MEDIA_LINK_SECRET
 * (one sub-key per purpose, so a value minted for one purpose never verifies for another).
 *
 * - A link names the owner, the recording and an expiry (3600 s): altering any of them breaks the
 *   signature; an expired one is refused.
 * - A link alone is not enough: the browser must also present the owner binding (the lv_media
 *   cookie, minted with the link for the signed-in user and session). A link used by anyone else,
 *   signed in as someone else or not at all, is refused: links are bound to their owner.
 * - A report token lets the media-hashing job report for its recording only.
 */
export type LinkProblem = 'malformed' | 'bad-signature' | 'expired' | 'no-binding' | 'foreign';

export interface VerifiedLink {
  userId: string;
  recordingId: string;
  expiresAt: number;
}

export interface VerifiedBinding {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class MediaLinkSigner {
  private readonly keys: Record<'play' | 'bind' | 'report', Buffer>;

  constructor(secret: string, private readonly ttlSeconds = SIGNED_MEDIA_URL_SECONDS, private readonly now: () => number = Date.now) {
    if (secret.length < 32) throw new Error('MEDIA_LINK_SECRET must be at least 32 characters');
    const derive = (purpose: string) => createHmac('sha256', secret).update(`legacy-vault/media/${purpose}`).digest();
    this.keys = { play: derive('play'), bind: derive('bind'), report: derive('report') };
  }

  private mac(purpose: keyof MediaLinkSigner['keys'], ...parts: string[]): string {
    return createHmac('sha256', this.keys[purpose]).update(parts.join('\n')).digest('base64url');
  }

  private static same(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }

  /** `/api/media/play/<id>?u=<owner>&exp=<epoch s>&sig=<mac>`, valid for the link lifetime. */
  signLink(userId: string, recordingId: string): { url: string; expiresAt: number } {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    const sig = this.mac('play', userId, recordingId, String(exp));
    const query = new URLSearchParams({ u: userId, exp: String(exp), sig });
    return { url: `${MEDIA_PLAY_PATH}/${recordingId}?${query.toString()}`, expiresAt: exp * 1000 };
  }

  /** Checks a link's signature and expiry (not yet who presents it: see verifyBinding). */
  verifyLink(recordingId: string, query: { u?: unknown; exp?: unknown; sig?: unknown }): VerifiedLink | LinkProblem {
    const { u, exp, sig } = query;
    if (typeof u !== 'string' || typeof exp !== 'string' || typeof sig !== 'string' || !UUID.test(u) || !UUID.test(recordingId) || !/^\d{1,12}$/.test(exp)) return 'malformed';
    if (!MediaLinkSigner.same(sig, this.mac('play', u, recordingId, exp))) return 'bad-signature';
    const expiresAt = Number(exp) * 1000;
    if (expiresAt <= this.now()) return 'expired';
    return { userId: u, recordingId, expiresAt };
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
    if (!UUID.test(userId) || !SESSION_ID.test(sessionId) || !/^\d{1,12}$/.test(exp)) return 'no-binding';
    if (!MediaLinkSigner.same(sig, this.mac('bind', userId, sessionId, exp))) return 'no-binding';
    const expiresAt = Number(exp) * 1000;
    if (expiresAt <= this.now()) return 'no-binding';
    return { userId, sessionId, expiresAt };
  }

  /** Link and binding together: the link is intact and current, and the one presenting it is its owner. */
  authorise(recordingId: string, query: { u?: unknown; exp?: unknown; sig?: unknown }, binding: string | undefined): VerifiedLink & { sessionId: string } | LinkProblem {
    const link = this.verifyLink(recordingId, query);
    if (typeof link === 'string') return link;
    const bound = this.verifyBinding(binding);
    if (bound === 'no-binding') return 'no-binding';
    if (bound.userId !== link.userId) return 'foreign';
    return { ...link, sessionId: bound.sessionId };
  }

  reportToken(recordingId: string): string {
    return this.mac('report', recordingId);
  }

  verifyReportToken(recordingId: string, token: string): boolean {
    return typeof token === 'string' && MediaLinkSigner.same(token, this.reportToken(recordingId));
  }
}
