import { createObjectStorage } from '@lv/platform/storage';
import type { GatewayConfig } from '../config.js';

/** What /api/health asks object storage. */
export interface StorageProbe {
  /** Resolves when the store answers a signed request (credentials included) in time; throws otherwise. */
  ping(timeoutMs: number): Promise<void>;
  /** host:port, shown in the health detail. */
  readonly target: string;
}

/**
 * Object storage reachability, through the platform's storage client built from the S3_* settings
 * (a signed ListBuckets, so a wrong key shows up as "down" too). The gateway stores nothing itself.
 */
export function createStorageProbe(config: Pick<GatewayConfig, 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY'>): StorageProbe {
  const storage = createObjectStorage(config);
  return {
    target: new URL(config.S3_ENDPOINT).host,
    ping: (timeoutMs) => storage.ping(timeoutMs),
  };
}
