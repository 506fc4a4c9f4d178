import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Redis } from 'ioredis';
import type { NatsConnection } from '@nats-io/transport-node';
import type { MikroORM } from '@mikro-orm/postgresql';
import { AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { createOrm } from '@lv/platform/database';
import { OutboxRelay } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { connectNats, ensureServiceStream } from '@lv/platform/messaging';
import { RpcCallerGuard, RpcErrorFilter } from '@lv/platform/nest';
import type { LettersConfig } from './config.js';
import { LettersController } from './letters.controller.js';
import { LettersService } from './letters.service.js';
import { lettersMigrations } from './migrations.js';

export const LETTERS_RESOURCES = Symbol('LETTERS_RESOURCES');

/** Connections the service owns; opened before Nest starts and closed when it stops. */
export interface LettersResources {
  orm: MikroORM;
  redis: Redis;
  nats: NatsConnection;
  relay: OutboxRelay;
}

export async function openLettersResources(config: LettersConfig, logger: Logger): Promise<LettersResources> {
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: lettersMigrations, poolMax: config.DATABASE_POOL_MAX, logger });
  const pending = await orm.migrator.getPending();
  if (pending.length) throw new Error(`letters: ${pending.length} pending migration(s); run \`node apps/letters/dist/main.js migrate\` first`);
  const redis = new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const nats = await connectNats(config.NATS_URL, 'letters-events');
  await ensureServiceStream(nats, 'letters', undefined, { replicas: config.JETSTREAM_REPLICAS });
  const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, nats, logger: logger.child({ component: 'outbox-relay' }), stackId: process.env.STACK_ID });
  return { orm, redis, nats, relay };
}

@Module({})
export class LettersModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(LETTERS_RESOURCES) private readonly resources: LettersResources) {}

  static forRoot(config: LettersConfig, resources: LettersResources, publicKey: string): DynamicModule {
    // Revocations are read with the same lifetime identity writes them with (the longest access token).
    const verifier = new AccessTokenVerifier(publicKey, new RevokedSessions(resources.redis));
    return {
      module: LettersModule,
      controllers: [LettersController],
      providers: [
        { provide: LETTERS_RESOURCES, useValue: resources },
        { provide: LettersService, useValue: new LettersService({ orm: resources.orm }) },
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

export async function loadPublicKey(config: LettersConfig): Promise<string> {
  return readPem(config.JWT_PUBLIC_KEY);
}
