import { Inject, Module, type DynamicModule, type OnApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Redis } from 'ioredis';
import type { NatsConnection } from '@nats-io/transport-node';
import type { MikroORM } from '@mikro-orm/postgresql';
import { AccessTokenSigner, AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { createOrm } from '@lv/platform/database';
import { OutboxRelay } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { connectNats, ensureServiceStream } from '@lv/platform/messaging';
import { RpcCallerGuard, RpcErrorFilter } from '@lv/platform/nest';
import type { IdentityConfig } from './config.js';
import { SignInLimiter } from './credentials/sign-in-limiter.js';
import { IdentityController } from './identity.controller.js';
import { IdentityService } from './identity.service.js';
import { identityMigrations } from './migrations.js';

export const IDENTITY_RESOURCES = Symbol('IDENTITY_RESOURCES');

/** Connections the service owns; opened before Nest starts and closed when it stops. */
export interface IdentityResources {
  orm: MikroORM;
  redis: Redis;
  nats: NatsConnection;
  relay: OutboxRelay;
}

export async function openIdentityResources(config: IdentityConfig, logger: Logger): Promise<IdentityResources> {
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: identityMigrations, poolMax: config.DATABASE_POOL_MAX, logger });
  const pending = await orm.migrator.getPending();
  if (pending.length) throw new Error(`identity: ${pending.length} pending migration(s); run \`node apps/identity/dist/main.js migrate\` first`);
  const redis = new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const nats = await connectNats(config.NATS_URL, 'identity-events');
  await ensureServiceStream(nats, 'identity', undefined, { replicas: config.JETSTREAM_REPLICAS });
  const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, nats, logger: logger.child({ component: 'outbox-relay' }), stackId: process.env.STACK_ID });
  return { orm, redis, nats, relay };
}

@Module({})
export class IdentityModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(IDENTITY_RESOURCES) private readonly resources: IdentityResources) {}

  static forRoot(config: IdentityConfig, resources: IdentityResources, keys: { privateKey: string; publicKey: string }): DynamicModule {
    const revokedSessions = new RevokedSessions(resources.redis, Math.max(3600, config.ACCESS_TOKEN_TTL_SECONDS));
    const verifier = new AccessTokenVerifier(keys.publicKey, revokedSessions);
    const service = new IdentityService({
      orm: resources.orm,
      signer: new AccessTokenSigner(keys.privateKey),
      revokedSessions,
      limiter: new SignInLimiter(resources.redis, {
        maxFailuresPerAccount: config.SIGNIN_MAX_FAILURES_PER_ACCOUNT,
        maxFailuresPerAddress: config.SIGNIN_MAX_FAILURES_PER_ADDRESS,
        windowSeconds: config.SIGNIN_WINDOW_SECONDS,
      }, process.env.STACK_ID ? `lv:${process.env.STACK_ID}:signin` : 'lv:signin'),
      accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
      refreshReuseGraceMs: config.REFRESH_REUSE_GRACE_MS,
    });
    return {
      module: IdentityModule,
      controllers: [IdentityController],
      providers: [
        { provide: IDENTITY_RESOURCES, useValue: resources },
        { provide: IdentityService, useValue: service },
        { provide: AccessTokenVerifier, useValue: verifier },
        { provide: APP_GUARD, useClass: RpcCallerGuard },
        { provide: APP_FILTER, useClass: RpcErrorFilter },
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.resources.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.resources.relay.stop();
    await this.resources.nats.drain().catch(() => undefined);
    this.resources.redis.disconnect();
    await this.resources.orm.close();
  }
}

export async function loadKeys(config: IdentityConfig): Promise<{ privateKey: string; publicKey: string }> {
  return { privateKey: await readPem(config.JWT_PRIVATE_KEY), publicKey: await readPem(config.JWT_PUBLIC_KEY) };
}
