import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { loadConfig } from '@lv/platform/config';
import { createOrm, ensureDatabase, migrateUp } from '@lv/platform/database';
import { createLogger, PinoNestLogger } from '@lv/platform/logging';
import { timelineConfigSchema } from './config.js';
import { TimelineModule, loadPublicKey, openTimelineResources } from './timeline.module.js';
import { timelineMigrations } from './migrations.js';

const logger = createLogger('timeline');

async function migrate(): Promise<void> {
  const config = loadConfig(timelineConfigSchema.pick({ DATABASE_URL: true }), process.env, 'timeline migrate');
  if (await ensureDatabase(config.DATABASE_URL)) logger.info('created the timeline database');
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: timelineMigrations, logger });
  const applied = await migrateUp(orm);
  logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date');
  await orm.close();
}

async function serve(): Promise<void> {
  const config = loadConfig(timelineConfigSchema, process.env, 'timeline');
  const resources = await openTimelineResources(config, logger);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(TimelineModule.forRoot(config, resources, await loadPublicKey(config)), {
    transport: Transport.NATS,
    // A queue group: replicas of the timeline share the request load.
    options: { servers: config.NATS_URL.split(','), queue: 'timeline', name: 'timeline-rpc', maxReconnectAttempts: -1, reconnectTimeWait: 500 },
    logger: new PinoNestLogger(logger),
  });
  app.enableShutdownHooks();
  await app.listen();
  logger.info('timeline is listening on NATS');
}

const command = process.argv[2] ?? 'serve';
(command === 'migrate' ? migrate() : serve()).catch((error: unknown) => {
  logger.fatal({ err: error }, `timeline ${command} failed: ${(error as Error).message}`);
  process.exit(1);
});
