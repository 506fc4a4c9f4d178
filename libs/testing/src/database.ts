import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createOrm, migrateUp, type MikroORM, type ServiceMigration } from '@lv/platform/database';
import { withEventStoreSchema } from '@lv/platform/event-store';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  orm: MikroORM;
  drop(): Promise<void>;
}

/**
 * A fresh database for one spec file, migrated with the service's migrations (event store
 * included). Specs never share state, so they can run in parallel and in any order.
 */
export async function createTestDatabase(migrations: ServiceMigration[], label = 'spec'): Promise<TestDatabase> {
  const name = `lv_test_${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const dropDatabase = async () => {
    const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await c.connect();
    try {
      await c.query(`drop database if exists "${name}" with (force)`);
      // The erasure journal a service started on this database made beside it (erasure-journal.ts).
      await c.query(`drop database if exists "${name}_erasures" with (force)`);
    } finally {
      await c.end();
    }
  };
  let orm: MikroORM | undefined;
  try {
    orm = await createOrm({ databaseUrl: url.toString(), migrations: withEventStoreSchema(migrations), poolMax: 12 });
    await migrateUp(orm);
  } catch (error) {
    // A migration that fails must not leave a half-made database behind on every run.
    await orm?.close(true).catch(() => undefined);
    await dropDatabase().catch(() => undefined);
    throw error;
  }
  const ready = orm;
  return {
    url: url.toString(),
    name,
    orm: ready,
    async drop() {
      await ready.close(true);
      await dropDatabase();
    },
  };
}
