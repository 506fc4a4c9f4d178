import { hasWebmHeader, MediaMessages } from '@lv/contracts';
import { StreamInspector } from '@lv/platform/byte-streams';
import { DomainError } from '@lv/platform/errors';

export interface UploadLimits {
  /** The service's limit (MEDIA_MAX_UPLOAD_BYTES): more is 413. */
  maxBytes: number;
  /** What the browser announced: more is a damaged or dishonest upload. */
  declaredSize: number;
}

const notWebm = () => new DomainError('UNSUPPORTED_MEDIA', MediaMessages.notWebm);

/**
 * Watches a recording's body on its way to object storage (the platform's StreamInspector): bytes
 * pass only once the first four are WebM's EBML magic (1a45dfa3), counted against the limits and
 * hashed (SHA-256) as they pass.
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
          if (head.length < 4) {
            if (ended) throw notWebm();
            return false;
          }
          if (!hasWebmHeader(head)) throw notWebm();
          return true;
        },
        progress: onProgress,
      },
    );
  }
}
