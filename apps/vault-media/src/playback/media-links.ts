import { MEDIA_PLAY_PATH, SIGNED_MEDIA_URL_SECONDS } from '@lv/contracts';
import { OwnerLinkSigner, ViewerLinks, type LinkProblem, type VerifiedBinding } from '@lv/platform/links';

/**
 * Signed playback links, owner bindings and report tokens, all HMAC-SHA256 under MEDIA_LINK_SECRET
 * (the owner-bound link machinery is the platform's OwnerLinkSigner):
 *
 * - A link names the owner, the recording and an expiry (3600 s): altering any of them breaks the
 *   signature; an expired one is refused.
 * - A link alone is not enough: the browser must also present the owner binding (the lv_media
 *   cookie, minted with the link for the signed-in user and session).
 * - A report token lets the media-hashing job (or, a token of its own, the media-transcoding job) report for its recording only.
 */
export type { LinkProblem, VerifiedBinding };

export interface VerifiedLink {
  userId: string;
  recordingId: string;
  expiresAt: number;
}

export class MediaLinkSigner {
  private readonly links: OwnerLinkSigner;
  /** A family viewer's links (purpose 'view'): bound to a view session, not to an owner. */
  readonly viewer: ViewerLinks;
  /** A family viewer's links to a video's poster only (purpose 'view-poster'): a list's thumbnail never opens the recording itself. */
  readonly viewerPoster: ViewerLinks;

  constructor(secret: string, ttlSeconds = SIGNED_MEDIA_URL_SECONDS, now: () => number = Date.now) {
    this.links = new OwnerLinkSigner({ namespace: 'media', secret, secretName: 'MEDIA_LINK_SECRET', purposes: ['play', 'report', 'music', 'view', 'view-poster'], ttlSeconds, now });
    this.viewer = new ViewerLinks(this.links, 'view');
    this.viewerPoster = new ViewerLinks(this.links, 'view-poster');
  }

  /** `/api/media/play/<id>?u=<owner>&exp=<epoch s>&sig=<mac>`, valid for the link lifetime. */
  signLink(userId: string, recordingId: string): { url: string; expiresAt: number } {
    return this.links.signLink('play', `${MEDIA_PLAY_PATH}/${recordingId}`, userId, recordingId);
  }

  /** Checks a link's signature and expiry (not yet who presents it: see verifyBinding). */
  verifyLink(recordingId: string, query: { u?: unknown; exp?: unknown; sig?: unknown }): VerifiedLink | LinkProblem {
    const link = this.links.verifyLink('play', recordingId, query);
    return typeof link === 'string' ? link : { userId: link.userId, recordingId, expiresAt: link.expiresAt };
  }

  signBinding(userId: string, sessionId: string): { value: string; maxAgeSeconds: number } {
    return this.links.signBinding(userId, sessionId);
  }

  verifyBinding(value: string | undefined): VerifiedBinding | 'no-binding' {
    return this.links.verifyBinding(value);
  }

  /** Link and binding together: the link is intact and current, and the one presenting it is its owner. */
  authorise(recordingId: string, query: { u?: unknown; exp?: unknown; sig?: unknown }, binding: string | undefined): VerifiedLink & { sessionId: string } | LinkProblem {
    const grant = this.links.authorise('play', recordingId, query, binding);
    return typeof grant === 'string' ? grant : { userId: grant.userId, recordingId, expiresAt: grant.expiresAt, sessionId: grant.sessionId };
  }

  /** `/api/media/play/music/<id>?u=<member>&exp&sig`: a track of the music library, for one member (a purpose of its own, so a track's link never opens a recording). */
  signMusicLink(userId: string, trackId: string): { url: string; expiresAt: number } {
    return this.links.signLink('music', `${MEDIA_PLAY_PATH}/music/${trackId}`, userId, trackId);
  }

  authoriseMusic(trackId: string, query: { u?: unknown; exp?: unknown; sig?: unknown }, binding: string | undefined): { userId: string; sessionId: string } | LinkProblem {
    const grant = this.links.authorise('music', trackId, query, binding);
    return typeof grant === 'string' ? grant : { userId: grant.userId, sessionId: grant.sessionId };
  }

  reportToken(recordingId: string): string {
    return this.links.mac('report', recordingId);
  }

  verifyReportToken(recordingId: string, token: string): boolean {
    return typeof token === 'string' && OwnerLinkSigner.same(token, this.reportToken(recordingId));
  }

  /** The media-transcoding job's token: a report token of its own, so a hashing job's cannot report a transcode (nor the reverse). */
  transcodeToken(recordingId: string): string {
    return this.links.mac('report', `transcode:${recordingId}`);
  }

  verifyTranscodeToken(recordingId: string, token: string): boolean {
    return typeof token === 'string' && OwnerLinkSigner.same(token, this.transcodeToken(recordingId));
  }
}
