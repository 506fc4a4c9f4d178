import { join } from 'node:path';
import pg from 'pg';
import type { BackupSettings } from '@lv/platform/backup';
import { POSTGRES_ADMIN_URL } from './database.js';

/** The URL of a database of the specs' PostgreSQL server, by name. */
export function databaseUrl(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One query on a database by name, on a connection of its own (a restored database, the journal's). */
export async function queryDatabase<T extends pg.QueryResultRow>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The S3 stand-in a drill backs up (tools/dev/s3-server.mjs's running server). */
export interface DrillObjectStore {
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
}

/**
 * Backup settings for a spec's restore drill: a restic repository, keys and staging under `work`, the
 * given service databases, restored under `databasePrefix`.
 */
export function restoreDrillSettings(options: { work: string; s3: DrillObjectStore; databases: BackupSettings['databases']; databasePrefix: string }): BackupSettings {
  const { work, s3 } = options;
  return {
    repository: { repository: join(work, 'repo'), password: 'spec-repository-password-0123456789abcdef', env: { ...process.env, RESTIC_CACHE_DIR: join(work, 'restic-cache') } },
    serverUrl: POSTGRES_ADMIN_URL,
    databases: options.databases,
    databasePrefix: options.databasePrefix,
    storage: { S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey },
    keysDir: join(work, 'keys'),
    secrets: {},
    stagingDir: join(work, 'staging'),
  };
}
