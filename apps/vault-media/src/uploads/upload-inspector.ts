import { createHash, type Hash } from 'node:crypto';
import { hasWebmHeader, MediaMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

export interface UploadLimits {
  /** The service's limit (MEDIA_MAX_UPLOAD_BYTES): more is 413. */
  maxBytes: number;
  /** What the browser announced: more is a damaged or dishonest upload. */
  declaredSize: number;
}

/**
 * Watches an upload body on its way to object storage, without ever holding it: it lets bytes
 * through only once the first four are WebM's EBML magic (1a45dfa3), so nothing reaches storage
 * before the format is known; counts them against the limits; and hashes them (SHA-256) as they pass.
 * Errors are thrown into the stream, which makes the storage upload abort and remove its parts.
 */
export class UploadInspector {
  private readonly hash: Hash = createHash('sha256');
  private received = 0;
  private headerChecked = false;

  constructor(private readonly limits: UploadLimits, private readonly onProgress?: (bytes: number) => void | Promise<void>) {}

  get bytes(): number {
    return this.received;
  }

  /** The SHA-256 (hex) of everything that passed; call once the stream is done. */
  digest(): string {
    return this.hash.digest('hex');
  }

  async *pipe(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
    let head: Buffer[] = [];
    let headBytes = 0;
    for await (const raw of source) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      if (chunk.length === 0) continue;
      this.count(chunk.length);
      this.hash.update(chunk);
      if (!this.headerChecked) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes < 4) continue;
        const first = Buffer.concat(head);
        head = [];
        if (!hasWebmHeader(first)) throw new DomainError('UNSUPPORTED_MEDIA', MediaMessages.notWebm);
        this.headerChecked = true;
        await this.onProgress?.(this.received);
        yield first;
        continue;
      }
      await this.onProgress?.(this.received);
      yield chunk;
    }
    if (!this.headerChecked) throw new DomainError('UNSUPPORTED_MEDIA', MediaMessages.notWebm);
  }

  private count(length: number): void {
    this.received += length;
    if (this.received > this.limits.maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE', MediaMessages.tooLarge(this.limits.maxBytes));
    if (this.received > this.limits.declaredSize) throw new DomainError('UPLOAD_INCOMPLETE');
  }
}
