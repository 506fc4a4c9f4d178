import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ServiceName } from '@lv/contracts';
import { removeBucket, runRestore, serviceDatabase, type BackupSettings, type RestoreSummary } from '@lv/platform/backup';
import type { ServiceMigration } from '@lv/platform/database';
import { createObjectStorage, type ObjectStorage } from '@lv/platform/storage';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from './database.js';

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

/** The S3 stand-in a drill runs, and stops at the end. */
export interface RunningDrillObjectStore extends DrillObjectStore {
  close(): Promise<void>;
}

/** One service's restore drill: what it backs up and where a restore puts it. */
export interface RestoreDrill {
  work: string;
  s3: RunningDrillObjectStore;
  /** The service's database before the stack is lost. */
  source: TestDatabase;
  /** The erasure journal's database, which no backup takes (the service creates it). */
  journalDatabase: string;
  /** The service's database as a restore makes it. */
  restoredDatabase: string;
  /** A client of the drill's object store. */
  storage(): ObjectStorage;
  settings(): BackupSettings;
  /**
   * The stack is lost: the source database dropped and `buckets` removed (stop the service first);
   * then `snapshot` is restored into the empty server and bucket store.
   */
  loseAndRestore(snapshot: string, buckets?: string[]): Promise<RestoreSummary>;
  /** Stops the object store and removes every database and file of the drill. */
  close(): Promise<void>;
}

/**
 * A restore drill for `service`: a work folder, the object store `startS3` starts in the folder it is
 * given, and a fresh source database (migrated with `migrations`).
 */
export async function openRestoreDrill(options: {
  label: string;
  service: ServiceName;
  migrations?: ServiceMigration[];
  startS3: (directory: string) => Promise<RunningDrillObjectStore>;
}): Promise<RestoreDrill> {
  const hex = () => randomBytes(4).toString('hex');
  const label = options.label.replace(/[^a-z0-9]/gi, '').toLowerCase();
  const work = await mkdtemp(join(tmpdir(), `lv-${label}-`));
  const s3 = await options.startS3(join(work, 's3'));
  const source = await createTestDatabase(options.migrations ?? [], label);
  const journalDatabase = `lv_test_erasures_${label.slice(0, 12)}_${hex()}`;
  const prefix = `lv_drill_${hex()}_`;
  const storage = () => createObjectStorage({ S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
  const settings = () => restoreDrillSettings({ work, s3, databases: [{ service: options.service, name: source.name }], databasePrefix: prefix });
  return {
    work, s3, source, journalDatabase, restoredDatabase: serviceDatabase(prefix, options.service), storage, settings,
    loseAndRestore: async (snapshot, buckets = []) => {
      await source.drop();
      for (const bucket of buckets) await removeBucket(storage(), bucket);
      return runRestore(settings(), snapshot);
    },
    close: async () => {
      await source.drop().catch(() => undefined);
      for (const database of [serviceDatabase(prefix, options.service), journalDatabase]) await queryDatabase('postgres', `drop database if exists "${database}" with (force)`);
      await s3.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}
