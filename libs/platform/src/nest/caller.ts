import { createParamDecorator, SetMetadata, applyDecorators, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../auth/index.js';
import { Readers, RPC_ACCESS, type RpcAccess } from './readers.js';

/**
 * The verified caller of an RPC message. Kept beside the message in a WeakMap, not inside it: a
 * field in the payload could be forged by whoever sends the message.
 */
const callers = new WeakMap<object, Caller>();

export function attachCaller(message: object, caller: Caller): void {
  callers.set(message, caller);
}

export function callerOf(message: object): Caller | undefined {
  return callers.get(message);
}

export const PUBLIC_RPC = 'lv:public-rpc';

/** Opens a handler to callers without a session (sign-in, health). A deliberate, visible choice. */
export const PublicRpc = () => applyDecorators(SetMetadata(PUBLIC_RPC, true), SetMetadata<string, RpcAccess>(RPC_ACCESS, { access: 'public' }));

/** Restricts a handler to the ops CLI's operator token: sugar for @Readers('operator'). */
export const OperatorOnly = () => Readers('operator');

/** Injects the verified Caller into an RPC handler. */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = callerOf(context.switchToRpc().getData<object>());
  if (!caller) throw new Error('CurrentCaller used on a handler that is not guarded');
  return caller;
});
