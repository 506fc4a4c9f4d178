import { Injectable, type OnModuleInit, type Provider } from '@nestjs/common';
import { APP_GUARD, DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import type { Redis } from 'ioredis';
import { AccessTokenVerifier, CallerVerifier, RevokedViewSessions, ViewerTokenVerifier } from '../auth/index.js';
import { readPem } from '../config/index.js';
import { RpcCallerGuard } from './rpc-caller.guard.js';
import { describeAccess, RPC_ACCESS, type RpcAccess } from './readers.js';

/** One message handler of a running service and what it declared. */
export interface RpcHandlerEntry {
  controller: string;
  method: string;
  /** The subjects it answers, as registered (scoped by STACK_ID when one is set). */
  patterns: string[];
  access: RpcAccess | undefined;
}

/**
 * Every message handler of the service, found through Nest's discovery. A service with a handler
 * that declares no access refuses to start, naming it: an undeclared handler is never left open or
 * closed by accident. The reader matrix (libs/testing) runs every entry against every kind of caller.
 */
@Injectable()
export class RpcHandlerRegistry implements OnModuleInit {
  private entries: RpcHandlerEntry[] = [];

  constructor(private readonly discovery: DiscoveryService, private readonly scanner: MetadataScanner, private readonly reflector: Reflector) {}

  onModuleInit(): void {
    this.entries = this.scan();
    const undeclared = this.entries.filter((entry) => !entry.access);
    if (undeclared.length) {
      const names = undeclared.map((entry) => `${entry.controller}.${entry.method} (${entry.patterns.join(', ')})`);
      throw new Error(`RPC handlers without a declaration of who may call them (@Readers, @Writers, @OperatorOnly or @PublicRpc): ${names.join('; ')}`);
    }
  }

  handlers(): readonly RpcHandlerEntry[] {
    return this.entries;
  }

  describe(): string[] {
    return this.entries.map((entry) => `${entry.patterns.join(',')} ${entry.access ? describeAccess(entry.access) : 'UNDECLARED'}`);
  }

  private scan(): RpcHandlerEntry[] {
    const entries: RpcHandlerEntry[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method] as (...args: unknown[]) => unknown;
        const patterns = Reflect.getMetadata(PATTERN_METADATA, handler) as unknown[] | undefined;
        if (!patterns?.length) continue;
        const access = this.reflector.getAllAndOverride<RpcAccess | undefined>(RPC_ACCESS, [handler, wrapper.metatype as object as new () => unknown]);
        entries.push({ controller: String(wrapper.name ?? wrapper.token), method, patterns: patterns.map(String), access });
      }
    }
    return entries;
  }
}

export interface RpcAuthOptions {
  accessTokens: AccessTokenVerifier;
  /** VIEWER_JWT_PUBLIC_KEY (PEM or path). Absent: every viewer token is refused. */
  viewerPublicKey?: string;
  /** Where view-session revocations are read (the same Redis as session revocations). */
  redis: Redis;
}

/**
 * What every service registers for RPC auth: the CallerVerifier (access and viewer tokens), the
 * global guard, and the registry that refuses undeclared handlers at start-up.
 */
export function rpcAuthProviders(options: RpcAuthOptions): Provider[] {
  return [
    {
      provide: CallerVerifier,
      useFactory: async () => {
        const viewerKey = options.viewerPublicKey
          ? await readPem(options.viewerPublicKey).catch((error: unknown) => {
              throw new Error(`VIEWER_JWT_PUBLIC_KEY: cannot read the public key (${(error as Error).message})`);
            })
          : undefined;
        return new CallerVerifier(options.accessTokens, viewerKey ? new ViewerTokenVerifier(viewerKey, new RevokedViewSessions(options.redis)) : undefined);
      },
    },
    { provide: APP_GUARD, useClass: RpcCallerGuard },
    DiscoveryService,
    MetadataScanner,
    RpcHandlerRegistry,
  ];
}
