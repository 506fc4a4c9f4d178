import { isUuid } from '@lv/contracts';
import type { ViewerCaller } from '../auth/caller.js';
import { DomainError } from '../errors/index.js';
import { OwnerLinkSigner, type LinkProblem } from './index.js';

/**
 * Links a family viewer follows to bytes (a recording, a Who I Am medium, a court document), signed
 * under the owning service's link secret with a purpose of their own ('view'), so no owner link ever
 * verifies as a viewer's or the reverse.
 *
 * - A link names the item, the view session and an expiry (the signer's lifetime, 3600 s at most),
 *   and whether it is a download (`dl=1`): altering any of them breaks the signature.
 * - A link alone is not enough: it is honoured only for the viewer token presented with it (the
 *   lv_view cookie), whose session must be the link's. The token itself (signature, expiry,
 *   revocation) is checked by the caller before this, on every request, so a revoked key stops at the
 *   next Range request, whatever links it was given.
 * - A download link is honoured only while the token says the key allows downloads.
 */
export type ViewerLinkProblem = Exclude<LinkProblem, 'no-binding' | 'foreign'> | 'other-session' | 'download-not-allowed';

export interface VerifiedViewerLink {
  itemId: string;
  viewSessionId: string;
  expiresAt: number;
  download: boolean;
}

const EXP = /^\d{1,12}$/;

export class ViewerLinks {
  constructor(private readonly signer: OwnerLinkSigner, private readonly purpose = 'view') {}

  /** `<path>?s=<view session>&exp=<epoch s>[&dl=1]&sig=<mac>`, valid for the signer's link lifetime. */
  sign(path: string, viewSessionId: string, itemId: string, download = false): { url: string; expiresAt: number } {
    const exp = Math.floor(this.signer.now() / 1000) + this.signer.ttlSeconds;
    const sig = this.signer.mac(this.purpose, viewSessionId, itemId, String(exp), download ? '1' : '0');
    const query = new URLSearchParams({ s: viewSessionId, exp: String(exp), ...(download ? { dl: '1' } : {}), sig });
    return { url: `${path}?${query.toString()}`, expiresAt: exp * 1000 };
  }

  /**
   * The link as presented by this viewer (already verified): intact, current, of the viewer's own
   * session, and a download only if the viewer's key allows downloads.
   */
  verify(itemId: string, query: Record<string, unknown>, viewer: Pick<ViewerCaller, 'viewSessionId' | 'mayDownload'>): VerifiedViewerLink | ViewerLinkProblem {
    const { s, exp, sig, dl } = query;
    if (typeof s !== 'string' || typeof exp !== 'string' || typeof sig !== 'string' || !isUuid(s) || !isUuid(itemId) || !EXP.test(exp)) return 'malformed';
    if (dl !== undefined && dl !== '1') return 'malformed';
    const download = dl === '1';
    if (!OwnerLinkSigner.same(sig, this.signer.mac(this.purpose, s, itemId, exp, download ? '1' : '0'))) return 'bad-signature';
    const expiresAt = Number(exp) * 1000;
    if (expiresAt <= this.signer.now()) return 'expired';
    if (s !== viewer.viewSessionId) return 'other-session';
    if (download && !viewer.mayDownload) return 'download-not-allowed';
    return { itemId: itemId.toLowerCase(), viewSessionId: s, expiresAt, download };
  }
}

/** Verifies the viewer token a byte listener received (ViewerTokenVerifier: signature, audience, expiry, revocation). */
export interface ViewerTokenCheck {
  verify(token: string | undefined): Promise<ViewerCaller>;
}

/** The words a viewer reads for each refusal of a link (the product's, e.g. contracts' ViewerLinkMessages). */
export interface ViewerLinkRefusals {
  /** No token, or one that is not a viewer token: a link copied to another browser. */
  noViewer: string;
  /** The token ran out, or its key or view session was revoked. */
  accessEnded: string;
  /** The link was made for another view session than the token's. */
  otherSession: string;
  /** A download link for a key that allows viewing only. */
  downloadNotAllowed: string;
  /** An altered, expired or malformed link. */
  linkInvalid: string;
}

/**
 * A byte listener's whole check of a viewer's link: the token from the cookie (absent: a link copied
 * to another browser), then the link for that token. Every refusal is FORBIDDEN with words that say
 * why (`refusals`), never a 401: a media element cannot sign in, and the page must show what happened.
 */
export async function authoriseViewerLink(
  tokens: ViewerTokenCheck | undefined, links: ViewerLinks, itemId: string, query: Record<string, unknown>, token: string | undefined, refusals: ViewerLinkRefusals,
): Promise<{ viewer: ViewerCaller; link: VerifiedViewerLink }> {
  if (!tokens || !token) throw new DomainError('FORBIDDEN', refusals.noViewer);
  let viewer: ViewerCaller;
  try {
    viewer = await tokens.verify(token);
  } catch (error) {
    // SESSION_EXPIRED: the token ran out, the key expired (tokens never outlive it) or was revoked.
    if (error instanceof DomainError && error.code === 'SESSION_EXPIRED') throw new DomainError('FORBIDDEN', refusals.accessEnded);
    throw new DomainError('FORBIDDEN', refusals.noViewer);
  }
  const link = links.verify(itemId, query, viewer);
  if (link === 'other-session') throw new DomainError('FORBIDDEN', refusals.otherSession);
  if (link === 'download-not-allowed') throw new DomainError('FORBIDDEN', refusals.downloadNotAllowed);
  if (typeof link === 'string') throw new DomainError('FORBIDDEN', refusals.linkInvalid);
  return { viewer, link };
}
