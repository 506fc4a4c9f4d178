import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RpcDeclaration, TitlesReply } from '@lv/contracts';
import { createOrm, migrateUp } from '@lv/platform/database';
import type { RunningService } from '@lv/platform/nest';
import { answerAsService, createTestDatabase, type TestDatabase } from '@lv/testing';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The user an access token names (its `sub`), read without checking it: the stand-ins trust the spec's tokens. */
export const ownerOf = (token: string | undefined): string | undefined =>
  token ? (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub : undefined;

/** A fresh database migrated with the timeline's migrations (event store included, as its own list has it). */
export async function timelineDatabase(label: string): Promise<TestDatabase> {
  // Loaded here, once the spec has chosen its STACK_ID.
  const { timelineMigrations } = await import('../../src/migrations.js');
  const db = await createTestDatabase([], label);
  await db.orm.close();
  const orm = await createOrm({ databaseUrl: db.url, migrations: timelineMigrations, poolMax: 4 });
  await migrateUp(orm);
  (db as { orm: unknown }).orm = orm;
  return db;
}

/**
 * A service's `titles` handler, standing in on the spec's STACK_ID in Nest's NATS wire format: `answer`
 * is given the caller (from the call's access token) and the ids asked about.
 */
export async function standInTitles(declaration: RpcDeclaration, answer: (caller: string | undefined, ids: string[]) => TitlesReply): Promise<NatsConnection> {
  const nc = await connect({ servers: NATS_URL });
  answerAsService<{ ids: string[] }>(nc, declaration, ({ ids }, accessToken) => answer(ownerOf(accessToken), ids));
  await nc.flush();
  return nc;
}

/** The timeline in-process on `db`, on the spec's STACK_ID (set it first: subjects are fixed when its modules load). */
export async function startTimeline(db: TestDatabase, keys: { jwtPublicKey: string; viewerPublicKey: string }, logName: string): Promise<RunningService> {
  const { timelineService } = await import('../../src/timeline.definition.js');
  const { createLogger } = await import('@lv/platform/logging');
  const { startService } = await import('@lv/platform/nest');
  return startService(timelineService, {
    DATABASE_URL: db.url, NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.jwtPublicKey, VIEWER_JWT_PUBLIC_KEY: keys.viewerPublicKey, LOG_LEVEL: 'silent', TIMELINE_TITLES_TIMEOUT_MS: '3000',
  }, { logger: createLogger(logName, 'silent') });
}
