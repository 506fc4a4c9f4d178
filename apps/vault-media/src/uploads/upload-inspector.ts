import { MediaMessages } from '@lv/contracts';
import { StreamInspector } from '@lv/platform/byte-streams';
import { DomainError } from '@lv/platform/errors';
import { matchesFormat } from './media-formats.js';

export interface UploadLimits {
  /** The service's limit (MEDIA_MAX_UPLOAD_BYTES): more is 413. */
  maxBytes: number;
  /** What the browser announced: more is a damaged or dishonest upload. */
  declaredSize: number;
  /** The format the upload announced (its content type); the body must start like it. */
  contentType: string;
}

const WEBM = new Set(['video/webm', 'audio/webm']);
export const notTheFormat = (contentType: string) => new DomainError('UNSUPPORTED_MEDIA', WEBM.has(contentType) ? MediaMessages.notARecording : MediaMessages.notTheAnnouncedFormat);

/**
 * Watches a recording's body on its way to object storage (the platform's StreamInspector): bytes
 * pass only once the first ones are the announced format's magic (a recording: WebM's EBML 1a45dfa3
 * or MP4's 'ftyp' box; Who I Am's files: see media-formats.ts), counted against the limits and hashed (SHA-256) as they pass.
 */
export class UploadInspector extends StreamInspector {
  constructor(limits: UploadLimits, onProgress?: (bytes: number) => void | Promise<void>) {
    super(
      {
        ...limits,
        tooLarge: () => new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(limits.maxBytes)),
        overDeclared: () => new DomainError('UPLOAD_INCOMPLETE'),
      },
      {
        head(head, ended) {
          const verdict = matchesFormat(limits.contentType, head, ended);
          if (verdict === 'more') {
            if (ended) throw notTheFormat(limits.contentType);
            return false;
          }
          if (!verdict) throw notTheFormat(limits.contentType);
          return true;
        },
        progress: onProgress,
      },
    );
  }
}
