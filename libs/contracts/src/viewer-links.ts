// A family viewer's links to bytes: recordings and Who I Am media (vault-media), court documents
// (court-journal). Each link is signed for one item and one view session, expires, and is honoured
// only with the viewer's current token in the lv_view cookie (see README, "Viewer links").

/**
 * The viewer's httpOnly cookie: the current viewer token, set by the gateway on POST /api/view/redeem
 * and /api/view/token (Max-Age = the token's remaining life), cleared on POST /api/view/close. It is
 * sent only under /api/view, so no owner route ever sees it.
 */
export const VIEW_TOKEN_COOKIE = 'lv_view';
export const VIEW_COOKIE_PATH = '/api/view';
/** Where the gateway serves a viewer's bytes (same-origin paths for the SPA's media elements). */
export const VIEW_MEDIA_PATH = '/api/view/media';
export const VIEW_DOCUMENTS_PATH = '/api/view/documents';
/** The header that carries the cookie's viewer token from the gateway to a service's byte listener. */
export const VIEW_TOKEN_HEADER = 'x-lv-view-token';

/** What kind of element plays a viewer's media item. */
export const VIEWER_MEDIA_KINDS = ['video', 'audio', 'image'] as const;

export const ViewerLinkMessages = {
  /** No lv_view cookie, or one that is not a viewer token: a link copied to another browser. */
  noViewer: 'This link only works in the browser that opened the vault with its access key.',
  /** The link was made for another view session than the cookie's. */
  otherSession: 'This link belongs to another view of the vault.',
  /** An altered, expired or malformed link. */
  linkInvalid: 'This link is not valid, or it has expired. Open the item again from the vault.',
  /** The key (or its view session) was revoked, or it expired. */
  accessEnded: 'This access has expired or is invalid. Please request a new link.',
  /** A download link for a key that only allows viewing. */
  downloadNotAllowed: 'The owner has not allowed downloads with this access key.',
  /** A final message while the owner allows no preview and the vault is not released. */
  finalMessageClosed: 'Final messages can be opened once the vault is released.',
} as const;
