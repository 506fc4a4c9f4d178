import { randomUUID } from 'node:crypto';
import { connect, createInbox, type Msg, type NatsConnection } from '@nats-io/transport-node';
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
const decoder = new TextDecoder();

/** A request waiting for its answer on the client's reply subscription. */
interface Pending {
  resolve(reply: ReplyPacket): void;
  reject(): void;
  timer: NodeJS.Timeout;
}

/** The open connection and its one reply subscription (`<inbox>.*`, a token per request after the dot). */
interface Link {
  connection: NatsConnection;
  inbox: string;
}

/**
 * Request-reply to a service over NATS with a deadline. A service that is down or too slow becomes
 * SERVICE_UNAVAILABLE (503) for the caller, never a hang; a domain error comes back as the same
 * DomainError the service raised.
 *
 * It speaks the services' Nest NATS transport's packet (`{ pattern, data, id }` out, `{ response |
 * err, id }` back); all replies arrive on one subscription of the client's own, under the user's
 * inbox prefix, each request's reply subject ending in a token of its own. Nest's ClientNats opened
 * and closed a subscription on the server for every request, and ran each through an Observable: two
 * protocol round trips and the CPU of both on every hop (issue 10). nats.js's `request` (used before
 * this) builds two errors, stack traces included, for every request in case it fails: about 8 % of
 * the gateway's CPU on `GET /api/me`.
 */
export class RpcClient {
  private readonly options: ReturnType<typeof natsConnectionOptions>;
  private connection: Promise<Link> | null = null;
  private closed = false;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;

  constructor(nats: NatsSettings | string, private readonly timeoutMs: number, name = 'rpc-client') {
    this.options = natsConnectionOptions(nats, name);
  }

  /** Connects now; a caller that skips it (or whose first try failed) connects on its first call. */
  async connect(): Promise<void> {
    await this.open();
  }

  async close(): Promise<void> {
    this.closed = true;
    const link = await this.connection?.catch(() => null);
    this.connection = null;
    if (link && !link.connection.isClosed()) await link.connection.close();
    this.failPending();
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

  /** One connection and its reply subscription, opened once; a failed attempt is forgotten so that the next call tries again. */
  private open(): Promise<Link> {
    if (this.closed) return Promise.reject(new Error('the RPC client is closed'));
    this.connection ??= connect(this.options).then(
      (connection) => {
        // Under the user's inbox prefix, as nats.js's own request inbox: the deployment's permissions allow it.
        const inbox = createInbox(this.options.inboxPrefix);
        connection.subscribe(`${inbox}.*`, { callback: (error, msg) => { if (!error) this.answer(inbox, msg); } });
        // Closed for good (not a reconnect, which nats.js does by itself, keeping the subscription):
        // what waits fails now, and the next call opens a new connection.
        void connection.closed().then(() => {
          if (this.connection === opened) this.connection = null;
          this.failPending();
        });
        return { connection, inbox };
      },
      (error: unknown) => {
        this.connection = null;
        throw error;
      },
    );
    const opened = this.connection;
    return opened;
  }

  /** An answer on the reply subscription: to the request its token names. No responder (a 503 status, no body) or an unreadable body fails it. */
  private answer(inbox: string, msg: Msg): void {
    const token = msg.subject.slice(inbox.length + 1);
    const waiting = this.pending.get(token);
    if (!waiting) return;
    this.pending.delete(token);
    clearTimeout(waiting.timer);
    let reply: unknown;
    try {
      reply = JSON.parse(decoder.decode(msg.data));
    } catch {
      waiting.reject();
      return;
    }
    if (reply && typeof reply === 'object') waiting.resolve(reply as ReplyPacket);
    else waiting.reject();
  }

  private failPending(): void {
    for (const [token, waiting] of this.pending) {
      this.pending.delete(token);
      clearTimeout(waiting.timer);
      waiting.reject();
    }
  }

  /** Publishes the packet with a reply subject of its own; resolves to the answer, rejects on none in time. */
  private async request(subject: string, packet: string, timeoutMs: number): Promise<ReplyPacket> {
    const { connection, inbox } = await this.open();
    const token = (this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER).toString(36);
    return new Promise<ReplyPacket>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new Error('no answer in time'));
      }, timeoutMs);
      this.pending.set(token, { resolve, reject: () => reject(new Error('no answer')), timer });
      try {
        connection.publish(subject, encoder.encode(packet), { reply: `${inbox}.${token}` });
      } catch (error) {
        this.pending.delete(token);
        clearTimeout(timer);
        reject(new Error('not published', { cause: error }));
      }
    });
  }

  private async send(subject: string, payload: unknown, context: CallContext, timeoutMs: number): Promise<unknown> {
    // The correlation id travels on: the caller's, else the request being handled here, else this request's id.
    const correlationId = context.meta.correlationId ?? currentTrace()?.correlationId ?? context.meta.requestId;
    const message: RpcRequest = { auth: { accessToken: context.accessToken }, meta: { ...context.meta, correlationId }, payload };
    const pattern = scopedSubject(subject);
    const id = randomUUID();
    let reply: ReplyPacket;
    try {
      reply = await this.request(pattern, JSON.stringify({ pattern, data: message, id }), timeoutMs);
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
