import { createHash, type Hash } from 'node:crypto';

export interface StreamLimits {
  /** The service's limit: one byte more and `tooLarge()` is thrown, while the body streams. */
  maxBytes: number;
  /** What the client announced: more is a damaged or dishonest upload (`overDeclared()`). */
  declaredSize: number;
  tooLarge(): Error;
  overDeclared(): Error;
}

export interface StreamChecks {
  /**
   * Judges the first bytes before any of them is let through: true accepts them, false asks for
   * more, a throw refuses the body. Called with `ended` when the body ended first (it must then
   * accept or throw). Without it the bytes pass at once.
   */
  head?(head: Buffer, ended: boolean): boolean;
  /** Sees every chunk once the head is accepted (the head included); a throw refuses the body. */
  chunk?(chunk: Buffer): void;
  /** Runs when the body ended, before the last bytes are let through; a throw refuses the body. */
  end?(bytes: number): void;
  /** Progress after each chunk let through (a heartbeat). */
  progress?(bytes: number): void | Promise<void>;
}

/**
 * Watches an upload body on its way to object storage, without ever holding more than its head: it
 * counts the bytes against the limits, hashes them (SHA-256) as they pass, and lets them through only
 * once the head is judged, so nothing reaches storage before the format is known. Errors are thrown
 * into the stream, which makes the storage upload abort and remove its parts.
 */
export class StreamInspector {
  private readonly hash: Hash = createHash('sha256');
  private received = 0;
  private headAccepted: boolean;

  constructor(private readonly limits: StreamLimits, private readonly checks: StreamChecks = {}) {
    this.headAccepted = !checks.head;
  }

  get bytes(): number {
    return this.received;
  }

  /** The SHA-256 (hex) of everything that passed; call once the stream is done. */
  digest(): string {
    return this.hash.digest('hex');
  }

  async *pipe(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
    let head: Buffer[] = [];
    for await (const raw of source) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      if (chunk.length === 0) continue;
      this.count(chunk.length);
      this.hash.update(chunk);
      if (!this.headAccepted) {
        head.push(chunk);
        const first = Buffer.concat(head);
        if (!this.checks.head!(first, false)) {
          head = [first];
          continue;
        }
        head = [];
        this.headAccepted = true;
        yield* this.pass(first);
        continue;
      }
      yield* this.pass(chunk);
    }
    if (!this.headAccepted) {
      const first = Buffer.concat(head);
      if (!this.checks.head!(first, true)) throw new Error('a head check must accept or refuse an ended body');
      this.headAccepted = true;
      this.checks.chunk?.(first);
      this.checks.end?.(this.received);
      if (first.length) yield first;
      return;
    }
    this.checks.end?.(this.received);
  }

  private async *pass(chunk: Buffer): AsyncGenerator<Buffer> {
    this.checks.chunk?.(chunk);
    await this.checks.progress?.(this.received);
    yield chunk;
  }

  private count(length: number): void {
    this.received += length;
    if (this.received > this.limits.maxBytes) throw this.limits.tooLarge();
    if (this.received > this.limits.declaredSize) throw this.limits.overDeclared();
  }
}
