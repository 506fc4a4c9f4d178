import { ClientNats } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import type { PayloadInput, ReplyOf, RequestMeta, RpcDeclaration, RpcRequest } from '@lv/contracts';
import { DomainError, toErrorBody } from '../errors/index.js';
import { currentTrace } from '../logging/trace-context.js';
import { natsConnectionOptions, type NatsSettings } from '../messaging/connection.js';
import { scopedSubject } from '../messaging/subjects.js';

export interface CallContext {
  accessToken?: string;
  meta: RequestMeta;
}

/**
 * Request-reply to a service over NATS with a deadline. A service that is down or too slow becomes
 * SERVICE_UNAVAILABLE (503) for the caller, never a hang; a domain error comes back as the same
 * DomainError the service raised.
 */
export class RpcClient {
  private readonly client: ClientNats;

  constructor(nats: NatsSettings | string, private readonly timeoutMs: number, name = 'rpc-client') {
    this.client = new ClientNats(natsConnectionOptions(nats, name) as never);
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async close(): Promise<void> {
    await this.client.close();
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

  private async send(subject: string, payload: unknown, context: CallContext, timeoutMs: number): Promise<unknown> {
    // The correlation id travels on: the caller's, else the request being handled here, else this request's id.
    const correlationId = context.meta.correlationId ?? currentTrace()?.correlationId ?? context.meta.requestId;
    const message: RpcRequest = { auth: { accessToken: context.accessToken }, meta: { ...context.meta, correlationId }, payload };
    try {
      return await firstValueFrom(this.client.send<unknown>(scopedSubject(subject), message).pipe(timeout(timeoutMs)));
    } catch (error) {
      const body = toErrorBody(error);
      if (body) throw new DomainError(body.code, body.message, { ...(body.fields && { fields: body.fields }), ...(body.retryAfter !== undefined && { retryAfter: body.retryAfter }) });
      if (error instanceof TimeoutError) throw new DomainError('SERVICE_UNAVAILABLE');
      throw new DomainError('SERVICE_UNAVAILABLE', undefined);
    }
  }
}
