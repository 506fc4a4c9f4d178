import { ConfigError, loadConfig } from '@lv/platform/config';
import { createLogger } from '@lv/platform/logging';
import { enableProcessMetrics, startOpsServer, type ReadinessReport } from '@lv/platform/observability';
import { mountQueueDashboard } from './admin/queue-dashboard.js';
import { createGatewayApp } from './app.factory.js';
import { gatewayConfigSchema, type GatewayConfig } from './config.js';
import { HealthService } from './health/health.service.js';

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
enableProcessMetrics('gateway');

/** The checks the gateway's own readiness rests on: a service that is down makes /api/health say so, but must not take the SPA and every other route out of rotation. */
const GATEWAY_READINESS_CHECKS = ['nats', 'redis'] as const;

try {
  const app = await createGatewayApp(config, {
    logger,
    // The queue dashboard is mounted here only: @bull-board cannot be loaded by the test runner.
    extend: (fastify, { connections }) => mountQueueDashboard(fastify, { verifier: connections.verifier, redisUrl: config.REDIS_URL, logger }),
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  if (config.OPS_HTTP_PORT) {
    const health = app.get(HealthService);
    let accepting = true;
    const ops = await startOpsServer({
      port: config.OPS_HTTP_PORT,
      host: config.OPS_HTTP_HOST,
      logger,
      readiness: async (): Promise<ReadinessReport> => {
        if (!accepting) return { status: 'down', checks: { started: { status: 'down', detail: 'stopping' } } };
        const report = await health.report({ requestId: `ops-ready-${Date.now()}` });
        const checks = Object.fromEntries(GATEWAY_READINESS_CHECKS.map((name) => [name, report.checks[name] ?? { status: 'down' as const, detail: 'not reported' }]));
        return { status: Object.values(checks).every((c) => c.status === 'up') ? 'up' : 'down', checks };
      },
    });
    app.getHttpAdapter().getInstance().addHook('onClose', async () => {
      accepting = false;
      await ops.close();
    });
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const url = await app.getUrl();
  logger.info({ url }, `gateway listening on ${url} (SPA /, API /api, docs /api/docs)`);
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
}
