import { createObjectStorage, type ObjectStorage } from '@lv/platform/storage';
import { createLogger } from '@lv/platform/logging';
import { migrateService, startService } from '@lv/platform/nest';
import { databaseUrl } from '@lv/testing';
import { courtJournalService } from '../../src/court-journal.definition.js';
import { COURT_LINK_SECRET, NATS_URL, REDIS_URL } from './harness.js';

// court-journal as the erasure specs start it: on a database of their choosing (the source, then the one a
// restore made) with the erasure journal in a database of its own, which no backup takes. Import it after
// setting process.env.STACK_ID, as the service definition reads it when it loads.

/** The S3 server the spec runs (tools/dev/s3-server.mjs). */
export interface SpecS3 {
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
}

export interface RestorableCourtOptions {
  s3: SpecS3;
  journalDatabase: string;
  jwtPublicKey: string;
  evidenceSigningKey: string;
  logName: string;
}

/** Migrates `database` and starts court-journal on it. */
export async function startCourtOn(database: string, options: RestorableCourtOptions): Promise<Awaited<ReturnType<typeof startService>>> {
  const { s3 } = options;
  const env = {
    DATABASE_URL: databaseUrl(database), ERASURE_JOURNAL_URL: databaseUrl(options.journalDatabase), NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: options.jwtPublicKey, LOG_LEVEL: 'silent',
    S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey,
    COURT_JOURNAL_HTTP_PORT: '0', COURT_LINK_SECRET, EVIDENCE_SIGNING_KEY: options.evidenceSigningKey, COURT_SWEEP_INTERVAL_SECONDS: '3600', RPC_TIMEOUT_MS: '3000',
  };
  const logger = createLogger(options.logName, 'silent');
  await migrateService(courtJournalService, env, logger);
  return startService(courtJournalService, env, { logger });
}

const specStorage = (s3: SpecS3): ObjectStorage => createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });

/** Whether the object is in the bucket. */
export const objectExists = (s3: SpecS3, bucket: string, key: string): Promise<boolean> => specStorage(s3).client.statObject(bucket, key).then(() => true, () => false);
