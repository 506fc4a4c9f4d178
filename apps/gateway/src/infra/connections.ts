import { Redis } from 'ioredis';
import { AccessTokenVerifier, REVOCATION_CACHE_MS, RevokedSessions, RevokedViewSessions, ViewerTokenVerifier } from '@lv/platform/auth';
import { readPem } from '@lv/platform/config';
import type { Logger } from '@lv/platform/logging';
import { RpcClient } from '@lv/platform/nest';
import type { GatewayConfig } from '../config.js';
import { NatsProbe } from './nats-probe.js';

/** Everything outside the process the gateway talks to. It owns no data: these are all clients. */
export interface GatewayConnections {
  rpc: RpcClient;
  redis: Redis;
  verifier: AccessTokenVerifier;
  /** Absent when no VIEWER_JWT_PUBLIC_KEY is configured: viewer routes then refuse everyone. */
  viewerVerifier?: ViewerTokenVerifier;
  nats: NatsProbe;
}

/**
 * Opens the gateway's clients. None of them blocks the start when its server is down: requests that
 * need it fail fast (503) and /api/health says which one is missing, until it comes back.
 */
export async function openConnections(config: GatewayConfig, logger: Logger): Promise<GatewayConnections> {
  const publicKey = await readPem(config.JWT_PUBLIC_KEY).catch((error: unknown) => {
    throw new Error(`JWT_PUBLIC_KEY: cannot read the public key (${(error as Error).message})`);
  });

  // No offline queue: while Redis is unreachable a revocation lookup fails at once (503) instead of waiting.
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000 });
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));
  await redis.connect().catch((error: unknown) => logger.warn({ err: error }, 'Redis not reachable at start; retrying in the background'));

  const verifier = new AccessTokenVerifier(publicKey, new RevokedSessions(redis, undefined, { cache: { ttlMs: REVOCATION_CACHE_MS } }));
  const viewerKey = config.VIEWER_JWT_PUBLIC_KEY
    ? await readPem(config.VIEWER_JWT_PUBLIC_KEY).catch((error: unknown) => {
        throw new Error(`VIEWER_JWT_PUBLIC_KEY: cannot read the public key (${(error as Error).message})`);
      })
    : undefined;
  const viewerVerifier = viewerKey ? new ViewerTokenVerifier(viewerKey, new RevokedViewSessions(redis)) : undefined;

  const rpc = new RpcClient(config, config.RPC_TIMEOUT_MS, 'gateway');
  await rpc.connect().catch((error: unknown) => logger.warn({ err: error }, 'NATS not reachable at start; RPCs will retry the connection'));

  const nats = new NatsProbe(config, logger);
  nats.start();

  return { rpc, redis, verifier, ...(viewerVerifier && { viewerVerifier }), nats };
}

export async function closeConnections(connections: GatewayConnections): Promise<void> {
  await Promise.allSettled([connections.rpc.close(), connections.nats.close(), connections.verifier.close(), connections.redis.quit().catch(() => connections.redis.disconnect())]);
}
