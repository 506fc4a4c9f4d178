// Starts the whole of Legacy Vault on this machine, for `npm start` (tools/dev/start.mjs) and for
// the browser tests of `npm test` (tools/test/run-all.mjs):
//   1. PostgreSQL, Redis and NATS (JetStream): the URLs given, the machine's own, or private instances
//      started here with their data under <dataDir>/pg, redis, nats (tools/dev/infra.mjs)
//   2. RS256 keys, generated once into <dataDir>/keys
//   3. the S3-protocol server (<dataDir>/s3) as a process of its own, as MinIO would be, and the SMTP
//      catcher (<dataDir>/mail) in this process
//   4. with `fresh`: drops the databases of the prefix, the JetStream streams of the STACK_ID and
//      the stack's Redis database (never the developer's: fresh refuses the default prefix/db 0)
//   5. `node <entry> migrate` for every process with a database, one after the other
//   6. every process of tools/dev/services.mjs as a child, log lines prefixed with its name
//   7. waits until GET /api/health answers 200, or fails naming the check that stayed down
// Resolves to { url, mailUrl, ..., stop() }; stop() ends every child (SIGTERM, then SIGKILL).
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { services, healthServiceNames, databaseName, mediaHttp } from './services.mjs';
import { ensureEvidenceKey, ensureJwtKeys } from './keys.mjs';
import { DEFAULT_S3_ACCESS_KEY, DEFAULT_S3_SECRET_KEY } from './s3-server.mjs';
import { startSmtpCatcher } from './smtp-catcher.mjs';
import { freePort, provideInfrastructure, withDatabase, withRedisDb, InfraError } from './infra.mjs';
import { waitForHealth } from './stack-health.mjs';
import { assertPortFree, nodeBinary, root, SERVICE_HEAP_FLAGS, SERVICE_NODE_FLAGS, StackError } from './stack-node.mjs';
import { formatLogLine, running, runToCompletion, startS3Process } from './stack-processes.mjs';
import { dropLock, flushRedisDb, reapLeftovers, resetDatabases, resetJetStream, takeLock } from './stack-state.mjs';

// The pieces live in stack-*.mjs by responsibility; what other tools import is exported from here.
export { freePort };
export { describeHealth } from './stack-health.mjs';
export { assertPortFree, needsAsyncContextFrameFlag, nodeBinary, root, SERVICE_HEAP_FLAGS, SERVICE_NODE_FLAGS, StackError } from './stack-node.mjs';
export { formatLogLine } from './stack-processes.mjs';

/**
 * @param {object} options
 * @param {number} [options.port=3000]      the gateway's port
 * @param {string} [options.host='127.0.0.1']
 * @param {string} [options.dataDir='.data'] keys, S3 data, caught mail (relative to the repo root)
 * @param {string} [options.dbPrefix='lv_'] database names are <dbPrefix><service>
 * @param {boolean} [options.fresh=false]   drop and recreate the stack's databases, streams and Redis db
 * @param {string} [options.stackId='']     STACK_ID given to every process
 * @param {number} [options.redisDb=0]      Redis database index (the e2e stack uses its own)
 * @param {number} [options.s3Port=9000]    0 = any free port (also smtpPort, mailHttpPort)
 * @param {{ postgres: string, redis: string, nats: string }} [options.infra] servers already provided
 *        (tools/dev/infra.mjs); without it the stack provides them itself and stops its private ones
 * @param {boolean} [options.privateInfra]   private PostgreSQL/Redis/NATS even when the machine runs its own
 * @param {Record<string,string|undefined>} [options.infraEnv=process.env] where POSTGRES_URL, REDIS_URL and
 *        NATS_URL are read from (a spec of private instances passes {} so the runner's own URLs don't win)
 * @param {Record<string, number>} [options.replicas] processes per service (default 1), e.g. { identity: 3 }
 *        for the scale-out bench: replicas share the service's NATS queue group. Only for services that
 *        listen on no port of their own (not the gateway, not vault-media's byte-stream listener).
 * @param {Record<string, string[]>} [options.nodeArgs] Node flags for one service's processes, e.g.
 *        { gateway: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] } to profile it alone
 * @param {{ accessKey: string, secretKey: string }} [options.s3Credentials] the S3-protocol server's key
 *        (default the dev key, which NODE_ENV=production refuses as a published placeholder)
 * @param {(name: string, env: Record<string, string | undefined>) => Record<string, string | undefined>} [options.processEnv]
 *        variables set over a process's own (migrations included; undefined unsets one), e.g. its NATS
 *        user, password and TLS CA for a server that takes only those (the production-shape spec)
 * @param {(line: string) => void} [options.log=console.log]
 */
export async function startStack(options = {}) {
  const {
    port = 3000,
    host = '127.0.0.1',
    dataDir: dataDirOption = '.data',
    dbPrefix = 'lv_',
    fresh = false,
    stackId = '',
    redisDb = 0,
    s3Port = 9000,
    smtpPort = 1025,
    mailHttpPort = 1080,
    logLevel = process.env.LOG_LEVEL ?? 'info',
    nodeEnv = 'development',
    healthTimeoutMs = Number(process.env.STACK_HEALTH_TIMEOUT_MS ?? 90_000),
    stopTimeoutMs = 10_000,
    log = (line) => console.log(line),
    /** Aborting it (Ctrl-C during start-up) stops what was started and rejects. */
    signal,
    // Where the services' entries live (the repo root; a scratch copy when testing this file alone).
    appRoot = root,
    infra: givenInfra,
    /** Restart a process that dies after the stack is ready (with backoff), instead of leaving it down. */
    supervise = true,
    restartBackoffMs = 1000,
    restartBackoffMaxMs = 30_000,
    privateInfra = process.env.LV_PRIVATE_INFRA === '1',
    infraEnv = process.env,
    replicas = {},
    nodeArgs = {},
    s3Credentials = { accessKey: DEFAULT_S3_ACCESS_KEY, secretKey: DEFAULT_S3_SECRET_KEY },
    processEnv = () => ({}),
  } = options;
  for (const [name, count] of Object.entries(replicas)) {
    const svc = services.find((s) => s.name === name);
    if (!svc || svc.kind === 'gateway' || !Number.isInteger(count) || count < 1) throw new StackError(`replicas: ${name} x ${count} is not possible (a service name and a whole number from 1)`);
  }
  const dataDir = resolve(root, dataDirOption);
  const infraHost = '127.0.0.1';

  if (fresh && (dbPrefix === 'lv_' || !dbPrefix)) throw new StackError('fresh: true drops databases: give a dbPrefix of its own (e.g. lv_e2e_), never the default lv_');
  if (fresh && redisDb === 0) throw new StackError('fresh: true flushes the Redis database: give a redisDb of its own (not 0)');

  for (const svc of services) {
    if (!existsSync(join(appRoot, svc.entry))) throw new StackError(`${svc.entry} is missing: build first (node tools/build/build.mjs)`);
  }

  // The data dir first: private PostgreSQL/Redis/NATS keep their data in it.
  const lockPath = join(dataDir, 'stack.pid');
  takeLock(lockPath);
  try {
    await reapLeftovers(dataDir, log);
    await assertPortFree(port, host, 'gateway');
  } catch (err) {
    dropLock(lockPath);
    throw err;
  }
  let provided;
  let infra = givenInfra;
  if (!infra) {
    try {
      provided = await provideInfrastructure({ dataDir, root, force: privateInfra, env: infraEnv, log });
    } catch (err) {
      dropLock(lockPath);
      throw err instanceof InfraError ? new StackError(err.message) : err;
    }
    infra = provided.urls;
    if (provided.private.length) log(`[stack] private instances (data in ${dataDir}): ${provided.private.join(', ')}; the machine's own are left alone`);
  }
  const releaseInfra = async () => {
    dropLock(lockPath);
    await provided?.stop();
  };
  // One stack per database prefix, whatever its data dir: a fresh start drops the prefix's databases.
  // A session-level advisory lock, held for the stack's life, is released even if this process dies.
  const prefixLock = new pg.Client({ connectionString: infra.postgres, application_name: `lv-stack ${dbPrefix}` });
  prefixLock.on('error', () => undefined);
  try {
    await prefixLock.connect();
  } catch (err) {
    await releaseInfra();
    throw err;
  }
  // The same goes for what else a stack owns: its STACK_ID (JetStream names) and its Redis database.
  const claims = [
    [`db:${dbPrefix}`, `another stack with databases ${dbPrefix}* is running on this machine; stop it first${fresh ? ' (a fresh start would drop its databases)' : ''}`],
    ...(stackId ? [[`stack:${stackId}`, `another stack with STACK_ID ${stackId} is running on this machine; give this one another id`]] : []),
    [`redis:${redisDb}`, `another stack uses Redis database ${redisDb} on this machine; give this one another (redisDb)`],
  ];
  for (const [key, message] of claims) {
    const { rows: [lock] } = await prefixLock.query("select pg_try_advisory_lock(hashtext('lv-stack:' || $1)) as ok", [key]);
    if (!lock.ok) {
      await prefixLock.end();
      await releaseInfra();
      throw new StackError(message);
    }
  }

  const cleanups = [];
  const children = [];
  let stopping = false;
  let stopped;
  const exitListeners = [];

  const stop = () => {
    if (stopped) return stopped;
    stopping = true;
    stopped = (async () => {
      // The gateway first (no new requests), then the services, each SIGTERM then SIGKILL.
      const order = [...children].reverse();
      const gateway = order.filter((c) => c.kind === 'gateway');
      const rest = order.filter((c) => c.kind !== 'gateway');
      for (const group of [gateway, rest]) {
        await Promise.all(group.map((c) => c.terminate(stopTimeoutMs)));
      }
      // A migration still running (interrupted start-up).
      for (const child of running) if (!children.some((c) => c.child === child)) child.kill('SIGTERM');
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
      await prefixLock.end().catch(() => undefined);
      await releaseInfra().catch(() => undefined);
    })();
    return stopped;
  };

  const onAbort = () => { stop(); };
  signal?.addEventListener('abort', onAbort, { once: true });
  const step = () => { if (stopping) throw new StackError('interrupted'); };

  try {
    const keys = ensureJwtKeys({ privateKeyPath: join(dataDir, 'keys', 'jwt-private.pem'), publicKeyPath: join(dataDir, 'keys', 'jwt-public.pem') });
    // Viewer tokens (view sessions of a vault) have a key pair of their own, apart from identity's.
    const viewerKeys = ensureJwtKeys({ privateKeyPath: join(dataDir, 'keys', 'viewer-jwt-private.pem'), publicKeyPath: join(dataDir, 'keys', 'viewer-jwt-public.pem') });
    // court-journal's evidence key (Ed25519): kept like the others, so bundles exported earlier still verify.
    const evidenceKey = ensureEvidenceKey({ privateKeyPath: join(dataDir, 'keys', 'evidence-private.pem'), publicKeyPath: join(dataDir, 'keys', 'evidence-public.pem') });
    if (keys.created || viewerKeys.created || evidenceKey.created) log(`[stack] generated keys in ${join(dataDir, 'keys')}`);

    const s3 = await startS3Process({
      port: s3Port,
      host: infraHost,
      directory: join(dataDir, 's3'),
      accessKey: s3Credentials.accessKey,
      secretKey: s3Credentials.secretKey,
      log,
    }).catch((err) => {
      throw new StackError(`S3-protocol server: could not listen on ${infraHost}:${s3Port} (${err.code ?? err.message}); is Legacy Vault already running?`);
    });
    cleanups.push(() => s3.close());
    const mail = await startSmtpCatcher({
      smtpPort,
      httpPort: mailHttpPort,
      host: infraHost,
      directory: join(dataDir, 'mail'),
      log: (m) => log(`[mail] ${m}`),
    }).catch((err) => {
      throw new StackError(err.message);
    });
    cleanups.push(() => mail.close());

    const natsUrl = infra.nats;
    const redisUrl = withRedisDb(infra.redis, redisDb);
    const databaseSuffixes = services.filter((s) => s.database).map((s) => s.database);

    step();
    if (fresh) {
      await resetDatabases(infra.postgres, dbPrefix, databaseSuffixes, log);
      if (stackId) await resetJetStream(natsUrl, stackId, log);
      await flushRedisDb(infra.redis, redisDb, log);
    }

    // Internal listeners (vault-media's and court-journal's byte streams) get free ports of their own.
    const internalPorts = { 'vault-media': await freePort(infraHost), 'court-journal': await freePort(infraHost) };
    // Every process's ops listener (GET /metrics, /health/live, /health/ready) on a loopback port of its own
    // (stack.json: opsPorts); replicas of one service (the scale-out bench) would share it, so they get none.
    const opsPorts = {};
    for (const svc of services) if ((replicas[svc.name] ?? 1) === 1) opsPorts[svc.name] = await freePort(infraHost);

    const ctx = {
      internalPorts,
      natsUrl,
      redisUrl,
      stackId,
      logLevel,
      nodeEnv,
      databaseUrl: (suffix) => withDatabase(infra.postgres, databaseName(dbPrefix, suffix)),
      jwt: { publicKey: keys.publicKey, privateKey: keys.privateKey },
      viewerJwt: { publicKey: viewerKeys.publicKey, privateKey: viewerKeys.privateKey },
      evidenceKey: { publicKey: evidenceKey.publicKey, privateKey: evidenceKey.privateKey },
      s3: { endpoint: s3.endpoint, region: s3.region, accessKey: s3.accessKey, secretKey: s3.secretKey },
      smtp: { host: infraHost, port: mail.smtpPort },
      http: { host, port },
      webDistDir: join(appRoot, 'apps', 'web', 'dist'),
      healthServices: healthServiceNames(),
    };
    const envFor = (svc) => {
      const env = { ...process.env, ...svc.env(ctx), OPS_HTTP_PORT: String(opsPorts[svc.name] ?? 0) };
      return { ...env, ...processEnv(svc.name, env) };
    };

    for (const svc of services.filter((s) => s.database)) {
      step();
      log(`[stack] migrating ${svc.name} (${databaseName(dbPrefix, svc.database)})`);
      await runToCompletion(`${svc.name}:migrate`, [svc.entry, 'migrate'], envFor(svc), { log, timeoutMs: 180_000, cwd: appRoot });
    }

    let rejectEarlyExit;
    const earlyExit = new Promise((_, reject) => { rejectEarlyExit = reject; });
    earlyExit.catch(() => undefined);
    let ready = false;

    // After the stack is ready a process that dies is restarted with backoff (1 s, 2 s, 4 s ... 30 s;
    // back to 1 s once it has run for a minute): `npm start` also runs the product on a home server.
    const restartDelayMs = (attempt) => Math.min(restartBackoffMaxMs, restartBackoffMs * 2 ** Math.max(0, attempt - 1));
    const writeInfo = () => {
      if (!infoWritten) return;
      infoWritten.children = children.map((c) => ({ name: c.name, pid: c.pid }));
      writeFileSync(join(dataDir, 'stack.json'), JSON.stringify(infoWritten, null, 2));
    };
    let infoWritten = null;

    const launch = (svc, record) => {
      const tail = [];
      const child = spawn(nodeBinary(), [...SERVICE_NODE_FLAGS, ...SERVICE_HEAP_FLAGS, ...(nodeArgs[svc.name] ?? []), svc.entry], { cwd: appRoot, env: envFor(svc), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      running.add(child);
      child.once('exit', () => running.delete(child));
      record.child = child;
      record.pid = child.pid;
      record.exited = false;
      record.startedAt = Date.now();
      record.exitPromise = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => {
          const text = formatLogLine(line);
          tail.push(text);
          if (tail.length > 40) tail.shift();
          log(`[${svc.name}] ${text}`);
        });
      }
      child.once('error', (err) => log(`[stack] could not start ${svc.name}: ${err.message}`));
      child.once('exit', (code, signal) => {
        record.exited = true;
        if (stopping) return;
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        if (!ready) {
          rejectEarlyExit(new StackError(`${svc.name} ${how} before the stack was ready; its last lines:\n${tail.slice(-15).join('\n')}`));
          return;
        }
        for (const listener of exitListeners) listener({ name: svc.name, code, signal });
        if (!supervise) {
          log(`[stack] ${svc.name} ${how}`);
          return;
        }
        if (Date.now() - record.startedAt >= 60_000) record.restarts = 0;
        record.restarts += 1;
        const delay = restartDelayMs(record.restarts);
        log(`[stack] ${svc.name} ${how}; restarting it in ${delay / 1000} s (restart ${record.restarts})`);
        record.restartTimer = setTimeout(() => {
          record.restartTimer = null;
          if (stopping) return;
          launch(svc, record);
          log(`[stack] ${svc.name} restarted (pid ${record.pid})`);
          writeInfo();
        }, delay);
      });
    };

    for (const svc of services.flatMap((s) => Array.from({ length: replicas[s.name] ?? 1 }, () => s))) {
      if (stopping) throw new StackError('interrupted');
      const record = {
        name: svc.name,
        kind: svc.kind,
        pid: undefined,
        child: undefined,
        exited: false,
        exitPromise: Promise.resolve(),
        startedAt: 0,
        restarts: 0,
        restartTimer: null,
        terminate: async (timeoutMs) => {
          if (record.restartTimer) clearTimeout(record.restartTimer);
          if (record.exited) return;
          const child = record.child;
          child.kill('SIGTERM');
          const timer = setTimeout(() => { if (!record.exited) { log(`[stack] ${svc.name} did not stop within ${timeoutMs / 1000}s: SIGKILL`); child.kill('SIGKILL'); } }, timeoutMs);
          await record.exitPromise;
          clearTimeout(timer);
        },
      };
      children.push(record);
      launch(svc, record);
    }

    const url = `http://${host}:${port}`;
    await Promise.race([waitForHealth(url, healthTimeoutMs, () => stopping), earlyExit]);
    step();
    ready = true;
    signal?.removeEventListener('abort', onAbort);

    // mediaUrl: vault-media's byte listener, where the ops CLI sends music:add's file (tools/cli).
    const info = { url, mediaUrl: `http://${mediaHttp(ctx).host}:${mediaHttp(ctx).port}`, mailUrl: mail.url, s3Endpoint: s3.endpoint, smtpPort: mail.smtpPort, stackId, dbPrefix, redisUrl, natsUrl, postgresUrl: infra.postgres, privateInfra: provided?.private ?? [], privateInfraPids: provided?.pids ?? {}, opsPorts, s3Pid: s3.pid, pid: process.pid, children: children.map((c) => ({ name: c.name, pid: c.pid })) };
    writeFileSync(join(dataDir, 'stack.json'), JSON.stringify(info, null, 2));
    infoWritten = info;
    cleanups.push(async () => rmSync(join(dataDir, 'stack.json'), { force: true }));

    return {
      ...info,
      mail,
      s3,
      processes: children,
      /** Called when a process exits on its own after the stack was ready (it is then restarted, when supervised). */
      onExit: (listener) => exitListeners.push(listener),
      stop,
    };
  } catch (err) {
    signal?.removeEventListener('abort', onAbort);
    await stop();
    throw err;
  }
}
