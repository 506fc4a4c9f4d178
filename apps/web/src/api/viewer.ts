import { bareHttp, type Schema } from './typed-api.js';

// What a family viewer opens, with the viewer token (sent bare, as the other viewer calls: a refused
// viewer token must never touch an owner's session in the same browser). The media and document
// links are bound to the view session: the gateway set the viewer cookie they need with the token.

export type ViewerLetter = Schema<'LetterDto'>;
export type ViewerPortrait = Schema<'PortraitDto'>;
export type ViewerFinals = Schema<'FinalAccessDto'>;
/** A playable link to a recording or a Who I Am / final media item, valid for its view session only. */
export type ViewerMediaLink = Schema<'ViewerMediaLinkDto'>;
/** A court document to preview in the page, valid for its view session only. */
export type ViewerDocumentLink = Schema<'ViewerDocumentLinkDto'>;

export function fetchViewerLetter(id: string, viewerToken: string, signal?: AbortSignal): Promise<ViewerLetter> {
  return bareHttp(viewerToken).get('/api/view/letters/{id}', { path: { id }, signal });
}

export function fetchViewerPortrait(viewerToken: string, signal?: AbortSignal): Promise<ViewerPortrait> {
  return bareHttp(viewerToken).get('/api/view/who-i-am', { signal });
}

export function fetchViewerFinals(viewerToken: string, signal?: AbortSignal): Promise<ViewerFinals> {
  return bareHttp(viewerToken).get('/api/view/if-im-not-there', { signal });
}

export function fetchViewerMediaLink(id: string, viewerToken: string, signal?: AbortSignal): Promise<ViewerMediaLink> {
  return bareHttp(viewerToken).get('/api/view/media/{id}/link', { path: { id }, signal });
}

/** A link to a video's poster only (a list's thumbnail), valid for its view session only. */
export function fetchViewerPosterLink(id: string, viewerToken: string, signal?: AbortSignal): Promise<Schema<'ViewerPosterLinkDto'>> {
  return bareHttp(viewerToken).get('/api/view/media/{id}/poster', { path: { id }, signal });
}

export function fetchViewerDocumentLink(id: string, viewerToken: string, signal?: AbortSignal): Promise<ViewerDocumentLink> {
  return bareHttp(viewerToken).get('/api/view/documents/{id}/link', { path: { id }, signal });
}
