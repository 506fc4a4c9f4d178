import { randomUUID } from 'node:crypto';
import { ClientNats } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import type { RpcRequest } from '@lv/contracts';
import { toErrorBody } from '@lv/platform/errors';
import { scopedSubject } from '@lv/platform/messaging';

/**
 * Request-reply on a raw subject with a token, as the gateway sends it: for specs that set up data
 * for the matrix without depending on how a service's typed client is declared.
 */
export class RawRpc {
  private readonly client: ClientNats;

  constructor(natsUrl: string, private readonly timeoutMs = 5000) {
    this.client = new ClientNats({ servers: [natsUrl], name: 'raw-rpc' } as never);
  }

  async connect(): Promise<this> {
    await this.client.connect();
    return this;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Resolves with the reply; rejects with the service's error body ({ code, message }) or a transport error. */
  async call<T>(subject: string, payload: unknown, accessToken?: string): Promise<T> {
    const message: RpcRequest = { auth: { accessToken }, meta: { requestId: `raw-${randomUUID()}` }, payload };
    try {
      return await firstValueFrom(this.client.send<T>(scopedSubject(subject), message).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      throw toErrorBody(error) ?? error;
    }
  }

  /** The answer's code: 'OK' for a reply, else the error body's code (or the transport error's text). */
  async answer(subject: string, payload: unknown, accessToken?: string): Promise<{ code: string; reply?: unknown }> {
    try {
      return { code: 'OK', reply: await this.call(subject, payload, accessToken) };
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      return { code: typeof code === 'string' ? code : `ERROR ${(error as Error)?.message ?? String(error)}` };
    }
  }
}
