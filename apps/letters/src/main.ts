import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { loadConfig } from '@lv/platform/config';
import { createOrm, ensureDatabase, migrateUp } from '@lv/platform/database';
import { createLogger, PinoNestLogger } from '@lv/platform/logging';
import { natsConnectionOptions } from '@lv/platform/messaging';
import { lettersConfigSchema } from './config.js';
import { LettersModule, loadPublicKey, openLettersResources } from './letters.module.js';
import { lettersMigrations } from './migrations.js';

const logger = createLogger('letters');

async function migrate(): Promise<void> {
  const config = loadConfig(lettersConfigSchema.pick({ DATABASE_URL: true }), process.env, 'letters migrate');
  if (await ensureDatabase(config.DATABASE_URL)) logger.info('created the letters database');
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: lettersMigrations, logger });
  const applied = await migrateUp(orm);
  logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date');
  await orm.close();
}

async function serve(): Promise<void> {
  const config = loadConfig(lettersConfigSchema, process.env, 'letters');
  const resources = await openLettersResources(config, logger);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(LettersModule.forRoot(config, resources, await loadPublicKey(config)), {
    transport: Transport.NATS,
    // A queue group: replicas of letters share the request load.
    options: { ...natsConnectionOptions(config, 'letters-rpc'), queue: 'letters' },
    logger: new PinoNestLogger(logger),
  });
  app.enableShutdownHooks();
  await app.listen();
  logger.info('letters is listening on NATS');
}

const command = process.argv[2] ?? 'serve';
(command === 'migrate' ? migrate() : serve()).catch((error: unknown) => {
  logger.fatal({ err: error }, `letters ${command} failed: ${(error as Error).message}`);
  process.exit(1);
});
