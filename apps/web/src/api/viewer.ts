import type { FinalAccess, Letter, Portrait } from '@lv/contracts';
import { sendRequest } from './client.js';

// What a family viewer opens, with the viewer token (sent bare, as the other viewer calls: a refused
// viewer token must never touch an owner's session in the same browser). The media and document
// links are bound to the view session: the gateway set the viewer cookie they need with the token.

const fetchImpl = (input: string, init?: RequestInit) => globalThis.fetch(input, init);

/** A playable link to a recording or a Who I Am / final media item, valid for its view session only. */
export interface ViewerMediaLink {
  url: string;
  expiresAt: number;
  contentType: string;
  mediaKind: 'video' | 'audio' | 'image';
  title: string;
  /** Only when the owner allows this key to download originals. */
  downloadUrl: string | null;
}

/** A court document to preview in the page, valid for its view session only. */
export interface ViewerDocumentLink {
  url: string;
  expiresAt: number;
  contentType: string;
  fileName: string;
  downloadUrl: string | null;
}

export function fetchViewerLetter(id: string, viewerToken: string, signal?: AbortSignal): Promise<Letter> {
  return sendRequest(fetchImpl, `/api/view/letters/${encodeURIComponent(id)}`, { token: viewerToken, signal });
}

export function fetchViewerPortrait(viewerToken: string, signal?: AbortSignal): Promise<Portrait> {
  return sendRequest(fetchImpl, '/api/view/who-i-am', { token: viewerToken, signal });
}

export function fetchViewerFinals(viewerToken: string, signal?: AbortSignal): Promise<FinalAccess> {
  return sendRequest(fetchImpl, '/api/view/if-im-not-there', { token: viewerToken, signal });
}

export function fetchViewerMediaLink(id: string, viewerToken: string, signal?: AbortSignal): Promise<ViewerMediaLink> {
  return sendRequest(fetchImpl, `/api/view/media/${encodeURIComponent(id)}/link`, { token: viewerToken, signal });
}

/** A link to a video's poster only (a list's thumbnail), valid for its view session only. */
export function fetchViewerPosterLink(id: string, viewerToken: string, signal?: AbortSignal): Promise<{ url: string; expiresAt: number }> {
  return sendRequest(fetchImpl, `/api/view/media/${encodeURIComponent(id)}/poster`, { token: viewerToken, signal });
}

export function fetchViewerDocumentLink(id: string, viewerToken: string, signal?: AbortSignal): Promise<ViewerDocumentLink> {
  return sendRequest(fetchImpl, `/api/view/documents/${encodeURIComponent(id)}/link`, { token: viewerToken, signal });
}
