import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logging/index.js';
import { METRICS_CONTENT_TYPE, renderMetrics } from './metrics.js';

/** A readiness answer: ready only when every check is up. */
export interface ReadinessReport {
  status: 'up' | 'down';
  checks: Record<string, { status: 'up' | 'down'; detail?: string }>;
}

export interface OpsServerOptions {
  port: number;
  /** Unset = 127.0.0.1; 0.0.0.0 where the orchestrator probes from outside the process's loopback (a pod), on a port no Service exposes. */
  host?: string;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Whether the process may take traffic now (its connections up, migrations applied, started and not stopping). */
  readiness(): Promise<ReadinessReport>;
}

export interface OpsServer {
  /** The port it listens on (the chosen one when asked for port 0). */
  port: number;
  close(): Promise<void>;
}

const json = (status: number, body: unknown) => ({ status, type: 'application/json; charset=utf-8', body: JSON.stringify(body) });

/** Answers one ops request; exported for unit specs. */
export async function answerOpsRequest(method: string | undefined, path: string, readiness: () => Promise<ReadinessReport>): Promise<{ status: number; type: string; body: string }> {
  if (method !== 'GET' && method !== 'HEAD') return json(405, { status: 'method not allowed' });
  switch (path) {
    // Liveness: the process answers (its event loop turns). Never tied to a dependency: a database
    // outage must not make the orchestrator restart every pod at once.
    case '/health/live':
      return json(200, { status: 'up' });
    case '/health/ready':
    // The worker's containers probed /health before readiness had its own path.
    case '/health': {
      const report = await readiness();
      return json(report.status === 'up' ? 200 : 503, report);
    }
    case '/metrics':
      return { status: 200, type: METRICS_CONTENT_TYPE, body: await renderMetrics() };
    default:
      return json(404, { status: 'not found' });
  }
}

/**
 * The process's internal HTTP listener for operations: `GET /metrics` (Prometheus), `GET
 * /health/live` and `GET /health/ready`. It is never the public port: it binds 127.0.0.1 by
 * default and no Service or Ingress routes to it; it serves nothing personal.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    answerOpsRequest(req.method, path, () => options.readiness()).then(
      ({ status, type, body }) => res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      (error: unknown) => {
        options.logger.warn({ err: error, path }, 'ops listener: request failed');
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error' }));
      },
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ host, port }, `ops listener on ${host}:${port} (GET /metrics, /health/live, /health/ready)`);
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
