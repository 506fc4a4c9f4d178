import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { readWholeObject, WholeObjectReadError } from './whole-object-read.js';

// A TCP server that answers each connection with the bytes a test scripts, written in the pieces it
// chooses: headers split anywhere, bodies cut short, error answers.

type Script = (socket: Socket, request: string) => void | Promise<void>;

async function serve(script: Script, host = '127.0.0.1'): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((socket) => {
    let text = '';
    socket.on('data', (data) => {
      text += data.toString('latin1');
      if (!text.includes('\r\n\r\n')) return;
      requests.push(text);
      void script(socket, text);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/bucket/some%20key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

async function readAll(url: string, bufferBytes?: number): Promise<{ data: Buffer; size: number; pieces: number; largest: number }> {
  const pieces: Buffer[] = [];
  let largest = 0;
  const { size } = await readWholeObject(url, (piece) => {
    pieces.push(Buffer.from(piece));
    largest = Math.max(largest, piece.length);
  }, { bufferBytes });
  return { data: Buffer.concat(pieces), size, pieces: pieces.length, largest };
}

describe('readWholeObject (a whole-object GET into one reused buffer)', () => {
  it('sends a GET of the signed path and query, and passes every byte of the body in order', async () => {
    const body = randomBytes(3 * 1024 * 1024 + 17);
    const server = await serve(async (socket) => {
      // Headers cut mid-line, the body's first bytes in the headers' last write, then pieces of odd sizes.
      const head = `HTTP/1.1 200 OK\r\nContent-Type: video/webm\r\nContent-Length: ${body.length}\r\nETag: "x"\r\n\r\n`;
      socket.write(head.slice(0, 20));
      await pause();
      socket.write(Buffer.concat([Buffer.from(head.slice(20), 'latin1'), body.subarray(0, 1000)]));
      await pause();
      for (let at = 1000; at < body.length; at += 777_777) socket.write(body.subarray(at, Math.min(body.length, at + 777_777)));
      socket.end();
    });
    try {
      const read = await readAll(server.url, 256 * 1024);
      expect(read.size).toBe(body.length);
      expect(createHash('sha256').update(read.data).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
      // Pieces are views of the reused buffer: never larger than it.
      expect(read.largest).toBeLessThanOrEqual(256 * 1024);
      expect(server.requests[0]).toMatch(/^GET \/bucket\/some%20key\?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc HTTP\/1\.1\r\n/);
      expect(server.requests[0]).toContain(`\r\nHost: 127.0.0.1:${new URL(server.url).port}\r\n`);
    } finally {
      await server.close();
    }
  });

  it('resolves an empty object, and ignores bytes after the declared length; reaches an IPv6 endpoint', async () => {
    const empty = await serve((socket) => void socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), '::1');
    const extra = await serve((socket) => void socket.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello and more'));
    try {
      expect(await readAll(empty.url)).toMatchObject({ size: 0, pieces: 0 });
      const read = await readAll(extra.url);
      expect(read.data.toString()).toBe('hello');
    } finally {
      await empty.close();
      await extra.close();
    }
  });

  it('rejects with the S3 error code of an error answer (NoSuchKey, AccessDenied)', async () => {
    const xml = (code: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>The specified key does not exist.</Message></Error>`;
    const missing = await serve((socket) => {
      const text = xml('NoSuchKey');
      socket.write(`HTTP/1.1 404 Not Found\r\nContent-Type: application/xml\r\nContent-Length: ${text.length}\r\n\r\n${text.slice(0, 30)}`);
      setTimeout(() => socket.write(text.slice(30)), 5);
    });
    const denied = await serve((socket) => void socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n${xml('AccessDenied')}`));
    const bare = await serve((socket) => void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'));
    try {
      await expect(readAll(missing.url)).rejects.toMatchObject({ code: 'NoSuchKey', statusCode: 404, message: 'The specified key does not exist.' });
      await expect(readAll(denied.url)).rejects.toMatchObject({ code: 'AccessDenied', statusCode: 403 });
      await expect(readAll(bare.url)).rejects.toMatchObject({ code: 'NotFound', statusCode: 404 });
    } finally {
      await missing.close();
      await denied.close();
      await bare.close();
    }
  });

  it('rejects a body cut short, and a connection closed before any answer', async () => {
    const cut = await serve((socket) => void socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this'));
    const silent = await serve((socket) => void socket.end());
    try {
      await expect(readAll(cut.url)).rejects.toMatchObject({ code: 'PrematureClose', message: 'the storage closed the connection after 9 of 100 bytes' });
      await expect(readAll(silent.url)).rejects.toMatchObject({ code: 'PrematureClose', message: 'the storage closed the connection before answering' });
    } finally {
      await cut.close();
      await silent.close();
    }
  });

  it('leaves a chunked answer, or https, to the HTTP client (UnsupportedResponse, nothing passed on)', async () => {
    const chunked = await serve((socket) => void socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'));
    try {
      const seen: Buffer[] = [];
      await expect(readWholeObject(chunked.url, (piece) => seen.push(piece))).rejects.toMatchObject({ code: 'UnsupportedResponse' });
      expect(seen).toEqual([]);
      await expect(readWholeObject('https://127.0.0.1:1/b/k', () => undefined)).rejects.toBeInstanceOf(WholeObjectReadError);
    } finally {
      await chunked.close();
    }
  });

  it('fails when the storage stalls, and when the reader throws', async () => {
    const stalled = await serve((socket) => void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    const fine = await serve((socket) => void socket.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'));
    try {
      await expect(readWholeObject(stalled.url, () => undefined, { idleTimeoutMs: 100 })).rejects.toMatchObject({ code: 'Timeout' });
      await expect(readWholeObject(fine.url, () => { throw new Error('disk full'); })).rejects.toThrow('disk full');
    } finally {
      await stalled.close();
      await fine.close();
    }
  });
});
