import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { PayloadInput, ReplyOf, RequestMeta, RpcDeclaration, RpcRequest } from '@lv/contracts';
import { DomainError, toErrorBody } from '../errors/index.js';
import { currentTrace } from '../logging/trace-context.js';
import { natsConnectionOptions, type NatsSettings } from '../messaging/connection.js';
import { scopedSubject } from '../messaging/subjects.js';

export interface CallContext {
  accessToken?: string;
  meta: RequestMeta;
}

/** What a service's Nest NATS transport answers (its JSON packet): a reply or an error body. */
interface ReplyPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
}

const encoder = new TextEncoder();

/**
 * Request-reply to a service over NATS with a deadline. A service that is down or too slow becomes
 * SERVICE_UNAVAILABLE (503) for the caller, never a hang; a domain error comes back as the same
 * DomainError the service raised.
 *
 * It speaks the services' Nest NATS transport's packet (`{ pattern, data, id }` out, `{ response |
 * err, id }` back) over nats.js's own request, whose replies all arrive on one shared inbox
 * subscription (under the user's inbox prefix). Nest's ClientNats opened and closed a subscription on
 * the server for every request, and ran each through an Observable: two protocol round trips and
 * the CPU of both on every hop (issue 10).
 */
export class RpcClient {
  private readonly options: ReturnType<typeof natsConnectionOptions>;
  private connection: Promise<NatsConnection> | null = null;
  private closed = false;

  constructor(nats: NatsSettings | string, private readonly timeoutMs: number, name = 'rpc-client') {
    this.options = natsConnectionOptions(nats, name);
  }

  /** Connects now; a caller that skips it (or whose first try failed) connects on its first call. */
  async connect(): Promise<void> {
    await this.open();
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = await this.connection?.catch(() => null);
    this.connection = null;
    if (connection && !connection.isClosed()) await connection.close();
  }

  /** Calls a declared subject: the payload and the reply are typed from the declaration. */
  call<D extends RpcDeclaration>(declaration: D, payload: PayloadInput<D>, context: CallContext, timeoutMs = this.timeoutMs): Promise<ReplyOf<D>> {
    return this.send(declaration.subject, payload, context, timeoutMs) as Promise<ReplyOf<D>>;
  }

  /**
   * Sends any payload to a declared subject: for specs proving that a service refuses what the
   * types would not let a caller send (a forged owner id, a malformed field).
   */
  callUnchecked<D extends RpcDeclaration>(declaration: D, payload: unknown, context: CallContext, timeoutMs = this.timeoutMs): Promise<ReplyOf<D>> {
    return this.send(declaration.subject, payload, context, timeoutMs) as Promise<ReplyOf<D>>;
  }

  /** One connection, opened once; a failed attempt is forgotten so that the next call tries again. */
  private open(): Promise<NatsConnection> {
    if (this.closed) return Promise.reject(new Error('the RPC client is closed'));
    this.connection ??= connect(this.options).then(
      (connection) => {
        // Closed for good (not a reconnect, which nats.js does by itself): the next call opens a new one.
        void connection.closed().then(() => {
          if (this.connection === opened) this.connection = null;
        });
        return connection;
      },
      (error: unknown) => {
        this.connection = null;
        throw error;
      },
    );
    const opened = this.connection;
    return opened;
  }

  private async send(subject: string, payload: unknown, context: CallContext, timeoutMs: number): Promise<unknown> {
    // The correlation id travels on: the caller's, else the request being handled here, else this request's id.
    const correlationId = context.meta.correlationId ?? currentTrace()?.correlationId ?? context.meta.requestId;
    const message: RpcRequest = { auth: { accessToken: context.accessToken }, meta: { ...context.meta, correlationId }, payload };
    const pattern = scopedSubject(subject);
    const id = randomUUID();
    let reply: ReplyPacket;
    try {
      const connection = await this.open();
      const answer = await connection.request(pattern, encoder.encode(JSON.stringify({ pattern, data: message, id })), { timeout: timeoutMs });
      reply = answer.json<ReplyPacket>();
    } catch {
      // Not connected, no replica listening, no answer in time, or an unreadable answer.
      throw new DomainError('SERVICE_UNAVAILABLE');
    }
    if (reply.id !== id) throw new DomainError('SERVICE_UNAVAILABLE');
    if (reply.err !== undefined && reply.err !== null) {
      const body = toErrorBody(reply.err);
      if (body) throw new DomainError(body.code, body.message, { ...(body.fields && { fields: body.fields }), ...(body.retryAfter !== undefined && { retryAfter: body.retryAfter }) });
      throw new DomainError('SERVICE_UNAVAILABLE');
    }
    return reply.response;
  }
}
