import { request as httpRequest } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json<T = unknown>(): T;
}

/**
 * An HTTP request with a body sent as the given chunks (optionally paced), answered even when the
 * server replies before the body is finished (413 mid-stream). Without a content-length header the
 * body goes chunked, so the server learns its size only as it streams.
 */
export function sendHttp(url: string, options: { method?: string; headers?: Record<string, string>; chunks?: Buffer[]; delayMs?: number } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    // A connection per request: after a refusal mid-body the old one may still have body bytes to send,
    // and Node's keep-alive agent reusing it could leave the next request unanswered.
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const body = Buffer.concat(parts);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T,>() => JSON.parse(body.toString('utf8')) as T });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      // The server may cut the connection after answering: the answer already resolved the promise.
      reject(err);
    });
    void (async () => {
      for (const chunk of options.chunks ?? []) {
        if (req.destroyed) return;
        const ok = req.write(chunk);
        if (!ok) await new Promise((r) => req.once('drain', r));
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      }
      req.end();
    })().catch(() => undefined);
  });
}
