import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import type { PayloadOf, ReplyOf, RequestMeta, RpcDeclaration, RpcRequest } from '@lv/contracts';
import { scopedSubject } from '../messaging/subjects.js';
import { parsePayload } from './payload.js';

export const RPC_DECLARATION = 'lv:rpc-declaration';

// The handler's parameters are Nest's to fill (decorated); only its reply is checked against the declaration.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parameter types vary per handler; `unknown[]` would refuse every typed one
type HandlerOf<D extends RpcDeclaration> = (...args: any[]) => ReplyOf<D> | Promise<ReplyOf<D>>;

/**
 * Answers the declaration's subject (scoped to the stack) and records the declaration on the handler,
 * so @RpcPayload() validates with its schema. The handler's return type is held to the declared reply.
 */
export function RpcHandler<D extends RpcDeclaration>(declaration: D): <M extends HandlerOf<D>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  return applyDecorators(MessagePattern(scopedSubject(declaration.subject)), SetMetadata(RPC_DECLARATION, declaration)) as never;
}

/** The declaration a handler answers, or undefined for a function that is no @RpcHandler. */
export function rpcDeclarationOf(handler: object): RpcDeclaration | undefined {
  return Reflect.getMetadata(RPC_DECLARATION, handler) as RpcDeclaration | undefined;
}

const parsed = new WeakMap<object, unknown>();

/**
 * Validates a message's payload against its handler's declaration: VALIDATION_FAILED with the
 * schema's per-field messages when it does not pass. A missing payload counts as an empty object,
 * so the caller still learns which fields are required. Parsed once per message.
 */
export function validatedPayload<D extends RpcDeclaration>(declaration: D, message: RpcRequest): PayloadOf<D> {
  if (parsed.has(message)) return parsed.get(message) as PayloadOf<D>;
  const payload = parsePayload(declaration.payload, message.payload ?? {}) as PayloadOf<D>;
  parsed.set(message, payload);
  return payload;
}

function messageOf(context: ExecutionContext): RpcRequest {
  const message = context.switchToRpc().getData<RpcRequest | undefined>();
  // Anything that is not an envelope is answered as an empty one (the guard has refused it already
  // on guarded handlers); its payload then fails validation with field messages.
  return message && typeof message === 'object' ? message : ({ auth: {}, meta: { requestId: 'unknown' }, payload: undefined } as RpcRequest);
}

/** The payload of the message, validated by the handler's @RpcHandler declaration and typed by the parameter: `@RpcPayload() p: PayloadOf<typeof LettersRpc.write>`. */
export const RpcPayload = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const declaration = rpcDeclarationOf(context.getHandler());
  if (!declaration) throw new Error(`@RpcPayload() on ${context.getClass().name}.${context.getHandler().name}, which has no @RpcHandler(declaration)`);
  return validatedPayload(declaration, messageOf(context));
});

/** The request's metadata (request id, client address) as the gateway sent it. */
export const RpcMeta = createParamDecorator((_: unknown, context: ExecutionContext): RequestMeta => messageOf(context).meta ?? { requestId: 'unknown' });

/** The access token that travelled with the message, for handlers that pass the caller on (or verify it themselves on a public handler). */
export const RpcAccessToken = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => messageOf(context).auth?.accessToken);
