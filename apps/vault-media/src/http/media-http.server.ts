import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ErrorCodes, type ErrorBody } from '@lv/contracts';
import type { AccessTokenVerifier, UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import type { Logger } from '@lv/platform/logging';
import type { MediaService } from '../media.service.js';

/** Header the gateway uses to pass the lv_media cookie (the owner binding of playback links). */
export const MEDIA_BINDING_HEADER = 'x-lv-media-binding';
/** After refusing an upload mid-body, read (and drop) at most this much more before cutting the connection. */
const DRAIN_BUDGET_BYTES = 16 * 1024 * 1024;

export interface MediaHttpTimeouts {
  /** The request's headers must have arrived within this long. */
  headersMs: number;
  /** A connection on which no byte moves (a stalled body, a reader that stopped) for this long is closed. */
  idleMs: number;
  /** The whole request, body included, must have arrived within this long (a 500 MiB upload at 1.2 Mbit/s). */
  requestMs: number;
}

export const MEDIA_HTTP_TIMEOUTS: MediaHttpTimeouts = { headersMs: 10_000, idleMs: 30_000, requestMs: 60 * 60_000 };

export interface MediaHttpOptions {
  host: string;
  port: number;
  /** Defaults to MEDIA_HTTP_TIMEOUTS. */
  timeouts?: Partial<MediaHttpTimeouts>;
}

/**
 * vault-media's own HTTP listener, for byte streams only (NATS carries the commands; its messages
 * are limited to 1 MB): the body of an upload comes in, Range reads of a recording go out. The
 * gateway proxies both; this server checks everything again itself: the caller's access token on
 * uploads, the signed link and owner binding on reads.
 *
 *   PUT  /uploads/:id     Authorization: Bearer <token>, raw webm body  -> 201 Recording | ErrorBody
 *   GET  /media/:id?u&exp&sig   x-lv-media-binding, Range               -> 200 | 206 | 416 | ErrorBody
 */
export class MediaHttpServer {
  private readonly app: FastifyInstance;
  private address: { host: string; port: number } | null = null;

  constructor(private readonly media: MediaService, private readonly verifier: AccessTokenVerifier, private readonly logger: Logger, private readonly options: MediaHttpOptions) {
    const timeouts = { ...MEDIA_HTTP_TIMEOUTS, ...options.timeouts };
    this.app = Fastify({
      loggerInstance: logger.child({ component: 'media-http' }) as unknown as FastifyBaseLogger,
      logController: new LogController({ disableRequestLogging: true }),
      genReqId: (req) => {
        const id = req.headers['x-request-id'];
        return typeof id === 'string' && /^[\w.:-]{1,128}$/.test(id) ? id : randomUUID();
      },
      // A slow or stalled client cannot hold a connection: the headers, every idle gap and the whole
      // request are bounded (an upload that stops moving is then aborted and cleaned up like any
      // other). Node checks the headers and request deadlines every connectionsCheckingInterval.
      http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: Math.min(1000, timeouts.headersMs) },
      connectionTimeout: timeouts.idleMs,
      requestTimeout: timeouts.requestMs,
      return503OnClosing: true,
      // Stopping must not wait for an upload whose client stopped sending.
      forceCloseConnections: true,
    });
    // Bodies are streamed by the handler, never parsed or buffered here.
    this.app.removeAllContentTypeParsers();
    this.app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    this.app.setErrorHandler((error, request, reply) => this.sendError(request, reply, error));
    this.app.setNotFoundHandler((_request, reply) => {
      void reply.status(404).send({ code: 'NOT_FOUND', message: ErrorCodes.NOT_FOUND.message } satisfies ErrorBody);
    });
    this.app.put<{ Params: { id: string } }>('/uploads/:id', (request, reply) => this.upload(request, reply));
    this.app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/media/:id', (request, reply) => this.play(request, reply));
  }

  get listening(): boolean {
    return this.address !== null;
  }

  /** `http://host:port` once listening. */
  get url(): string {
    if (!this.address) throw new Error('the media HTTP listener is not started');
    return `http://${this.address.host.includes(':') ? `[${this.address.host}]` : this.address.host}:${this.address.port}`;
  }

  async start(): Promise<void> {
    await this.app.listen({ host: this.options.host, port: this.options.port });
    const info = this.app.server.address();
    const port = info && typeof info === 'object' ? info.port : this.options.port;
    this.address = { host: this.options.host === '0.0.0.0' ? '127.0.0.1' : this.options.host, port };
    this.logger.info({ url: this.url }, 'media byte-stream listener ready');
  }

  async stop(): Promise<void> {
    this.address = null;
    await this.app.close();
  }

  private async caller(request: FastifyRequest): Promise<UserCaller> {
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    const caller = await this.verifier.verify(token);
    if (caller.kind !== 'user') throw new DomainError('FORBIDDEN');
    return caller;
  }

  private async upload(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<void> {
    const caller = await this.caller(request);
    const length = request.headers['content-length'];
    // destroyOnReturn: false keeps the connection when the body is refused mid-way, so the answer
    // (413, 415) still reaches the client.
    const body = request.raw.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
    const recording = await this.media.receiveUpload(caller, request.params.id, body, {
      contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
      correlationId: String(request.id),
    });
    request.log.info({ recordingId: recording.id, size: recording.size, userId: caller.userId }, 'recording saved');
    await reply.status(201).header('cache-control', 'no-store').send(recording);
  }

  private async play(request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>, reply: FastifyReply): Promise<void> {
    const binding = request.headers[MEDIA_BINDING_HEADER];
    const range = request.headers.range;
    const result = await this.media.openPlayback(request.params.id, request.query ?? {}, typeof binding === 'string' ? binding : undefined, typeof range === 'string' ? range : undefined, request.method === 'HEAD');
    reply.status(result.status).headers(result.headers);
    if (!result.body) {
      await reply.send();
      return;
    }
    result.body.on('error', (err) => request.log.warn({ err }, 'object stream failed mid-way'));
    await reply.send(result.body);
  }

  private sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
    let status: number;
    let body: ErrorBody;
    if (error instanceof DomainError) {
      body = error.toBody();
      status = ErrorCodes[error.code].status;
      request.log.debug({ code: error.code }, 'request refused');
    } else if (typeof (error as { statusCode?: unknown })?.statusCode === 'number' && (error as { statusCode: number }).statusCode < 500) {
      status = (error as { statusCode: number }).statusCode;
      body = { code: 'VALIDATION_FAILED', message: ErrorCodes.VALIDATION_FAILED.message };
    } else {
      const errorId = randomUUID();
      request.log.error({ err: error, errorId }, `request failed (errorId ${errorId})`);
      status = 500;
      body = { code: 'INTERNAL', message: ErrorCodes.INTERNAL.message, errorId };
    }
    // Answered before the body ended: close after the answer, or keep-alive would hold the connection
    // (for keepAliveTimeout) behind a body that may never end.
    const bodyLeft = !request.raw.readableEnded;
    dropRestOfBody(request.raw);
    if (reply.sent) return;
    if (bodyLeft) void reply.header('connection', 'close');
    void reply.status(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  }
}

/**
 * An upload refused mid-body (too large, not WebM) still has bytes on the way. Reading a little more
 * lets the client see the answer instead of a reset; a client that keeps sending is cut off.
 */
function dropRestOfBody(raw: IncomingMessage): void {
  if (raw.readableEnded || raw.destroyed) return;
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_BUDGET_BYTES) raw.socket?.destroy();
  });
  raw.resume();
}
