import { connect, type Socket } from 'node:net';

/**
 * A whole-object GET that reads the response into one reused buffer, for readers that only look at
 * each byte once (a hash). Node's HTTP client allocates a fresh 64 KiB Buffer for every socket read
 * and runs each through the parser and a 'data' event: for a 200 MiB object that is 3,200 reads,
 * allocations and the garbage collections they cause, and it measured 2-3x the CPU of the SHA-256
 * itself. Here the socket reads (net's `onread`) land in one buffer of `bufferBytes`, so a read
 * takes whatever the kernel holds, up to 1 MiB, and nothing is allocated per piece: the client's
 * CPU falls to about the hash's own.
 *
 * HTTP/1.1 over plain TCP only (the caller signs the URL, SigV4 in its query string), one request
 * per connection (`Connection: close`), a body of known length (Content-Length). Anything else is
 * left to the HTTP client: see WholeObjectReadError's codes.
 */

export interface WholeObjectReadOptions {
  /** Size of the reused read buffer: the largest piece `onPiece` sees. */
  bufferBytes?: number;
  /** The read fails when the storage sends nothing for this long (the job's retry takes over). */
  idleTimeoutMs?: number;
}

export const WHOLE_READ_BUFFER_BYTES = 1024 * 1024;
export const WHOLE_READ_IDLE_TIMEOUT_MS = 60_000;
/** Headers (and an error answer's XML body) larger than this are refused. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * `code` is the S3 error code of an error answer (NoSuchKey, AccessDenied...), or one of:
 * `UnsupportedResponse` (a 200 without Content-Length, e.g. chunked: nothing was passed to
 * `onPiece`, the caller may read it another way), `PrematureClose`, `Timeout`, `BadResponse`.
 */
export class WholeObjectReadError extends Error {
  constructor(readonly code: string, message: string, readonly statusCode?: number) {
    super(message);
    this.name = 'WholeObjectReadError';
  }
}

/**
 * GETs `url` and calls `onPiece` with each piece of the body, in order. A piece is a view into the
 * reused buffer: valid only during the call (hash or copy it, never keep it). Resolves to the body's
 * size once every byte was seen; rejects on an error answer, a connection cut short, an idle
 * timeout, or an exception thrown by `onPiece`.
 */
export function readWholeObject(url: string, onPiece: (piece: Buffer) => void, options: WholeObjectReadOptions = {}): Promise<{ size: number }> {
  const target = new URL(url);
  if (target.protocol !== 'http:') return Promise.reject(new WholeObjectReadError('UnsupportedResponse', `${target.protocol} is read by the HTTP client`));
  const buffer = Buffer.allocUnsafe(options.bufferBytes ?? WHOLE_READ_BUFFER_BYTES);

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(error);
    };
    const succeed = (size: number) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ size });
    };

    // Until the blank line: the status line and headers, copied out of the reused buffer.
    let head: Buffer | null = Buffer.alloc(0);
    let status = 0;
    let length = -1;
    let received = 0;
    // An error answer's body (S3's XML), gathered to read its code.
    let errorBody: Buffer[] | null = null;
    let errorBytes = 0;

    const onHead = (text: string): void => {
      const lines = text.split('\r\n');
      const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
      if (!statusLine) return fail(new WholeObjectReadError('BadResponse', `not an HTTP/1.x answer: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`));
      status = Number(statusLine[1]);
      let chunked = false;
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'content-length' && /^\d+$/.test(value)) length = Number(value);
        else if (name === 'transfer-encoding' && value.toLowerCase() !== 'identity') chunked = true;
      }
      if (status !== 200) {
        errorBody = [];
        return;
      }
      if (chunked || length < 0) fail(new WholeObjectReadError('UnsupportedResponse', 'the answer has no Content-Length', status));
    };

    const onErrorBody = (piece: Buffer, ended: boolean): void => {
      if (errorBody && piece.length) {
        errorBody.push(Buffer.from(piece));
        errorBytes += piece.length;
      }
      if (!ended && errorBytes < MAX_HEAD_BYTES && (length < 0 || errorBytes < length)) return;
      const xml = Buffer.concat(errorBody ?? []).toString('utf8');
      const code = /<Code>([^<]*)<\/Code>/.exec(xml)?.[1] ?? (status === 404 ? 'NotFound' : `HTTP${status}`);
      const message = /<Message>([^<]*)<\/Message>/.exec(xml)?.[1] ?? `the storage answered ${status}`;
      fail(new WholeObjectReadError(code, message, status));
    };

    const onBody = (piece: Buffer): void => {
      if (errorBody) return onErrorBody(piece, false);
      const wanted = Math.min(piece.length, length - received);
      if (wanted > 0) {
        received += wanted;
        onPiece(wanted === piece.length ? piece : piece.subarray(0, wanted));
      }
      if (received === length) succeed(received);
    };

    const socket: Socket = connect({
      // An IPv6 literal comes bracketed in a URL ([::1]); connect takes it bare.
      host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(target.port || 80),
      onread: {
        buffer,
        callback: (bytes: number): boolean => {
          if (settled) return false;
          try {
            let piece: Buffer = buffer.subarray(0, bytes);
            if (head) {
              const joined: Buffer = head.length ? Buffer.concat([head, piece]) : piece;
              const end = joined.indexOf('\r\n\r\n');
              if (end < 0) {
                if (joined.length > MAX_HEAD_BYTES) {
                  fail(new WholeObjectReadError('BadResponse', 'the answer\'s headers are too large'));
                  return false;
                }
                head = Buffer.from(joined);
                return true;
              }
              onHead(joined.toString('latin1', 0, end));
              head = null;
              if (settled) return false;
              // What followed the headers is body: in the reused buffer (headers ended within this read) or in the copy.
              const bodyStart = end + 4;
              piece = joined === piece ? piece.subarray(bodyStart) : joined.subarray(bodyStart);
              if (length === 0) {
                if (errorBody) onErrorBody(piece, true);
                else succeed(0);
                return false;
              }
            }
            if (piece.length) onBody(piece);
          } catch (error) {
            fail(error instanceof Error ? error : new Error(String(error)));
          }
          return !settled;
        },
      },
    });
    socket.setNoDelay(true);
    socket.setTimeout(options.idleTimeoutMs ?? WHOLE_READ_IDLE_TIMEOUT_MS, () => fail(new WholeObjectReadError('Timeout', `no data from the storage for ${options.idleTimeoutMs ?? WHOLE_READ_IDLE_TIMEOUT_MS} ms`)));
    socket.on('error', (error) => fail(error));
    // The storage closed its side (or the connection broke) before the whole answer arrived.
    const closed = () => {
      if (settled) return;
      if (errorBody) return onErrorBody(Buffer.alloc(0), true);
      fail(new WholeObjectReadError('PrematureClose', head ? 'the storage closed the connection before answering' : `the storage closed the connection after ${received} of ${length} bytes`, status || undefined));
    };
    socket.on('end', closed);
    socket.on('close', closed);
    socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUser-Agent: legacy-vault-storage\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`);
  });
}
