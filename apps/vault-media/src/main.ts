import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { loadConfig } from '@lv/platform/config';
import { createOrm, ensureDatabase, migrateUp } from '@lv/platform/database';
import { createLogger, PinoNestLogger } from '@lv/platform/logging';
import { natsConnectionOptions } from '@lv/platform/messaging';
import { vaultMediaConfigSchema } from './config.js';
import { loadPublicKey, openVaultMediaResources, VaultMediaModule } from './vault-media.module.js';
import { vaultMediaMigrations } from './migrations.js';

const logger = createLogger('vault-media');

async function migrate(): Promise<void> {
  const config = loadConfig(vaultMediaConfigSchema.pick({ DATABASE_URL: true }), process.env, 'vault-media migrate');
  if (await ensureDatabase(config.DATABASE_URL)) logger.info('created the vault-media database');
  const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: vaultMediaMigrations, logger });
  const applied = await migrateUp(orm);
  logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date');
  await orm.close();
}

async function serve(): Promise<void> {
  const config = loadConfig(vaultMediaConfigSchema, process.env, 'vault-media');
  const resources = await openVaultMediaResources(config, logger);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(VaultMediaModule.forRoot(config, resources, await loadPublicKey(config)), {
    transport: Transport.NATS,
    // A queue group: replicas of vault-media share the request load.
    options: { ...natsConnectionOptions(config, 'vault-media-rpc'), queue: 'vault-media' },
    logger: new PinoNestLogger(logger),
  });
  app.enableShutdownHooks();
  await app.listen();
  logger.info('vault-media is listening on NATS');
}

const command = process.argv[2] ?? 'serve';
(command === 'migrate' ? migrate() : serve()).catch((error: unknown) => {
  logger.fatal({ err: error }, `vault-media ${command} failed: ${(error as Error).message}`);
  process.exit(1);
});
