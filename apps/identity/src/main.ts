import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { loadConfig } from '@lv/platform/config';
import { createOrm, ensureDatabase, migrateUp } from '@lv/platform/database';
import { createLogger, PinoNestLogger } from '@lv/platform/logging';
import { natsConnectionOptions } from '@lv/platform/messaging';
import { identityConfigSchema } from './config.js';
import { IdentityModule, loadKeys, openIdentityResources } from './identity.module.js';
import { identityMigrations } from './migrations.js';

const logger = createLogger('identity');

async function migrate(): Promise<void> {
  const config = loadConfig(identityConfigSchema.pick({ DATABASE_URL: true }), process.env, 'identity migrate');
  if (await ensureDatabase(config.DATABASE_URL)) logger.info('created the identity database');
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: identityMigrations, logger });
  const applied = await migrateUp(orm);
  logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date');
  await orm.close();
}

async function serve(): Promise<void> {
  const config = loadConfig(identityConfigSchema, process.env, 'identity');
  const resources = await openIdentityResources(config, logger);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(IdentityModule.forRoot(config, resources, await loadKeys(config)), {
    transport: Transport.NATS,
    // A queue group: replicas of identity share the request load.
    options: { ...natsConnectionOptions(config, 'identity-rpc'), queue: 'identity' },
    logger: new PinoNestLogger(logger),
  });
  app.enableShutdownHooks();
  await app.listen();
  logger.info('identity is listening on NATS');
}

const command = process.argv[2] ?? 'serve';
(command === 'migrate' ? migrate() : serve()).catch((error: unknown) => {
  logger.fatal({ err: error }, `identity ${command} failed: ${(error as Error).message}`);
  process.exit(1);
});
