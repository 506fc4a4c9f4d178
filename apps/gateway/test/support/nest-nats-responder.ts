import { connect, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { RpcRequest } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

/** Answers one request: return the response, or throw a DomainError / ErrorBody to answer an error. */
export type RpcHandler = (request: RpcRequest<any>, subject: string) => unknown;

/** A subject, or its RPC declaration from the contracts (IdentityRpc.signIn). */
export type SubjectLike = string | { readonly subject: string };
const subjectOf = (subject: SubjectLike) => (typeof subject === 'string' ? subject : subject.subject);

export interface ReceivedRpc {
  subject: string;
  request: RpcRequest<any>;
}

/**
 * Stands in for a service on NATS, speaking Nest's NATS wire format (see @nestjs/microservices
 * server/server-nats.js and serializers/nats-record.serializer.js): the request is the JSON
 * `{ pattern, data, id }`, the reply `{ response, isDisposed: true, id }` or
 * `{ err, isDisposed: true, id }`, published to the request's reply inbox.
 *
 * Subjects are given unscoped (`rpc.identity.sign-in`); the stack prefix is added here.
 */
export class NestNatsResponder {
  readonly received: ReceivedRpc[] = [];
  private readonly handlers = new Map<string, RpcHandler>();
  private readonly silent = new Set<string>();
  private subscriptions: Subscription[] = [];

  private constructor(private readonly nc: NatsConnection, private readonly prefix: string) {}

  static async start(servers: string, stackId: string): Promise<NestNatsResponder> {
    const nc = await connect({ servers, name: 'gateway-spec-responder' });
    return new NestNatsResponder(nc, `${stackId}.`);
  }

  /** Answers `subject` with `handler`. */
  handle(subject: SubjectLike, handler: RpcHandler): this {
    this.handlers.set(subjectOf(subject), handler);
    this.silent.delete(subjectOf(subject));
    return this;
  }

  /** Receives `subject` but never answers (a hung service). */
  hang(subject: SubjectLike): this {
    this.silent.add(subjectOf(subject));
    return this;
  }

  /** Listens on every service's subjects given, e.g. ['rpc.identity.>', 'rpc.vault-media.>']. */
  async listen(wildcards: string[]): Promise<void> {
    for (const wildcard of wildcards) {
      const sub = this.nc.subscribe(`${this.prefix}${wildcard}`, { callback: (error, msg) => void (error ? undefined : this.onMessage(msg)) });
      this.subscriptions.push(sub);
    }
    await this.nc.flush();
  }

  /** Stops listening: requests now find no responder at all (the service is down). */
  async stop(): Promise<void> {
    for (const sub of this.subscriptions) sub.unsubscribe();
    this.subscriptions = [];
    await this.nc.flush();
  }

  callsTo(subject: SubjectLike): RpcRequest<any>[] {
    return this.received.filter((r) => r.subject === subjectOf(subject)).map((r) => r.request);
  }

  async close(): Promise<void> {
    await this.nc.close();
  }

  private async onMessage(msg: Msg): Promise<void> {
    const subject = msg.subject.startsWith(this.prefix) ? msg.subject.slice(this.prefix.length) : msg.subject;
    const packet = msg.json<{ pattern: string; data: RpcRequest<any>; id: string }>();
    this.received.push({ subject, request: packet.data });
    if (this.silent.has(subject)) return;
    const handler = this.handlers.get(subject);
    let reply: Record<string, unknown>;
    if (!handler) {
      reply = { err: 'There is no matching message handler defined in the remote service.', isDisposed: true, id: packet.id };
    } else {
      try {
        reply = { response: await handler(packet.data, subject), isDisposed: true, id: packet.id };
      } catch (error) {
        reply = { err: error instanceof DomainError ? error.toBody() : error, isDisposed: true, id: packet.id };
      }
    }
    msg.respond(JSON.stringify(reply));
  }
}
