import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ErrorCodes, type ErrorBody } from '@lv/contracts';
import type { AccessTokenVerifier, AccountCaller, UserCaller } from '../auth/index.js';
import { DomainError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';

/** After refusing an upload mid-body, read (and drop) at most this much more before cutting the connection. */
export const DRAIN_BUDGET_BYTES = 16 * 1024 * 1024;

export interface ByteStreamTimeouts {
  /** The request's headers must have arrived within this long. */
  headersMs: number;
  /** A connection on which no byte moves (a stalled body, a reader that stopped) for this long is closed. */
  idleMs: number;
  /** The whole request, body included, must have arrived within this long (a 500 MiB upload at 1.2 Mbit/s). */
  requestMs: number;
}

export const BYTE_STREAM_TIMEOUTS: ByteStreamTimeouts = { headersMs: 10_000, idleMs: 30_000, requestMs: 60 * 60_000 };

export interface ByteStreamListenerOptions {
  /** Names the listener in logs ('media', 'court-journal'). */
  name: string;
  host: string;
  port: number;
  /** Defaults to BYTE_STREAM_TIMEOUTS. */
  timeouts?: Partial<ByteStreamTimeouts>;
}

/**
 * A service's own HTTP listener for byte streams only (NATS carries the commands; its messages are
 * limited to 1 MB): upload bodies in, files out. The gateway proxies to it; the service checks
 * everything again itself. Routes are added to `app` by the service. What every such listener shares:
 *
 * - slow or stalled clients cannot hold a connection (headers, idle gaps and the whole request are bounded);
 * - bodies are never parsed or buffered here: handlers stream `request.raw`;
 * - errors answer as ErrorBody (DomainError code -> status; anything else 500 with an error id, logged);
 *   a body refused mid-way is drained up to a budget so the client sees the answer, then cut off.
 */
export class ByteStreamListener {
  readonly app: FastifyInstance;
  private address: { host: string; port: number } | null = null;

  constructor(private readonly logger: Logger, private readonly options: ByteStreamListenerOptions) {
    const timeouts = { ...BYTE_STREAM_TIMEOUTS, ...options.timeouts };
    this.app = Fastify({
      loggerInstance: logger.child({ component: `${options.name}-http` }) as unknown as FastifyBaseLogger,
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
    this.app.setErrorHandler((error, request, reply) => sendStreamError(request, reply, error));
    this.app.setNotFoundHandler((_request, reply) => {
      void reply.status(404).send({ code: 'NOT_FOUND', message: ErrorCodes.NOT_FOUND.message } satisfies ErrorBody);
    });
  }

  get listening(): boolean {
    return this.address !== null;
  }

  /** `http://host:port` once listening. */
  get url(): string {
    if (!this.address) throw new Error(`the ${this.options.name} HTTP listener is not started`);
    return `http://${this.address.host.includes(':') ? `[${this.address.host}]` : this.address.host}:${this.address.port}`;
  }

  async start(): Promise<void> {
    await this.app.listen({ host: this.options.host, port: this.options.port });
    const info = this.app.server.address();
    const port = info && typeof info === 'object' ? info.port : this.options.port;
    this.address = { host: this.options.host === '0.0.0.0' ? '127.0.0.1' : this.options.host, port };
    this.logger.info({ url: this.url }, `${this.options.name} byte-stream listener ready`);
  }

  async stop(): Promise<void> {
    this.address = null;
    await this.app.close();
  }
}

/** The signed-in person behind `Authorization: Bearer <access token>` (uploads are theirs alone). */
export async function bearerUser(verifier: AccessTokenVerifier, request: FastifyRequest): Promise<UserCaller> {
  const caller = await bearerCaller(verifier, request);
  if (caller.kind !== 'user') throw new DomainError('FORBIDDEN');
  return caller;
}

/** The account behind the request's Bearer token, user or operator (the handler decides which it takes). */
export async function bearerCaller(verifier: AccessTokenVerifier, request: FastifyRequest): Promise<AccountCaller> {
  const header = request.headers.authorization;
  const token = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  return verifier.verify(token);
}

/** The Content-Length a client announced, when it is a plain number. */
export function announcedLength(request: FastifyRequest): number | undefined {
  const length = request.headers['content-length'];
  return length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
}

/**
 * The body as chunks, for streaming to storage. destroyOnReturn: false keeps the connection when the
 * body is refused mid-way, so the answer (413, 415) still reaches the client.
 */
export function streamedBody(request: FastifyRequest): AsyncIterable<Buffer> {
  return request.raw.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
}

function sendStreamError(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
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

/**
 * An upload refused mid-body (too large, wrong format) still has bytes on the way. Reading a little
 * more lets the client see the answer instead of a reset; a client that keeps sending is cut off.
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
