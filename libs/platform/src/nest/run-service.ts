import 'reflect-metadata';
import { Controller, Module, type DynamicModule, type INestMicroservice, type Provider, type Type } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { MessagePattern, ServerNats, type MicroserviceOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { healthRpc, type ServiceHealthReply, type ServiceName } from '@lv/contracts';
import { AccessTokenVerifier, REVOCATION_CACHE_MS, RevokedSessions } from '../auth/index.js';
import { databaseConfigSchema, loadConfig, readPem, z } from '../config/index.js';
import { createOrm, ensureDatabase, migrateUp, pingDatabase, withMigrationLock, type ServiceMigration } from '../database/index.js';
import { createLogger, PinoNestLogger, type Logger } from '../logging/index.js';
import { scopedSubject } from '../messaging/subjects.js';
import { natsConnectionOptions } from '../messaging/connection.js';
import { enableProcessMetrics, startOpsServer, type OpsServer, type ReadinessReport } from '../observability/index.js';
import { PublicRpc } from './caller.js';
import { rpcAuthProviders } from './rpc-handler-registry.js';
import { RpcErrorFilter } from './rpc-exception.filter.js';
import { RpcObservationInterceptor } from './rpc-observation.js';
import { closeServiceCore, openServiceCore, type ServiceCore, type ServiceCoreConfig } from './service-core.js';

/** The variables runService itself reads (commonConfigSchema + databaseConfigSchema provide them). */
export interface ServiceConfig extends ServiceCoreConfig {
  JWT_PUBLIC_KEY: string;
  /** The viewer tokens' public key (access-keys signs them); without it every viewer token is refused. */
  VIEWER_JWT_PUBLIC_KEY?: string;
  LOG_LEVEL: string;
  RPC_TIMEOUT_MS: number;
  /** The internal ops listener (metrics, liveness, readiness); 0 or unset = none. */
  OPS_HTTP_PORT?: number;
  OPS_HTTP_HOST?: string;
}

/** What a service's setup gets: its validated config and what the platform already opened. */
export interface ServiceContext<C extends ServiceConfig> {
  config: C;
  core: ServiceCore;
  logger: Logger;
  /** Verifies access tokens (identity's public key, revoked sessions in Redis); the RPC guard uses it too. */
  verifier: AccessTokenVerifier;
}

/** Something with a start and a stop: a durable consumer, an HTTP listener for bytes. */
export interface Startable {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A check of the health reply: resolves when up, throws (its message is the detail) when down. */
export type HealthCheck = () => void | Promise<void>;

/** Work on a timer (a sweeper): run at start, then every `everyMs`, never two runs at once. */
export interface ServiceTask {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/** What a service is made of, beside what every service gets from the platform. */
export interface ServiceParts {
  controllers: Type[];
  providers?: Provider[];
  /** Extra checks of the health reply, after `postgres` (which the platform always checks). */
  health?: Record<string, HealthCheck>;
  /** Durable consumers: started before requests are taken, stopped after requests stop. */
  consumers?: Startable[];
  tasks?: ServiceTask[];
  /** Other ways in that take requests (vault-media's byte-stream HTTP listener): started last, stopped first. */
  listeners?: Startable[];
  /** Closes what setup opened itself (clients, queues), after the Nest app and before the core connections. */
  close?: () => Promise<void>;
}

export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  name: ServiceName;
  configSchema: z.ZodType<C>;
  /** The service's migrations, the event store's first (withEventStoreSchema). */
  migrations: ServiceMigration[];
  setup(context: ServiceContext<C>): ServiceParts | Promise<ServiceParts>;
}

/** Types a definition (the config type is inferred from the schema). */
export function defineService<C extends ServiceConfig>(definition: ServiceDefinition<C>): ServiceDefinition<C> {
  return definition;
}

/** A running service, for `main.ts` (stopped on SIGTERM/SIGINT) and for integration specs. */
export interface RunningService<C extends ServiceConfig = ServiceConfig> {
  app: INestMicroservice;
  config: C;
  core: ServiceCore;
  logger: Logger;
  /** Ordered shutdown; safe to call more than once (later calls wait for the first). */
  close(): Promise<void>;
  /** The ops listener's port (GET /metrics, /health/live, /health/ready), when OPS_HTTP_PORT set one. */
  opsPort?: number;
}

export interface StartOptions {
  logger?: Logger;
}

/** A health check that does not answer within this time is reported down. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

/** Runs each check with a time limit and reports the service up only when every check is up. */
export async function checkHealth(service: string, checks: Record<string, HealthCheck>, timeoutMs = HEALTH_CHECK_TIMEOUT_MS): Promise<ServiceHealthReply> {
  const entries = await Promise.all(Object.entries(checks).map(async ([name, check]) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(check),
        new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs); }),
      ]);
      return [name, { status: 'up' as const }] as const;
    } catch (error) {
      return [name, { status: 'down' as const, detail: (error as Error)?.message ?? String(error) }] as const;
    } finally {
      clearTimeout(timer);
    }
  }));
  const result = Object.fromEntries(entries) as ServiceHealthReply['checks'];
  return { service, status: entries.every(([, c]) => c.status === 'up') ? 'up' : 'down', checks: result };
}

/**
 * A health check whose "up" is remembered for `upForMs`: for a check that costs a connection of its
 * own (notifications' SMTP `verify()` opens one each time, which made every `GET /api/health` wait
 * about 100 ms). Calls made while a check runs share it; a failure is never remembered, so a dependency
 * that went down is reported at the next call after the remembered "up" runs out, and one that came
 * back at the next call.
 */
export function rememberUp(check: HealthCheck, upForMs: number, now: () => number = Date.now): HealthCheck {
  let upUntil = -Infinity;
  let running: Promise<void> | null = null;
  return () => {
    if (now() < upUntil) return;
    running ??= Promise.resolve()
      .then(check)
      .then(() => { upUntil = now() + upForMs; })
      .finally(() => { running = null; });
    return running;
  };
}

/**
 * A task on a timer: runs once at start (a restart after a crash cleans up at once), then every
 * `everyMs`. A run still going when the timer fires is left alone; stop() waits for it. A failed
 * run is logged and retried at the next tick.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly task: ServiceTask, private readonly logger: Pick<Logger, 'warn'>) {}

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.task.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = Promise.resolve()
      .then(() => this.task.run())
      .then(() => undefined, (err: unknown) => this.logger.warn({ err, task: this.task.name }, `${this.task.name} failed; will retry`))
      .finally(() => { this.running = null; });
  }
}

/**
 * Runs shutdown steps in order. A step that fails is logged and the next ones still run, so one
 * stuck consumer never keeps the database pool open; the errors are returned.
 */
export async function runInOrder(steps: readonly [name: string, step: () => unknown][], logger: Pick<Logger, 'error'>): Promise<Error[]> {
  const errors: Error[] = [];
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      errors.push(error as Error);
      logger.error({ err: error }, `shutdown: ${name} failed`);
    }
  }
  return errors;
}

/** The health handler every service answers on `rpc.<service>.health`, open to anyone (container probes, the gateway). */
function healthController(subject: string, report: () => Promise<ServiceHealthReply>): Type {
  @Controller()
  class ServiceHealthController {
    @PublicRpc()
    @MessagePattern(subject)
    health(): Promise<ServiceHealthReply> {
      return report();
    }
  }
  return ServiceHealthController;
}

@Module({})
class ServiceModule {}

/**
 * Nest's NATS server, minus one cost on every message: it finds the handler by first trying
 * JSON.parse on the subject (for object patterns), which throws, with a stack trace, for every
 * subject a service answers. The services' patterns are all plain subjects (@RpcHandler,
 * @MessagePattern(subject)), which Nest's own fallback then uses as they are: the same route.
 */
export class ServiceNatsServer extends ServerNats {
  override getRouteFromPattern(pattern: string): string {
    return this.normalizePattern(pattern);
  }

  /**
   * Nest calls back "listening" as soon as it has asked for its subscriptions, while they may still be
   * on their way to the server: readiness turned on then, and a request sent at once found no
   * responder (SERVICE_UNAVAILABLE under load). The flush's answer proves the server has them.
   */
  override start(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    this.bindEvents(this.unwrap());
    this.unwrap<NatsConnection>().flush().then(() => callback(), (error: unknown) => callback(error));
  }
}

/** Creates the service's database when missing and applies its pending migrations. */
export async function migrateService(definition: Pick<ServiceDefinition, 'name' | 'migrations'>, env: NodeJS.ProcessEnv = process.env, logger: Logger = createLogger(definition.name, env.LOG_LEVEL)): Promise<string[]> {
  const config = loadConfig(databaseConfigSchema.pick({ DATABASE_URL: true }), env, `${definition.name} migrate`);
  if (await ensureDatabase(config.DATABASE_URL)) logger.info(`created the ${definition.name} database`);
  return withMigrationLock(config.DATABASE_URL, async () => {
    const orm = await createOrm({ databaseUrl: config.DATABASE_URL, migrations: definition.migrations, logger });
    try {
      const applied = await migrateUp(orm);
      logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'database is up to date');
      return applied;
    } finally {
      await orm.close();
    }
  }, ({ pid }) => logger.info({ holderPid: pid }, `another runner is migrating the ${definition.name} database; waiting for its lock`));
}

/**
 * Readiness of a running service: its own health checks (postgres and the service's) plus NATS,
 * Redis and the migrations, and whether it has finished starting and is not stopping. A service
 * that is not ready takes no new traffic from the orchestrator; it is not restarted for it.
 */
export async function serviceReadiness(state: { accepting: boolean }, core: ServiceCore | undefined, checks: Record<string, HealthCheck>, service: string): Promise<ReadinessReport> {
  if (!state.accepting || !core) return { status: 'down', checks: { started: { status: 'down', detail: core ? 'stopping' : 'starting' } } };
  const report = await checkHealth(service, {
    ...checks,
    nats: async () => {
      if (core.nats.isClosed()) throw new Error('connection closed');
      await core.nats.flush();
    },
    redis: async () => { await core.redis.ping(); },
    migrations: async () => {
      const pending = await core.orm.migrator.getPending();
      if (pending.length) throw new Error(`${pending.length} pending migration(s)`);
    },
  });
  return { status: report.status, checks: report.checks };
}

/**
 * Starts a service: validates its config, opens the core connections (refusing a database with
 * pending migrations), builds its Nest NATS microservice in the service's queue group with the RPC
 * guard on every handler and the error filter, answers health, then starts the outbox relay,
 * consumers, tasks and listeners. Nothing is left open when a step fails.
 */
export async function startService<C extends ServiceConfig>(definition: ServiceDefinition<C>, env: NodeJS.ProcessEnv = process.env, options: StartOptions = {}): Promise<RunningService<C>> {
  // loadConfig takes object schemas; every service's schema is one (commonConfigSchema.extend...).
  const config = loadConfig(definition.configSchema as unknown as z.ZodObject, env, definition.name) as C;
  const logger = options.logger ?? createLogger(definition.name, config.LOG_LEVEL);
  enableProcessMetrics(definition.name);
  // The ops listener comes up first: liveness answers while the service starts, readiness once it listens.
  const readiness = { accepting: false, core: undefined as ServiceCore | undefined, checks: {} as Record<string, HealthCheck> };
  const ops: OpsServer | undefined = config.OPS_HTTP_PORT
    ? await startOpsServer({ port: config.OPS_HTTP_PORT, host: config.OPS_HTTP_HOST, logger, readiness: () => serviceReadiness(readiness, readiness.core, readiness.checks, definition.name) })
    : undefined;
  let core: ServiceCore;
  try {
    core = await openServiceCore(definition.name, config, definition.migrations, logger);
  } catch (error) {
    await ops?.close();
    throw error;
  }
  readiness.core = core;
  const steps: [string, () => unknown][] = [];
  let app: INestMicroservice | undefined;
  let parts: ServiceParts | undefined;
  let verifierToClose: AccessTokenVerifier | undefined;
  const tasks: PeriodicTask[] = [];
  const started = { consumers: [] as Startable[], listeners: [] as Startable[] };

  // Ordered shutdown: stop taking requests, then background work, then Nest, then connections.
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      readiness.accepting = false;
      steps.push(['NATS requests', (): unknown => app?.getTransportServer().close()]);
      for (const listener of [...started.listeners].reverse()) steps.push(['listener', () => listener.stop()]);
      for (const consumer of [...started.consumers].reverse()) steps.push(['consumer', () => consumer.stop()]);
      for (const task of tasks) steps.push([`task`, () => task.stop()]);
      steps.push(['Nest application', () => app?.close()]);
      if (parts?.close) steps.push(['service resources', parts.close]);
      if (verifierToClose) steps.push(['revocation subscription', () => verifierToClose!.close()]);
      steps.push(['core connections', () => closeServiceCore(core)]);
      if (ops) steps.push(['ops listener', () => ops.close()]);
      await runInOrder(steps, logger);
      logger.info(`${definition.name} stopped`);
    })();
    return closing;
  };

  try {
    const verifier = new AccessTokenVerifier(await readPem(config.JWT_PUBLIC_KEY), new RevokedSessions(core.redis, undefined, { cache: { ttlMs: REVOCATION_CACHE_MS } }));
    verifierToClose = verifier;
    parts = await definition.setup({ config, core, logger, verifier });
    const checks: Record<string, HealthCheck> = { postgres: () => pingDatabase(core.orm.em), ...parts.health };
    readiness.checks = checks;
    const module: DynamicModule = {
      module: ServiceModule,
      controllers: [...parts.controllers, healthController(scopedSubject(healthRpc(definition.name)), () => checkHealth(definition.name, checks))],
      providers: [
        ...(parts.providers ?? []),
        // The guard on every handler (owner, operator or viewer, as each declares), and the registry
        // that refuses to start a service with an undeclared handler.
        { provide: AccessTokenVerifier, useValue: verifier },
        ...rpcAuthProviders({ accessTokens: verifier, viewerPublicKey: config.VIEWER_JWT_PUBLIC_KEY, redis: core.redis }),
        { provide: APP_FILTER, useClass: RpcErrorFilter },
        // Every handler runs under its request's trace (log lines, events, jobs) and is counted and timed.
        { provide: APP_INTERCEPTOR, useClass: RpcObservationInterceptor },
      ],
    };
    app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
      // A queue group: replicas of a service share the request load.
      strategy: new ServiceNatsServer({ ...natsConnectionOptions(config, `${definition.name}-rpc`), queue: definition.name }),
      logger: new PinoNestLogger(logger),
    });
    await app.init();
    await core.relay.start();
    for (const consumer of parts.consumers ?? []) {
      await consumer.start();
      started.consumers.push(consumer);
    }
    for (const task of parts.tasks ?? []) {
      const periodic = new PeriodicTask(task, logger);
      periodic.start();
      tasks.push(periodic);
    }
    for (const listener of parts.listeners ?? []) {
      await listener.start();
      started.listeners.push(listener);
    }
    await app.listen();
  } catch (error) {
    await close();
    throw error;
  }
  readiness.accepting = true;
  logger.info(`${definition.name} is listening on NATS`);
  return { app, config, core, logger, close, ...(ops && { opsPort: ops.port }) };
}

/**
 * A service's whole `main.ts`: `node main.js migrate` migrates and exits; `node main.js` (serve)
 * starts the service and shuts it down in order on SIGTERM or SIGINT.
 */
export function runService<C extends ServiceConfig>(definition: ServiceDefinition<C>, argv: readonly string[] = process.argv): void {
  const logger = createLogger(definition.name);
  const command = argv[2] ?? 'serve';
  const fail = (error: unknown) => {
    logger.fatal({ err: error }, `${definition.name} ${command} failed: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  };
  if (command === 'migrate') {
    migrateService(definition, process.env, logger).then(() => process.exit(0), fail);
    return;
  }
  if (command !== 'serve') return fail(new Error(`unknown command "${command}": use serve or migrate`));
  startService(definition, process.env, { logger }).then((service) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      // A second signal while stopping means "now".
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, `${definition.name} is stopping`);
      service.close().then(() => process.exit(0), fail);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  }, fail);
}
