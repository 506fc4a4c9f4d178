import { AccessMessages, extensionOf, isUuid, MediaMessages, VIEW_MEDIA_PATH, ViewerLinkMessages, type MediaCollection, type ViewerMediaGrant } from '@lv/contracts';
import type { Caller, ViewerCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { authoriseViewerLink, type ViewerLinks, type ViewerTokenCheck } from '@lv/platform/links';
import type { ObjectStorage } from '@lv/platform/storage';
import type { RecordingRow, Recordings } from '../recordings/recordings.repository.js';
import { imageWithoutMetadata } from './image-metadata.js';
import { playableOf } from './owner-playback.js';
import { missingAsNotFound, serveBytes, serveObject, type PlaybackResponse } from './serve-object.js';

/** The section of the vault each collection is read under: the scope a viewer's key must hold. */
const SECTION_OF: Record<MediaCollection, ViewerMediaGrant['section']> = {
  vault: 'timeline',
  'who-i-am': 'who-i-am',
  'who-i-am-photo': 'who-i-am',
  'final-messages': 'if-im-not-there',
};

/** Whether the owner's final messages may be opened now (a preview allowed, or the vault released): access-keys decides, asked with the viewer's token. */
export type FinalMessagesOpen = (viewerToken: string, requestId: string) => Promise<boolean>;

export interface ViewerPlaybackDeps {
  recordings: Recordings;
  storage: Pick<ObjectStorage, 'getObject' | 'getRange'>;
  links: ViewerLinks;
  /** Links that open a video's poster only (MediaLinkSigner.viewerPoster). */
  posterLinks: ViewerLinks;
  /** ViewerTokenVerifier with RevokedViewSessions: undefined when no viewer key is configured (every viewer link is refused). */
  tokens: ViewerTokenCheck | undefined;
  finalMessagesOpen: FinalMessagesOpen;
}

const notFound = () => new DomainError('NOT_FOUND', MediaMessages.notFound);

/** RFC 5987 `filename*` value: UTF-8, percent-encoded (quotes and parentheses too). */
const encodedFileName = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A family viewer's playback of what their key allows: recordings (timeline), the Who I Am photo and
 * personal media (who-i-am), final messages (if-im-not-there, and only while access-keys says they
 * are open). The same checks run when the link is made (over NATS, with the viewer's token) and on
 * every byte request (over HTTP, with the token from the lv_view cookie), so a revoked or expired key,
 * a section taken away or a preview switched off stops playback at the next Range request.
 * Another vault's item, or a malformed id, is "not found": ids reveal nothing.
 */
export class ViewerPlayback {
  constructor(private readonly deps: ViewerPlaybackDeps) {}

  /** GET /api/view/media/:id/link: a link for the item (inline), and a download link when the key allows downloads. */
  async link(caller: Caller, id: string, viewerToken: string | undefined, requestId: string): Promise<ViewerMediaGrant> {
    // The declaration admits viewers only; an owner plays through playbackLink, never a view-session link.
    if (caller.kind !== 'viewer') throw new DomainError('FORBIDDEN');
    const viewer = caller;
    const row = await this.readable(viewer, id, viewerToken, requestId);
    const path = `${VIEW_MEDIA_PATH}/${row.id}`;
    const inline = this.deps.links.sign(path, viewer.viewSessionId, row.id);
    const download = viewer.mayDownload ? this.deps.links.sign(path, viewer.viewSessionId, row.id, true).url : null;
    return {
      url: inline.url, expiresAt: inline.expiresAt, contentType: row.rendition_content_type ?? row.content_type, mediaKind: row.type, title: row.collection === 'who-i-am-photo' ? 'Profile photo' : row.title,
      downloadUrl: download, section: SECTION_OF[row.collection],
    };
  }

  /**
   * GET /api/view/media/:id/poster: a link to a video's poster only (a list's thumbnail), under the
   * same checks as the item's own link. It opens nothing else, so the list shows posters without
   * opening the recordings. "Not found" while the video has no poster (pending, failed).
   */
  async posterLink(caller: Caller, id: string, viewerToken: string | undefined, requestId: string): Promise<ViewerMediaGrant> {
    if (caller.kind !== 'viewer') throw new DomainError('FORBIDDEN');
    const row = await this.readable(caller, id, viewerToken, requestId);
    if (!row.poster_key) throw notFound();
    const link = this.deps.posterLinks.sign(`${VIEW_MEDIA_PATH}/${row.id}`, caller.viewSessionId, row.id);
    return { url: `${link.url}&poster=1`, expiresAt: link.expiresAt, contentType: 'image/jpeg', mediaKind: 'image', title: row.title, downloadUrl: null, section: SECTION_OF[row.collection] };
  }

  /** GET /view/media/:id on the byte listener: the token (cookie), the link, then the item as for a link; 206 for a Range. */
  async open(id: string, query: Record<string, unknown>, viewerToken: string | undefined, rangeHeader: string | undefined, head: boolean, requestId: string): Promise<PlaybackResponse> {
    if (!isUuid(id)) throw new DomainError('FORBIDDEN', ViewerLinkMessages.linkInvalid);
    // `poster=1` is a poster link (a purpose of its own): it verifies only as one, and serves only the poster.
    const posterOnly = query.poster === '1';
    const { viewer, link } = await authoriseViewerLink(this.deps.tokens, posterOnly ? this.deps.posterLinks : this.deps.links, id, query, viewerToken, ViewerLinkMessages);
    const row = await this.readable(viewer, link.itemId, viewerToken, requestId);
    if (posterOnly) return serveObject(this.deps.storage, playableOf(row, { poster: '1' }), rangeHeader, head);
    const stored = { bucket: row.bucket, objectKey: row.object_key, contentType: row.content_type, size: Number(row.size) };
    if (link.download) {
      // A download (only for a key the owner allowed downloads) is the original, under its file name.
      const response = await serveObject(this.deps.storage, stored, rangeHeader, head);
      response.headers['content-disposition'] = `attachment; filename*=UTF-8''${encodedFileName(fileNameOf(row))}`;
      return response;
    }
    if (row.type === 'image') {
      // A picture shown tells nothing more than the picture: no GPS position of the house, no phone model.
      const original = await this.deps.storage.getObject(row.bucket, row.object_key).catch(missingAsNotFound);
      return serveBytes(await imageWithoutMetadata(original, row.content_type), row.content_type, rangeHeader, head);
    }
    // Inline: the playback copy once made (the original while there is none, or when asked), as the owner's links.
    return serveObject(this.deps.storage, playableOf(row, query), rangeHeader, head);
  }

  /** The viewer's vault's item, if its section is one the key holds (and, for a final message, open now). */
  private async readable(viewer: ViewerCaller, id: string, viewerToken: string | undefined, requestId: string): Promise<RecordingRow> {
    if (!isUuid(id)) throw notFound();
    const row = await this.deps.recordings.find(id.toLowerCase());
    if (!row || row.user_id !== viewer.vaultOwnerId) throw notFound();
    const section = SECTION_OF[row.collection];
    if (!viewer.scopes.includes(section)) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
    if (section === 'if-im-not-there' && (!viewerToken || !(await this.deps.finalMessagesOpen(viewerToken, requestId)))) {
      throw new DomainError('FORBIDDEN', ViewerLinkMessages.finalMessageClosed);
    }
    return row;
  }
}

/** The original's file name: the stored object's (the original app's `{type}_{timestamp}.{ext}`), or one made from the title. */
function fileNameOf(row: RecordingRow): string {
  const stored = row.object_key.split('/').pop();
  return stored && stored.includes('.') ? stored : `${row.title || 'media'}.${extensionOf(row.content_type)}`;
}
