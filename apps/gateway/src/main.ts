import { ConfigError, loadConfig } from '@lv/platform/config';
import { createLogger } from '@lv/platform/logging';
import { mountQueueDashboard } from './admin/queue-dashboard.js';
import { createGatewayApp } from './app.factory.js';
import { gatewayConfigSchema, type GatewayConfig } from './config.js';

function readConfig(): GatewayConfig {
  try {
    return loadConfig(gatewayConfigSchema, process.env, 'gateway');
  } catch (error) {
    if (error instanceof ConfigError) {
      // Fail fast, naming every missing or malformed variable.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);

try {
  const app = await createGatewayApp(config, {
    logger,
    // The queue dashboard is mounted here only: @bull-board cannot be loaded by the test runner.
    extend: (fastify, { connections }) => mountQueueDashboard(fastify, { verifier: connections.verifier, redisUrl: config.REDIS_URL, logger }),
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen({ port: config.PORT, host: config.HOST });
  const url = await app.getUrl();
  logger.info({ url }, `gateway listening on ${url} (SPA /, API /api, docs /api/docs)`);
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
}
