import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RpcRequest } from '@lv/contracts';
import { CallerVerifier } from '../auth/index.js';
import { DomainError } from '../errors/index.js';
import { attachCaller } from './caller.js';
import { callerMayUse, RPC_ACCESS, type RpcAccess } from './readers.js';

/**
 * Guards every RPC handler of a service: the service verifies the token that travelled with the
 * message itself (access token or viewer token), whatever the gateway already checked, then holds
 * the caller to the handler's declaration (@Readers, @Writers, @OperatorOnly, @PublicRpc). A handler
 * without a declaration is refused here too, besides RpcHandlerRegistry refusing it at start-up.
 */
@Injectable()
export class RpcCallerGuard implements CanActivate {
  constructor(private readonly reflector: Reflector, private readonly verifier: CallerVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'rpc') return true;
    const access = this.reflector.getAllAndOverride<RpcAccess | undefined>(RPC_ACCESS, [context.getHandler(), context.getClass()]);
    if (!access) throw new DomainError('FORBIDDEN');
    if (access.access === 'public') return true;
    const message = context.switchToRpc().getData<RpcRequest>();
    if (!message || typeof message !== 'object') throw new DomainError('UNAUTHENTICATED');
    const caller = await this.verifier.verify(message.auth?.accessToken);
    if (!callerMayUse(access, caller)) throw new DomainError('FORBIDDEN');
    attachCaller(message, caller);
    return true;
  }
}
