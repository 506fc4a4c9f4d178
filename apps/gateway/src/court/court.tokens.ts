import { COURT_FILE_KINDS } from '@lv/contracts';

/** The gateway's HTTP client of court-journal's byte-stream listener (a ByteStreamProxy). */
export const COURT_JOURNAL_HTTP = Symbol('COURT_JOURNAL_HTTP');

/**
 * The owner-binding cookie of court file and bundle links: httpOnly, SameSite=Strict, sent only
 * under /api/court (its own cookie, so a court link and a playback link never share a binding).
 */
export const COURT_BINDING_COOKIE = 'lv_court';
export const COURT_COOKIE_PATH = '/api/court';
/** The header that carries the binding to court-journal's listener. */
export const COURT_BINDING_HEADER = 'x-lv-court-binding';

/**
 * Content types a browser sends for the accepted files (the kinds' own, and the older names some
 * browsers and systems use), plus application/octet-stream for a file the browser has no type for.
 * Only a hint: court-journal decides the kind from the bytes.
 */
export const COURT_BODY_TYPES = [
  ...new Set([
    ...Object.values(COURT_FILE_KINDS).map((kind) => kind.contentType.split(';', 1)[0]!),
    'application/x-pdf', 'image/jpg', 'image/pjpeg', 'application/octet-stream',
  ]),
];

/** Headers of a file or bundle answer that pass to the browser; nothing else of court-journal's does. */
export const COURT_FILE_HEADERS = ['content-type', 'content-length', 'content-disposition', 'x-content-type-options', 'cache-control', 'content-security-policy'];
