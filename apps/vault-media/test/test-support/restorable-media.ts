import { createLogger } from '@lv/platform/logging';
import { migrateService, startService } from '@lv/platform/nest';
import { databaseUrl, type DrillObjectStore } from '@lv/testing';
import { vaultMediaService } from '../../src/vault-media.definition.js';
import { MEDIA_LINK_SECRET, NATS_URL, REDIS_URL } from './harness.js';

// vault-media as the erasure specs start it: on a database of their choosing (the source, then the one a
// restore made) with the erasure journal in a database of its own, which no backup takes. Import it after
// setting process.env.STACK_ID, as the service definition reads it when it loads.

export interface RestorableMediaOptions {
  s3: DrillObjectStore;
  journalDatabase: string;
  jwtPublicKey: string;
  logName: string;
}

/** Migrates `database` and starts vault-media on it. */
export async function startMediaOn(database: string, options: RestorableMediaOptions): Promise<Awaited<ReturnType<typeof startService>>> {
  const { s3 } = options;
  const env = {
    DATABASE_URL: databaseUrl(database), ERASURE_JOURNAL_URL: databaseUrl(options.journalDatabase), NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: options.jwtPublicKey, LOG_LEVEL: 'silent',
    S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
    MEDIA_HTTP_PORT: '0', MEDIA_LINK_SECRET, MEDIA_PART_SIZE_MB: '5', MEDIA_SWEEP_INTERVAL_SECONDS: '3600', RPC_TIMEOUT_MS: '3000',
  };
  const logger = createLogger(options.logName, 'silent');
  await migrateService(vaultMediaService, env, logger);
  return startService(vaultMediaService, env, { logger });
}
