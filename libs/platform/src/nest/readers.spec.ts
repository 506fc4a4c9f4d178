import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import type { Caller, UserCaller, ViewerCaller } from '../auth/index.js';
import { OperatorOnly, PublicRpc } from './caller.js';
import { callerMayUse, Readers, viewerOf, Writers, type RpcAccess, type Writer } from './readers.js';
import { RpcHandlerRegistry } from './rpc-handler-registry.js';

const owner: UserCaller = { kind: 'user', userId: 'u1', sessionId: 's1', email: 'a@example.com', tier: 'none', isAdmin: false, emailVerified: true, provedAt: Date.now() };
const operator: Caller = { kind: 'operator', userId: 'operator:x', sessionId: 'operator', email: '', tier: 'none', isAdmin: true, emailVerified: true, provedAt: Date.now() };
const viewer = (scopes: ViewerCaller['scopes']): ViewerCaller => ({ kind: 'viewer', vaultOwnerId: 'u1', viewSessionId: 'v1', scopes, expiresAt: Date.now() + 60_000, mayDownload: false });

describe('reader declarations', () => {
  const read: RpcAccess = { access: 'read', readers: ['owner', viewerOf('letters')] };

  it('admits the owner and a viewer holding a declared scope to a read, nobody else', () => {
    expect(callerMayUse(read, owner)).toBe(true);
    expect(callerMayUse(read, viewer(['letters']))).toBe(true);
    expect(callerMayUse(read, viewer(['timeline', 'who-i-am']))).toBe(false);
    expect(callerMayUse(read, viewer([]))).toBe(false);
    expect(callerMayUse(read, operator)).toBe(false);
  });

  it("admits only a user whose token carries the admin claim to an admin read", () => {
    const adminRead: RpcAccess = { access: 'read', readers: ['admin'] };
    expect(callerMayUse(adminRead, { ...owner, isAdmin: true })).toBe(true);
    expect(callerMayUse(adminRead, owner)).toBe(false);
    // The ops CLI's token says admin too, but it is no person: an admin read names 'operator' to admit it.
    expect(callerMayUse(adminRead, operator)).toBe(false);
    expect(callerMayUse(adminRead, viewer(['letters', 'timeline', 'who-i-am', 'court-journal', 'if-im-not-there']))).toBe(false);
  });

  it('never admits a viewer to a write, even one declared by a cast', () => {
    const forged = { access: 'write', writers: ['owner', { kind: 'viewer', scope: 'letters' }] } as unknown as RpcAccess;
    expect(callerMayUse(forged, viewer(['letters']))).toBe(false);
    expect(callerMayUse(forged, owner)).toBe(true);
    expect(callerMayUse({ access: 'write', writers: ['operator'] }, owner)).toBe(false);
    expect(callerMayUse({ access: 'write', writers: ['operator'] }, operator)).toBe(true);
  });

  it('refuses to declare a viewer as a writer, or an unknown scope', () => {
    // @ts-expect-error a viewer is not a Writer: the declaration does not compile...
    expect(() => Writers('owner', viewerOf('letters'))).toThrow(/a viewer never writes/);
    // ...and, cast past the compiler, it still does not load.
    expect(() => Writers('owner', viewerOf('letters') as unknown as Writer)).toThrow(/a viewer never writes/);
    expect(() => viewerOf('diary' as never)).toThrow(/unknown viewer scope/);
    expect(() => (Readers as (...r: unknown[]) => unknown)()).toThrow(/at least one reader/);
  });
});

describe('RpcHandlerRegistry', () => {
  @Controller()
  class Declared {
    @PublicRpc() @MessagePattern('spec.health') health() { return 'up'; }
    @Readers('owner', viewerOf('timeline')) @MessagePattern('spec.read') read() { return 1; }
    @Writers('owner') @MessagePattern('spec.write') write() { return 2; }
    @OperatorOnly() @MessagePattern('spec.op') op() { return 3; }
    notAHandler() { return 4; }
  }

  @Controller()
  class Forgetful {
    @MessagePattern('spec.forgotten') forgotten() { return 5; }
  }

  const registryModule = (controllers: unknown[]) => {
    @Module({ controllers: controllers as never[], providers: [DiscoveryService, MetadataScanner, RpcHandlerRegistry] })
    class SpecModule {}
    return SpecModule;
  };

  it('lists every message handler with its declaration', async () => {
    const app = await NestFactory.createApplicationContext(registryModule([Declared]), { logger: false });
    try {
      const entries = app.get(RpcHandlerRegistry).handlers().map((e) => [e.method, e.patterns, e.access]);
      expect(entries).toEqual([
        ['health', ['spec.health'], { access: 'public' }],
        ['read', ['spec.read'], { access: 'read', readers: ['owner', { kind: 'viewer', scope: 'timeline' }] }],
        ['write', ['spec.write'], { access: 'write', writers: ['owner'] }],
        ['op', ['spec.op'], { access: 'read', readers: ['operator'] }],
      ]);
    } finally {
      await app.close();
    }
  });

  it('refuses to start a service with a handler that declares nobody, naming it', async () => {
    await expect(NestFactory.createApplicationContext(registryModule([Declared, Forgetful]), { logger: false, abortOnError: false })).rejects.toThrow(
      /Forgetful\.forgotten \(spec\.forgotten\)/,
    );
  });
});
