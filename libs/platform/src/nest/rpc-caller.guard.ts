import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RpcRequest } from '@lv/contracts';
import { AccessTokenVerifier } from '../auth/index.js';
import { DomainError } from '../errors/index.js';
import { attachCaller, OPERATOR_ONLY, PUBLIC_RPC } from './caller.js';

/**
 * Guards every RPC handler of a service by default: the service verifies the access token that
 * travelled with the message itself, whatever the gateway already checked. Handlers opt out with
 * @PublicRpc() and narrow to operators with @OperatorOnly().
 */
@Injectable()
export class RpcCallerGuard implements CanActivate {
  constructor(private readonly reflector: Reflector, private readonly verifier: AccessTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'rpc') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_RPC, targets)) return true;
    const message = context.switchToRpc().getData<RpcRequest>();
    if (!message || typeof message !== 'object') throw new DomainError('UNAUTHENTICATED');
    const caller = await this.verifier.verify(message.auth?.accessToken);
    const operatorOnly = this.reflector.getAllAndOverride<boolean>(OPERATOR_ONLY, targets);
    if (operatorOnly && caller.kind !== 'operator') throw new DomainError('FORBIDDEN');
    if (!operatorOnly && caller.kind !== 'user') throw new DomainError('FORBIDDEN');
    attachCaller(message, caller);
    return true;
  }
}
