import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_CONTENT_TYPES } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

/** Content types of upload bodies: parsed by nobody, streamed by the upload handler. */
export const MEDIA_BODY_TYPES = [...new Set(Object.values(MEDIA_CONTENT_TYPES)), 'application/octet-stream'];

/**
 * Lets upload bodies through Fastify unread: no parser buffers them (Nest's body parsers would, with
 * `parseAs: 'buffer'`), so the handler can stream `request.raw` on to vault-media.
 */
export function registerMediaBodyParsers(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(MEDIA_BODY_TYPES, (_request, _payload, done) => done(null));
}

/** Headers of a playback answer that the browser needs; nothing else of vault-media's passes. */
const PLAYBACK_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'cache-control', 'content-disposition', 'x-content-type-options'];
/** Largest answer read from vault-media for an upload (a Recording or an ErrorBody). */
const MAX_UPLOAD_ANSWER_BYTES = 64 * 1024;

/**
 * The gateway's HTTP client for vault-media's byte-stream listener. Bodies are piped, never
 * collected: an upload goes browser -> gateway -> vault-media in 64 KiB chunks with backpressure, a
 * playback read comes back the same way. A browser that goes away aborts the request upstream.
 */
export class VaultMediaHttp {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });

  /**
   * @param idleTimeoutMs an upstream connection on which nothing moves for this long (vault-media
   *   hangs, or a browser stopped reading a playback answer) is torn down, never held for ever.
   */
  constructor(private readonly baseUrl: string, private readonly idleTimeoutMs = 20_000) {}

  close(): void {
    this.agent.destroy();
  }

  /** PUT /uploads/:id upstream with the body of `request`; answers with vault-media's status and JSON. */
  forwardUpload(request: FastifyRequest, reply: FastifyReply, uploadId: string, accessToken: string): Promise<void> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${accessToken}`,
      'content-type': String(request.headers['content-type'] ?? 'application/octet-stream'),
      'x-request-id': String(request.id),
    };
    const length = request.headers['content-length'];
    if (typeof length === 'string') headers['content-length'] = length;
    else headers['transfer-encoding'] = 'chunked';
    return new Promise((resolve, reject) => {
      let settled = false;
      const upstream = httpRequest(new URL(`/uploads/${encodeURIComponent(uploadId)}`, this.baseUrl), { method: 'PUT', agent: this.agent, headers });
      upstream.setTimeout(this.idleTimeoutMs, () => upstream.destroy(new Error(`vault-media moved no byte for ${this.idleTimeoutMs} ms`)));
      upstream.on('response', (answer) => {
        readLimited(answer, MAX_UPLOAD_ANSWER_BYTES).then(
          (body) => {
            settled = true;
            reply.status(answer.statusCode ?? 502).header('content-type', 'application/json; charset=utf-8').send(body);
            resolve();
          },
          () => {
            settled = true;
            reject(new DomainError('SERVICE_UNAVAILABLE'));
          },
        );
      });
      // The browser's body flows on to vault-media with backpressure. A browser that disconnects
      // tears the upstream request down with it, which vault-media sees as an aborted upload (and
      // cleans up after).
      let clientGone = false;
      request.raw.pipe(upstream);
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
        // vault-media stopped reading (it refused the body, then cut the connection, or went quiet).
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

  /** GET (or HEAD) /media/:id upstream, Range and the owner binding passed along; the bytes piped back. */
  forwardPlayback(request: FastifyRequest, reply: FastifyReply, recordingId: string, search: string, binding: string | undefined): Promise<void> {
    const headers: Record<string, string> = { 'x-request-id': String(request.id) };
    if (typeof request.headers.range === 'string') headers.range = request.headers.range;
    if (binding) headers['x-lv-media-binding'] = binding;
    const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(new URL(`/media/${encodeURIComponent(recordingId)}${search}`, this.baseUrl), { method, agent: this.agent, headers });
      upstream.setTimeout(this.idleTimeoutMs, () => upstream.destroy(new Error(`no byte moved for ${this.idleTimeoutMs} ms`)));
      upstream.on('response', (answer) => {
        const status = answer.statusCode ?? 502;
        reply.status(status);
        for (const name of PLAYBACK_HEADERS) {
          const value = answer.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        if (status >= 400 && status !== 416) {
          reply.header('content-type', 'application/json; charset=utf-8');
          readLimited(answer, MAX_UPLOAD_ANSWER_BYTES).then((body) => { reply.send(body); resolve(); }, () => reject(new DomainError('SERVICE_UNAVAILABLE')));
          return;
        }
        // A seek makes the browser drop the request in flight: the upstream read stops with it.
        request.raw.once('close', () => { if (!answer.readableEnded) answer.destroy(); });
        reply.send(method === 'HEAD' ? undefined : answer);
        resolve();
      });
      upstream.on('error', () => reject(new DomainError('SERVICE_UNAVAILABLE')));
      upstream.end();
    });
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
