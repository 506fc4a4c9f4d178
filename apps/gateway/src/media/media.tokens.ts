import { MEDIA_CONTENT_TYPES, UPLOADED_CONTENT_TYPES } from '@lv/contracts';

/** The gateway's HTTP client of vault-media's byte-stream listener (a ByteStreamProxy). */
export const VAULT_MEDIA_HTTP = Symbol('VAULT_MEDIA_HTTP');

/** Content types of upload bodies (recordings, Who I Am's files): parsed by nobody, streamed by the upload handler. */
export const MEDIA_BODY_TYPES = [...new Set([...Object.values(MEDIA_CONTENT_TYPES), ...Object.values(UPLOADED_CONTENT_TYPES).flat()]), 'application/octet-stream'];

/** The body type of the tus protocol's PATCH (a piece of a resumable upload). */
export const RESUMABLE_BODY_TYPE = 'application/offset+octet-stream';

/** Headers of a playback answer that the browser needs; nothing else of vault-media's passes. */
export const PLAYBACK_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'cache-control', 'content-disposition', 'x-content-type-options'];
