import { rm } from 'node:fs/promises';
import type { ServiceName } from '@lv/contracts';
import { freePort, compileForChildProcess, createTestDatabase, deleteStackStreams, startMigratedService, type ChildService, type TestDatabase } from '@lv/testing';
import { createSpecGateway, listenLocally, specWorkDirWithS3 } from './spec-gateway.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface RealServiceStackOptions {
  /** Names the scratch build, the databases and the work folder. */
  label: string;
  stackId: string;
  /** What to compile besides contracts, platform and the timeline: the service and what it needs. */
  projects: string[];
  /** The service the gateway fronts (its app folder's name). */
  service: string;
  /** The service's own settings, given its byte-stream port (the common ones are filled in). */
  serviceSettings: (httpPort: number) => Record<string, string>;
  /** The gateway setting naming the service's byte-stream URL. */
  urlSetting: string;
  jwtPublicKey: string;
  /** The streams to delete at the end. */
  streams: readonly ServiceName[];
}

export interface RealServiceStack {
  /** The gateway's base URL. */
  base: string;
  close(): Promise<void>;
}

/**
 * The gateway booted in-process in front of one real service and the timeline (which reads the
 * service's stream and names an entry's owner), both child processes built from this checkout's
 * sources, on the machine's PostgreSQL, NATS and Redis and the embedded S3 server.
 */
export async function startRealServiceStack(options: RealServiceStackOptions): Promise<RealServiceStack> {
  const { label, stackId, jwtPublicKey } = options;
  const opened: { close(): Promise<void> }[] = [];
  const close = async () => {
    // The gateway first, the folders and databases last; each part closes even if one before failed.
    for (const part of opened.reverse()) await part.close().catch(() => undefined);
    await deleteStackStreams(NATS_URL, options.streams, stackId);
  };
  const dropOnClose = (db: TestDatabase) => opened.push({ close: () => db.drop() });
  const killOnClose = (child: ChildService) => opened.push({ close: () => child.kill('SIGTERM') });
  try {
    const scratchDir = await compileForChildProcess(['libs/contracts', 'libs/platform', ...options.projects, 'apps/timeline'], `gw-${label}`);
    opened.push({ close: () => rm(scratchDir, { recursive: true, force: true }) });
    const db = await createTestDatabase([], `gw${label.replace(/-/g, '')}`);
    dropOnClose(db);
    const timelineDb = await createTestDatabase([], `gw${label.replace(/-/g, '')}tl`);
    dropOnClose(timelineDb);
    const work = await specWorkDirWithS3(label);
    opened.push(work);
    const common = { NATS_URL, REDIS_URL, STACK_ID: stackId, JWT_PUBLIC_KEY: jwtPublicKey, LOG_LEVEL: 'info' };
    const httpPort = await freePort();
    killOnClose(await startMigratedService(scratchDir, options.service, {
      DATABASE_URL: db.url, ...common,
      S3_ENDPOINT: work.s3.endpoint, S3_ACCESS_KEY: work.s3.accessKey, S3_SECRET_KEY: work.s3.secretKey,
      ...options.serviceSettings(httpPort),
    }));
    killOnClose(await startMigratedService(scratchDir, 'timeline', { DATABASE_URL: timelineDb.url, ...common }));
    const app = await createSpecGateway({
      NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: jwtPublicKey, RPC_TIMEOUT_MS: '5000',
      WEB_DIST_DIR: work.web, [options.urlSetting]: `http://127.0.0.1:${httpPort}`, HOST: '127.0.0.1', PORT: '0',
    });
    opened.push(app);
    return { base: await listenLocally(app), close };
  } catch (error) {
    await close();
    throw error;
  }
}
