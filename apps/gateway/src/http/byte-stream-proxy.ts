import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { baseContentTypeOf } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

/** The base type of a Content-Type header (no parameters, lower case); '' when there is none. */
export function baseContentType(value: string | string[] | undefined): string {
  const header = Array.isArray(value) ? value[0] : value;
  return baseContentTypeOf(String(header ?? ''));
}

/**
 * Lets upload bodies of these types through Fastify unread: no parser buffers them (Nest's body
 * parsers would, with `parseAs: 'buffer'`), so a handler can stream `request.raw` on to the service.
 * The edge guard (cross-site.guard.ts) lets a non-JSON body reach only the byte-stream routes, and
 * each of those checks the type against its own list, so no other route ever sees such a body.
 */
export function registerByteStreamBodyParsers(fastify: FastifyInstance, types: readonly string[]): void {
  const unique = [...new Set(types.map((t) => baseContentType(t)))];
  // Fastify parses text/plain itself (into a string): a .txt court document must stream like the rest.
  if (unique.includes('text/plain') && fastify.hasContentTypeParser('text/plain')) fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser(unique, (_request, _payload, done) => done(null));
}

/** What a tus request says that the service must hear (the rest of the browser's headers stay here). */
const TUS_REQUEST_HEADERS = ['tus-resumable', 'upload-offset', 'upload-length', 'upload-metadata', 'upload-defer-length'];
/** What a tus answer says that the browser must hear. */
const TUS_ANSWER_HEADERS = ['tus-resumable', 'tus-version', 'tus-extension', 'upload-offset', 'upload-length', 'upload-expires', 'cache-control'];

/** Largest answer read from a service for an upload, or for a refused read (a JSON body: the saved item or an ErrorBody). */
const MAX_UPLOAD_ANSWER_BYTES = 64 * 1024;

export interface ByteStreamProxyOptions {
  /** The service's byte-stream listener (e.g. http://127.0.0.1:3401). */
  baseUrl: string;
  /** The service's name, for error texts. */
  service: string;
  /**
   * An upstream connection on which nothing moves for this long (the service hangs, or a browser
   * stopped reading an answer) is torn down, never held for ever.
   */
  idleTimeoutMs?: number;
  /** The header that carries the owner-binding cookie's value upstream (e.g. x-lv-media-binding). */
  bindingHeader: string;
  /** Headers of a read's answer the browser needs; nothing else of the service's passes. */
  answerHeaders: readonly string[];
  /** Whether a read passes the browser's Range on (playback seeks); otherwise the whole file is read. */
  ranges: boolean;
}

/**
 * The gateway's HTTP client for a service's byte-stream listener (vault-media's recordings,
 * court-journal's documents and evidence bundles). Bodies are piped, never collected: an upload goes
 * browser -> gateway -> service in 64 KiB chunks with backpressure, a read comes back the same way. A
 * browser that goes away aborts the request upstream.
 */
export class ByteStreamProxy {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly baseUrl: string;
  private readonly service: string;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: ByteStreamProxyOptions) {
    this.baseUrl = options.baseUrl;
    this.service = options.service;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 20_000;
  }

  close(): void {
    this.agent.destroy();
  }

  /** PUT `path` upstream with the body of `request`; answers with the service's status and JSON. */
  forwardUpload(request: FastifyRequest, reply: FastifyReply, path: string, accessToken: string): Promise<void> {
    return this.forwardBody(request, reply, path, accessToken, { method: 'PUT', headers: {}, answerHeaders: [] });
  }

  /**
   * A request of the tus protocol (HEAD, PATCH with a piece of the body, DELETE) passed upstream with
   * its tus headers, and the service's answer back with its own: the offsets are the service's word.
   */
  forwardResumable(request: FastifyRequest, reply: FastifyReply, path: string, accessToken: string): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of TUS_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = request.method === 'PATCH' ? 'PATCH' : request.method === 'DELETE' ? 'DELETE' : 'HEAD';
    return this.forwardBody(request, reply, path, accessToken, { method, headers, answerHeaders: TUS_ANSWER_HEADERS });
  }

  private forwardBody(request: FastifyRequest, reply: FastifyReply, path: string, accessToken: string, options: { method: 'PUT' | 'PATCH' | 'HEAD' | 'DELETE'; headers: Record<string, string>; answerHeaders: readonly string[] }): Promise<void> {
    const withBody = options.method === 'PUT' || options.method === 'PATCH';
    const headers: Record<string, string> = {
      ...options.headers,
      authorization: `Bearer ${accessToken}`,
      'x-request-id': String(request.id),
    };
    if (withBody) {
      headers['content-type'] = String(request.headers['content-type'] ?? 'application/octet-stream');
      const length = request.headers['content-length'];
      if (typeof length === 'string') headers['content-length'] = length;
      else headers['transfer-encoding'] = 'chunked';
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      const upstream = httpRequest(new URL(path, this.baseUrl), { method: options.method, agent: this.agent, headers });
      upstream.setTimeout(this.idleTimeoutMs, () => upstream.destroy(new Error(`${this.service} moved no byte for ${this.idleTimeoutMs} ms`)));
      upstream.on('response', (answer) => {
        readLimited(answer, MAX_UPLOAD_ANSWER_BYTES).then(
          (body) => {
            settled = true;
            reply.status(answer.statusCode ?? 502);
            for (const name of options.answerHeaders) {
              const value = answer.headers[name];
              if (value !== undefined) reply.header(name, value);
            }
            if (body.length) reply.header('content-type', 'application/json; charset=utf-8');
            reply.send(options.method === 'HEAD' || !body.length ? undefined : body);
            resolve();
          },
          () => {
            settled = true;
            reject(new DomainError('SERVICE_UNAVAILABLE'));
          },
        );
      });
      // The browser's body flows on to the service with backpressure. A browser that disconnects
      // tears the upstream request down with it, which the service sees as an aborted upload (and
      // cleans up after).
      let clientGone = false;
      if (!withBody) {
        request.raw.resume();
        upstream.end();
      } else {
        request.raw.pipe(upstream);
      }
      request.raw.on('close', () => {
        if (request.raw.readableEnded) return;
        clientGone = true;
        upstream.destroy(new Error('the client went away'));
      });
      let responded = false;
      upstream.once('response', () => { responded = true; });
      upstream.on('error', () => {
        request.raw.unpipe(upstream);
        if (clientGone) {
          if (!settled) { settled = true; resolve(); }
          return;
        }
        // The service stopped reading (it refused the body, then cut the connection, or went quiet).
        // Its answer has normally arrived already; the rest of the browser's body is read and dropped,
        // up to a point, and the connection closes after the answer: left open, it would wait for the
        // next request (keep-alive) behind a body that may never end.
        if (!request.raw.readableEnded) reply.header('connection', 'close');
        dropRestOfBody(request.raw);
        if (!responded) {
          // Not even an answer (not running, refused the connection): unavailable, at once.
          settled = true;
          reject(new DomainError('SERVICE_UNAVAILABLE'));
          return;
        }
        setTimeout(() => {
          if (settled) return;
          settled = true;
          reject(new DomainError('SERVICE_UNAVAILABLE'));
        }, 1000);
      });
    });
  }

  /**
   * GET `path` (a signed link's path and query) for the gateway itself rather than a browser: the body
   * as a stream, to be piped on (into an export ZIP) with backpressure, never collected. Rejects with
   * UpstreamReadError for any answer but 200, with SERVICE_UNAVAILABLE when the service is not there.
   */
  open(path: string, binding: string, requestId: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(new URL(path, this.baseUrl), { method: 'GET', agent: this.agent, headers: { 'x-request-id': requestId, [this.options.bindingHeader]: binding } });
      upstream.setTimeout(this.idleTimeoutMs, () => upstream.destroy(new Error(`${this.service} moved no byte for ${this.idleTimeoutMs} ms`)));
      upstream.on('response', (answer) => {
        if (answer.statusCode === 200) {
          resolve(answer);
          return;
        }
        readLimited(answer, MAX_UPLOAD_ANSWER_BYTES).then(
          (body) => reject(new UpstreamReadError(answer.statusCode ?? 502, body.toString('utf8'))),
          () => reject(new UpstreamReadError(answer.statusCode ?? 502, '')),
        );
      });
      upstream.on('error', (error) => reject(error.message.includes('moved no byte') ? error : new DomainError('SERVICE_UNAVAILABLE')));
      upstream.end();
    });
  }

  /**
   * GET (or HEAD) `path` (with the signed link's query) upstream, the owner binding (and Range, where
   * the service serves ranges) passed along; the bytes piped back with only the whitelisted headers.
   */
  forwardRead(request: FastifyRequest, reply: FastifyReply, path: string, binding: string | undefined): Promise<void> {
    const headers: Record<string, string> = { 'x-request-id': String(request.id) };
    if (this.options.ranges && typeof request.headers.range === 'string') headers.range = request.headers.range;
    if (binding) headers[this.options.bindingHeader] = binding;
    const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(new URL(path, this.baseUrl), { method, agent: this.agent, headers });
      upstream.setTimeout(this.idleTimeoutMs, () => upstream.destroy(new Error(`no byte moved for ${this.idleTimeoutMs} ms`)));
      upstream.on('response', (answer) => {
        const status = answer.statusCode ?? 502;
        reply.status(status);
        for (const name of this.options.answerHeaders) {
          const value = answer.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        if (status >= 400 && status !== 416) {
          reply.header('content-type', 'application/json; charset=utf-8');
          readLimited(answer, MAX_UPLOAD_ANSWER_BYTES).then((body) => { reply.send(body); resolve(); }, () => reject(new DomainError('SERVICE_UNAVAILABLE')));
          return;
        }
        // A seek (or a closed tab) makes the browser drop the request in flight: the upstream read stops with it.
        request.raw.once('close', () => { if (!answer.readableEnded) answer.destroy(); });
        reply.send(method === 'HEAD' ? undefined : answer);
        resolve();
      });
      upstream.on('error', () => reject(new DomainError('SERVICE_UNAVAILABLE')));
      upstream.end();
    });
  }
}

/** A read of a service's bytes that did not answer 200 (a link refused, an item gone): its status and code. */
export class UpstreamReadError extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(`upstream read answered ${status}`);
  }
}

/** After an answer to an unfinished upload: read (and drop) up to 16 MiB more, then cut the connection. */
function dropRestOfBody(raw: IncomingMessage, budget = 16 * 1024 * 1024): void {
  if (raw.readableEnded || raw.destroyed) return;
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > budget) raw.socket?.destroy();
  });
  raw.resume();
}

function readLimited(stream: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.destroy();
        reject(new Error('answer too large'));
        return;
      }
      parts.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}

/** A proxy under its injection token, closed (its keep-alive sockets destroyed) when the app closes. */
export function byteStreamProxyProviders(token: symbol, proxy: ByteStreamProxy): Provider[] {
  return [
    { provide: token, useValue: proxy },
    { provide: Symbol(`close ${token.description ?? 'byte-stream proxy'}`), useFactory: (): OnApplicationShutdown => ({ onApplicationShutdown: () => proxy.close() }) },
  ];
}

/** Longer than any query of a signed link (u, exp, sig and a disposition are about 120 characters together). */
const MAX_LINK_QUERY = 512;

/**
 * The query of a signed link as the browser sent it ('?u=...&exp=...&sig=...'), passed on verbatim
 * for the service to check; null when it is longer than any link a signer makes (the service's answer
 * to a malformed link is given here instead of a request line its HTTP server refuses, a 503).
 */
export function signedLinkQuery(url: string): string | null {
  const search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
  return search.length > MAX_LINK_QUERY ? null : search;
}
