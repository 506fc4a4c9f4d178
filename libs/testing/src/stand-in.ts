import type { NatsConnection } from '@nats-io/transport-node';
import { scopedSubject } from '@lv/platform/messaging';

/**
 * Answers calls of `declaration` on the spec's stack as the service that owns it would, in Nest's NATS
 * wire format: `answer` is given the call's payload and the caller's access token, if any.
 */
export function answerAsService<P>(nc: NatsConnection, declaration: { readonly subject: string }, answer: (payload: P, accessToken: string | undefined) => unknown, stackId = process.env.STACK_ID): void {
  nc.subscribe(scopedSubject(declaration, stackId), {
    callback: (_err, msg) => {
      const packet = msg.json<{ id: string; data: { auth?: { accessToken?: string }; payload: P } }>();
      msg.respond(JSON.stringify({ response: answer(packet.data.payload, packet.data.auth?.accessToken), isDisposed: true, id: packet.id }));
    },
  });
}
