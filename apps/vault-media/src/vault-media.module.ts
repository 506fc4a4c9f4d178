import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Redis } from 'ioredis';
import type { NatsConnection } from '@nats-io/transport-node';
import type { MikroORM } from '@mikro-orm/postgresql';
import { MEDIA_BUCKET } from '@lv/contracts';
import { AccessTokenVerifier, RevokedSessions } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import { DurableConsumer, OutboxRelay } from '@lv/platform/event-store';
import type { Logger } from '@lv/platform/logging';
import { ensureServiceStream } from '@lv/platform/messaging';
import { openServiceCore, RpcCallerGuard, RpcClient, RpcErrorFilter } from '@lv/platform/nest';
import { createQueue, createRedisConnection, QueueNames, type TypedQueue } from '@lv/platform/queues';
import { createObjectStorage, type ObjectStorage } from '@lv/platform/storage';
import type { VaultMediaConfig } from './config.js';
import { createHashEnqueuer } from './hashing/hash-enqueuer.js';
import { MediaHttpServer } from './http/media-http.server.js';
import { MediaService } from './media.service.js';
import { MediaLinkSigner } from './playback/media-links.js';
import { lettersTitleLookup } from './timeline/letter-titles.js';
import { applyLetterEvent, TIMELINE_LETTER_SUBJECTS } from './timeline/timeline.projection.js';
import { VaultMediaController } from './vault-media.controller.js';
import { vaultMediaMigrations } from './migrations.js';

export const VAULT_MEDIA_RESOURCES = Symbol('VAULT_MEDIA_RESOURCES');

/** Connections the service owns; opened before Nest starts and closed when it stops. */
export interface VaultMediaResources {
  orm: MikroORM;
  redis: Redis;
  nats: NatsConnection;
  relay: OutboxRelay;
  storage: ObjectStorage;
  queueConnection: Redis;
  hashingQueue: TypedQueue<'media-hashing'>;
  rpc: RpcClient;
  logger: Logger;
}

export async function openVaultMediaResources(config: VaultMediaConfig, logger: Logger): Promise<VaultMediaResources> {
  const { orm, redis, nats, relay } = await openServiceCore('vault-media', config, vaultMediaMigrations, logger);
  // The timeline reads the letters stream; creating it (with letters' own settings) if letters has not
  // started yet lets the durable consumer attach now and read every letter event once they come.
  await ensureServiceStream(nats, 'letters', undefined, { replicas: config.JETSTREAM_REPLICAS });
  const storage = createObjectStorage(config, { partSize: config.MEDIA_PART_SIZE_MB * 1024 * 1024 });
  await storage.ensureBucket(MEDIA_BUCKET);
  const queueConnection = createRedisConnection(config.REDIS_URL, { role: 'producer', name: 'vault-media' });
  queueConnection.on('error', (error: Error) => logger.warn({ err: error }, 'queue connection error'));
  const hashingQueue = createQueue(QueueNames.MediaHashing, queueConnection);
  hashingQueue.on('error', (error: Error) => logger.debug({ err: error }, 'media-hashing queue error'));
  const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'vault-media');
  await rpc.connect();
  return { orm, redis, nats, relay, storage, queueConnection, hashingQueue, rpc, logger };
}

/** Everything the module runs beside the NATS handlers: the byte-stream listener, consumers, sweeper. */
interface VaultMediaRuntime {
  service: MediaService;
  http: MediaHttpServer;
  consumers: DurableConsumer[];
  sweepIntervalMs: number;
}

@Module({})
export class VaultMediaModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    @Inject(VAULT_MEDIA_RESOURCES) private readonly resources: VaultMediaResources,
    @Inject('VAULT_MEDIA_RUNTIME') private readonly runtime: VaultMediaRuntime,
  ) {}

  static forRoot(config: VaultMediaConfig, resources: VaultMediaResources, publicKey: string): DynamicModule {
    const revokedSessions = new RevokedSessions(resources.redis);
    const verifier = new AccessTokenVerifier(publicKey, revokedSessions);
    const logger = resources.logger;
    const service = new MediaService({
      orm: resources.orm,
      storage: resources.storage,
      signer: new MediaLinkSigner(config.MEDIA_LINK_SECRET),
      revokedSessions,
      logger,
      maxUploadBytes: config.MEDIA_MAX_UPLOAD_BYTES,
      uploadStaleSeconds: config.MEDIA_UPLOAD_STALE_SECONDS,
      letterTitles: lettersTitleLookup(resources.rpc),
    });
    const http = new MediaHttpServer(service, verifier, logger, { host: config.MEDIA_HTTP_HOST, port: config.MEDIA_HTTP_PORT });
    const stackId = process.env.STACK_ID;
    const consumers = [
      new DurableConsumer({
        name: 'timeline-from-letters',
        source: 'letters',
        subjects: TIMELINE_LETTER_SUBJECTS,
        orm: resources.orm,
        nats: resources.nats,
        logger: logger.child({ component: 'timeline-from-letters' }),
        stackId,
        handle: applyLetterEvent,
      }),
      createHashEnqueuer({ orm: resources.orm, nats: resources.nats, logger, queue: resources.hashingQueue, reportToken: (id) => service.reportTokenFor(id), stackId }),
    ];
    const runtime: VaultMediaRuntime = { service, http, consumers, sweepIntervalMs: config.MEDIA_SWEEP_INTERVAL_SECONDS * 1000 };
    return {
      module: VaultMediaModule,
      controllers: [VaultMediaController],
      providers: [
        { provide: VAULT_MEDIA_RESOURCES, useValue: resources },
        { provide: 'VAULT_MEDIA_RUNTIME', useValue: runtime },
        { provide: MediaService, useValue: service },
        { provide: MediaHttpServer, useValue: http },
        { provide: AccessTokenVerifier, useValue: verifier },
        { provide: APP_GUARD, useClass: RpcCallerGuard },
        { provide: APP_FILTER, useClass: RpcErrorFilter },
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.resources.relay.start();
    for (const consumer of this.runtime.consumers) await consumer.start();
    await this.runtime.http.start();
    // Sweep once at start (a restart after a crash cleans up at once), then on a timer.
    const sweep = () => {
      if (this.sweeping) return;
      this.sweeping = this.runtime.service.sweep()
        .catch((err: unknown) => this.resources.logger.warn({ err }, 'sweep failed; will retry'))
        .finally(() => { this.sweeping = null; });
    };
    sweep();
    this.sweepTimer = setInterval(sweep, this.runtime.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.sweeping;
    await this.runtime.http.stop().catch(() => undefined);
    for (const consumer of this.runtime.consumers) await consumer.stop().catch(() => undefined);
    await this.resources.relay.stop();
    await this.resources.rpc.close().catch(() => undefined);
    await this.resources.hashingQueue.close().catch(() => undefined);
    this.resources.queueConnection.disconnect();
    await this.resources.nats.drain().catch(() => undefined);
    this.resources.redis.disconnect();
    await this.resources.orm.close();
  }
}

export async function loadPublicKey(config: VaultMediaConfig): Promise<string> {
  return readPem(config.JWT_PUBLIC_KEY);
}
