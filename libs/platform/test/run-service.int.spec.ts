import { randomBytes, randomUUID } from 'node:crypto';
import { Controller, type OnApplicationShutdown } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Migration } from '@mikro-orm/migrations';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { emptyPayload, healthRpc, replyType, rpc as declareRpc } from '@lv/contracts';
import { generateTestKeys, POSTGRES_ADMIN_URL, uniqueStackId, waitFor } from '@lv/testing';
import { AccessTokenSigner } from '../src/auth/index.js';
import { commonConfigSchema, ConfigError, databaseConfigSchema, type z } from '../src/config/index.js';
import { withEventStoreSchema } from '../src/event-store/schema.js';
import type { DomainError } from '../src/errors/index.js';
import { createLogger } from '../src/logging/index.js';
import { connectNats, scopedStreamName, scopedSubject } from '../src/messaging/index.js';
import { RpcClient } from '../src/nest/rpc-client.js';
import { Readers } from '../src/nest/readers.js';
import { migrateService, startService, type RunningService, type ServiceDefinition, type ServiceParts } from '../src/nest/run-service.js';

// A tiny service started by the platform's runService machinery on the machine's real PostgreSQL,
// NATS and Redis, under a STACK_ID of its own. It is named after a service that does not exist yet
// (billing), so its stream and subjects are those a real service would get.

process.env.STACK_ID = uniqueStackId('runsvc');
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PROBE = declareRpc('rpc.billing.probe', { payload: emptyPayload, reply: replyType<{ ok: true }>() });
const PROBE_SUBJECT = PROBE.subject;
const keys = generateTestKeys();
const logger = createLogger('run-service-spec', 'silent');

class ProbeTable20261124 extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table probe (id int primary key)');
  }
}

/** What happened, in order: the spec's record of start-up and shutdown. */
const happened: string[] = [];
let probeUp = true;

@Controller()
class ProbeController implements OnApplicationShutdown {
  // Owners only: the platform's guard must demand a caller.
  @Readers('owner')
  @MessagePattern(scopedSubject(PROBE_SUBJECT))
  probe(): { ok: true } {
    return { ok: true };
  }

  onApplicationShutdown(): void {
    happened.push('nest app closed');
  }
}

const configSchema = commonConfigSchema.extend(databaseConfigSchema.shape);
type ProbeConfig = z.infer<typeof configSchema>;

function probeDefinition(client: () => RpcClient): ServiceDefinition<ProbeConfig> {
  return {
    name: 'billing',
    configSchema,
    migrations: withEventStoreSchema([{ name: 'probe-table-2026-11-24', class: ProbeTable20261124 }]),
    setup: ({ core }): ServiceParts => {
      happened.push('setup');
      return {
        controllers: [ProbeController],
        health: { probe: () => { if (!probeUp) throw new Error('the probe is down'); } },
        consumers: [{ start: async () => { happened.push('consumer started'); }, stop: async () => { happened.push('consumer stopped'); } }],
        tasks: [{ name: 'tick', everyMs: 60_000, run: async () => { happened.push('task ran'); } }],
        listeners: [{
          start: async () => { happened.push('listener started'); },
          stop: async () => {
            // Requests stop first: by now nobody answers on NATS.
            const code = await client().call(healthRpc('billing'), {}, { meta: { requestId: 'during-stop' } }, 1000).then(() => 'answered', (e: DomainError) => e.code);
            happened.push(`listener stopped (health: ${code})`);
          },
        }],
        close: async () => {
          // Before the core connections: the database still answers.
          await core.orm.em.fork().execute('select 1');
          happened.push('service resources closed');
        },
      };
    },
  };
}

describe('runService: one bootstrap for every service', () => {
  const databaseName = `lv_test_runsvc_${randomBytes(4).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${databaseName}` }).toString();
  const env = { DATABASE_URL: databaseUrl, NATS_URL, REDIS_URL: process.env.REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, LOG_LEVEL: 'silent' };
  const rpc = new RpcClient(NATS_URL, 5000, 'run-service-spec');
  const definition = probeDefinition(() => rpc);
  let service: RunningService | undefined;

  /** Sessions open on the spec's database (the admin connection is on another one). */
  const connectionsToDatabase = async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [databaseName]);
      return rows[0]!.n;
    } finally {
      await admin.end();
    }
  };
  const noConnectionsLeft = () => waitFor(async () => (await connectionsToDatabase()) === 0, 5000, 'no connection left to the database');

  beforeAll(async () => {
    await rpc.connect();
  });

  afterAll(async () => {
    await service?.close();
    await rpc.close();
    const nc = await connectNats(NATS_URL, 'cleanup');
    await (await jetstreamManager(nc)).streams.delete(scopedStreamName('billing')).catch(() => undefined);
    await nc.close();
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
  });

  it('refuses a configuration that lacks a variable, naming it', async () => {
    const { JWT_PUBLIC_KEY: _omitted, ...incomplete } = env;
    await expect(startService(definition, incomplete, { logger })).rejects.toThrow(ConfigError);
    await expect(startService(definition, incomplete, { logger })).rejects.toThrow(/JWT_PUBLIC_KEY/);
  });

  it('migrate creates the database and applies the migrations once', async () => {
    expect(await migrateService(definition, env, logger)).toEqual(['event-store-schema-2026-11-22', 'erasure-journal-2026-12-07', 'probe-table-2026-11-24']);
    expect(await migrateService(definition, env, logger)).toEqual([]);
  });

  it('starts in the queue group with consumers, tasks and listeners, and answers health without a token', async () => {
    service = await startService(definition, env, { logger });
    // The task's first run is not awaited by start-up (a long sweep must not delay it).
    await waitFor(async () => happened.includes('task ran'), 2000, 'the task ran at start');
    expect(happened.filter((h) => h !== 'task ran')).toEqual(['setup', 'consumer started', 'listener started']);
    // The probe table exists: the service runs on the migrated database.
    await expect(service.core.orm.em.fork().execute('select count(*) from probe')).resolves.toBeDefined();
    const health = await rpc.call(healthRpc('billing'), {}, { meta: { requestId: 'spec' } });
    expect(health).toEqual({ service: 'billing', status: 'up', checks: { postgres: { status: 'up' }, probe: { status: 'up' } } });
  });

  it("reports the definition's own checks: down, with the reason", async () => {
    probeUp = false;
    const health = await rpc.call(healthRpc('billing'), {}, { meta: { requestId: 'spec' } });
    probeUp = true;
    expect(health).toEqual({ service: 'billing', status: 'down', checks: { postgres: { status: 'up' }, probe: { status: 'down', detail: 'the probe is down' } } });
  });

  it("guards the definition's handlers: no token is UNAUTHENTICATED, a user's token passes", async () => {
    const codeOf = (p: Promise<unknown>) => p.then(() => 'OK', (e: DomainError) => e.code);
    expect(await codeOf(rpc.call(PROBE, {}, { meta: { requestId: 'spec' } }))).toBe('UNAUTHENTICATED');
    expect(await codeOf(rpc.call(PROBE, {}, { accessToken: 'not-a-token', meta: { requestId: 'spec' } }))).toBe('UNAUTHENTICATED');
    const userId = randomUUID();
    const token = new AccessTokenSigner(keys.privateKey).sign({ sub: userId, sid: randomUUID(), email: 'probe@example.com', tier: 'none', admin: false, kind: 'user' }, 60).token;
    expect(await rpc.call(PROBE, {}, { accessToken: token, meta: { requestId: 'spec' } })).toEqual({ ok: true });
  });

  it('shuts down in order: requests, listeners, consumers and tasks, Nest, its own resources, then the connections', async () => {
    happened.length = 0;
    const running = service!;
    await running.close();
    await running.close(); // a second call (a signal during an explicit close) waits for the first
    expect(happened).toEqual(['listener stopped (health: SERVICE_UNAVAILABLE)', 'consumer stopped', 'nest app closed', 'service resources closed']);
    expect(await running.core.orm.isConnected()).toBe(false);
    expect(running.core.nats.isClosed()).toBe(true);
    await noConnectionsLeft();
    service = undefined;
  });

  it('refuses to start on a database with pending migrations, and leaves nothing open', async () => {
    const newer: ServiceDefinition<ProbeConfig> = {
      ...definition,
      migrations: [...definition.migrations, { name: 'probe-more-2026-11-25', class: ProbeTable20261124 }],
      setup: () => { throw new Error('setup must not run'); },
    };
    await expect(startService(newer, env, { logger })).rejects.toThrow(/1 pending migration/);
    await noConnectionsLeft();
  });

  it('closes what it opened when setup fails', async () => {
    const failing: ServiceDefinition<ProbeConfig> = { ...definition, setup: () => { throw new Error('storage unreachable'); } };
    await expect(startService(failing, env, { logger })).rejects.toThrow('storage unreachable');
    // Nothing answers: no half-started service stayed on NATS.
    const code = await rpc.call(healthRpc('billing'), {}, { meta: { requestId: 'spec' } }, 1000).then(() => 'answered', (e: DomainError) => e.code);
    expect(code).toBe('SERVICE_UNAVAILABLE');
    await noConnectionsLeft();
  });
});
