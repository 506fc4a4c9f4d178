#!/usr/bin/env node
// `npm run bench`: Legacy Vault's benchmark, every figure measured in one run on this machine, only
// 127.0.0.1 traffic, bounded in time (about a minute; a watchdog stops it 170 s after the stack is
// ready, and the stack's start at 300 s: on a loaded two-core machine the start alone can take 2 minutes).
//
//   (a) baseline   a bare Fastify "hello" handler in its own process          autocannon, 10 conns, 10 s
//   (a2) in-process GET /api/me served in one process: the same token check, revocation look-up and
//                  profile read as identity's, no gateway and no NATS (identity-in-process.mjs)
//   (a3) bare hop  the machine's floor for any hop: the same work split as the real path, no framework
//                  (identity-hop.mjs: a bare Fastify front checks the token, sends the services' packet
//                  over NATS to a plain nats.js subscriber that checks it again and reads the profile)
//   (b) /api/me    gateway -> NATS request-reply -> identity (Bearer token)   autocannon, 10 conns
//                  (a2), (a3) and (b) alternate in 3 rounds of 10/3 s each (BENCH_PATH_ROUNDS), so a
//                  change in the machine's load falls on all three; printed as req/s, p50/p95/p99, and
//                  the ratios (b)/(a), (b)/(a2) (goal >= 0.5), (a3)/(a2) (what the machine allows any
//                  hop) and (b)/(a3) (our path against that floor), the last three per round too
//   (c) sign-in    N sequential POST /api/auth/sign-in (argon2id verify)      p50/p95/p99 ms
//   (d) health     N sequential GET /api/health                               p50/p95/p99 ms
//                  (and the same N for GET /api/me one at a time, to read (b) without queueing)
//
// It builds what is stale, starts its own fresh stack (tools/dev/stack.mjs: port 3200, databases
// lv_bench_*, data in .data/bench, STACK_ID bench, Redis database 2, processes logging at "warn" so the
// log pipe is not what is measured), signs a user up through the HTTP API, measures, and stops the stack.
// Each load phase has a 2-second warm-up that is not counted.
//
// Environment: BENCH_PORT (3200), BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (10),
// BENCH_SIGNINS (200), BENCH_HEALTH (200), BENCH_PATH_ROUNDS (3). Exit code 1 when a phase had errors or non-2xx answers.
// Not a test: nothing here runs under Jest.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { withDatabase } from '../dev/infra.mjs';
import { databaseName } from '../dev/services.mjs';
import { nodeBinary, root, SERVICE_NODE_FLAGS, StackError, startStack } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { loadTest, mergeLoadTests, sequentialLatency } from './load.mjs';
import { int, ms, table } from './stats.mjs';

const env = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number (got "${process.env[name]}")`);
  return value;
};
const config = {
  port: env('BENCH_PORT', 3200),
  seconds: env('BENCH_SECONDS', 10),
  warmupSeconds: env('BENCH_WARMUP_SECONDS', 2),
  connections: env('BENCH_CONNECTIONS', 10),
  signIns: env('BENCH_SIGNINS', 200),
  healthCalls: env('BENCH_HEALTH', 200),
  pathRounds: Math.max(1, env('BENCH_PATH_ROUNDS', 3)),
};
const WATCHDOG_MS = 170_000;
const STARTUP_WATCHDOG_MS = 300_000;

const dataDir = join(root, '.data', 'bench');
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile, { flags: 'w' });
const say = (line) => console.log(line);
/** The 1, 5 and 15 minute load averages, for every figure (the machine is shared). */
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) say(`[bench] note: this process runs on Node ${process.versions.node}; the stack's processes use ${nodeBinary()}`);

let stack;
const baselines = new Set();
let finishing = false;

/** Stops the baseline servers that run (if any) and waits for them to exit. */
async function stopBaselines() {
  const children = [...baselines];
  baselines.clear();
  await Promise.all(children.filter((child) => child.exitCode === null).map((child) => {
    child.kill('SIGTERM');
    return new Promise((r) => {
      const t = setTimeout(() => { child.kill('SIGKILL'); r(); }, 3000);
      child.once('exit', () => { clearTimeout(t); r(); });
    });
  }));
}

async function cleanup() {
  await stopBaselines();
  if (stack) await stack.stop().catch((err) => say(`[bench] stopping the stack: ${err.message}`));
  stack = undefined;
  await new Promise((r) => logStream.end(r));
}

// Signal handlers and the watchdog cannot await: the process exits with `code` whatever cleanup does.
const stopWith = (code) => void cleanup().catch((err) => say(`[bench] cleanup: ${err.message}`)).finally(() => process.exit(code));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (finishing) process.exit(130);
    finishing = true;
    say(`\n[bench] ${sig}: stopping`);
    stopWith(130);
  });
}
const armWatchdog = (ms, what) => {
  const timer = setTimeout(() => {
    say(`[bench] ${what} took longer than ${ms / 1000}s: stopping`);
    finishing = true;
    stopWith(1);
  }, ms);
  timer.unref();
  return timer;
};
let watchdog = armWatchdog(STARTUP_WATCHDOG_MS, 'the build and the stack\'s start');

/** Starts a baseline server (tools/bench/<script> <args>, which prints one JSON line when ready) and resolves to that line. */
function startBaseline(script, env = {}, args = ['0']) {
  return new Promise((resolve, reject) => {
    // A session of its own (detached), as the stack's processes have: with the kernel's autogroup
    // scheduling a busy machine shares the CPU per session, and a baseline in this process's session
    // would share its slice with the load generator while the gateway and identity each get their own.
    // The services' Node flags too (SERVICE_NODE_FLAGS), so both sides run on the same runtime.
    const child = spawn(nodeBinary(), [...SERVICE_NODE_FLAGS, join(root, 'tools', 'bench', script), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    baselines.add(child);
    const timer = setTimeout(() => reject(new Error(`the baseline ${script} did not start within 15 s`)), 15_000);
    child.once('error', (err) => { clearTimeout(timer); reject(err); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the baseline ${script} exited (${code})`)); });
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
  });
}

async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${stack.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function measureLoad(title, url, headers) {
  if (config.warmupSeconds > 0) await loadTest({ url, headers, connections: config.connections, seconds: config.warmupSeconds, title: `${title} (warm-up)` });
  return loadTest({ url, headers, connections: config.connections, seconds: config.seconds, title });
}

let exitCode = 0;
const startedAt = Date.now();
try {
  say(`[bench] ${buildIfNeeded(root, nodeBinary(), say)}`);
  say(`[bench] starting a fresh stack on 127.0.0.1:${config.port} (logs: ${logFile})`);
  stack = await startStack({
    port: config.port,
    host: '127.0.0.1',
    dataDir,
    dbPrefix: 'lv_bench_',
    fresh: true,
    stackId: 'bench',
    redisDb: 2,
    s3Port: 0,
    smtpPort: 0,
    mailHttpPort: 0,
    logLevel: 'warn',
    log: (line) => logStream.write(`${line}\n`),
  });
  say(`[bench] stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
  clearTimeout(watchdog);
  watchdog = armWatchdog(WATCHDOG_MS, 'the measurements');

  // One account for /api/me, a few for the sign-ins (each signed in the same number of times).
  const password = 'bench-Password-1!';
  const users = Array.from({ length: 5 }, (_, i) => ({ email: `bench-${i}-${Date.now().toString(36)}@example.com`, password }));
  let accessToken;
  for (const user of users) {
    const res = await api('/api/auth/sign-up', { method: 'POST', body: user });
    if (res.status !== 201) throw new Error(`sign-up of ${user.email} answered ${res.status}: ${await res.text()}`);
    accessToken ??= (await res.json()).accessToken;
  }
  const me = await api('/api/me', { token: accessToken });
  if (me.status !== 200) throw new Error(`GET /api/me answered ${me.status}: ${await me.text()}`);

  const { port } = await startBaseline('fastify-hello.mjs');
  say(`[bench] (a) bare Fastify "hello" on 127.0.0.1:${port}: ${config.seconds}s at ${config.connections} connections`);
  const a = await measureLoad('bare Fastify hello', `http://127.0.0.1:${port}/hello`, {});
  await stopBaselines();

  // (a2) and (a3) run against the bench stack's identity database, Redis and public key, as identity does.
  const identityEnv = {
    DATABASE_URL: withDatabase(stack.postgresUrl, databaseName(stack.dbPrefix, 'identity')),
    REDIS_URL: stack.redisUrl,
    JWT_PUBLIC_KEY: join(dataDir, 'keys', 'jwt-public.pem'),
  };
  const { port: inProcessPort } = await startBaseline('identity-in-process.mjs', identityEnv);
  // (a3)'s two processes, on the stack's NATS server, under its STACK_ID (a subject of the bench's own).
  const hopEnv = { ...identityEnv, NATS_URL: stack.natsUrl, STACK_ID: stack.stackId };
  await startBaseline('identity-hop.mjs', hopEnv, ['back']);
  const { port: hopPort } = await startBaseline('identity-hop.mjs', hopEnv, ['front', '0']);
  // (a2), (a3) and (b) alternate in rounds, each phase seconds/rounds long, so that a change in the
  // machine's load (whatever else runs on the two cores) falls on all three alike. The ratios are
  // those of their totals; each round's are printed too.
  const bearer = { authorization: `Bearer ${accessToken}` };
  const phases = [
    { key: 'a2', url: `http://127.0.0.1:${inProcessPort}/api/me`, title: 'GET /api/me in one process' },
    { key: 'a3', url: `http://127.0.0.1:${hopPort}/api/me`, title: 'GET /api/me, bare hop' },
    { key: 'b', url: `${stack.url}/api/me`, title: 'GET /api/me' },
  ];
  const roundSeconds = Math.max(1, Math.round(config.seconds / config.pathRounds));
  say(`[bench] (a2) GET /api/me in one process (token check, revocation, profile read) on 127.0.0.1:${inProcessPort}, (a3) the same over a bare hop (Fastify -> NATS -> nats.js subscriber) on 127.0.0.1:${hopPort}, and (b) through gateway -> NATS -> identity: ${config.pathRounds} alternating rounds of ${roundSeconds}s each at ${config.connections} connections; load average ${loadAverage()}`);
  if (config.warmupSeconds > 0) {
    for (const phase of phases) await loadTest({ url: phase.url, headers: bearer, connections: config.connections, seconds: config.warmupSeconds, title: `(${phase.key}) warm-up` });
  }
  const rounds = { a2: [], a3: [], b: [] };
  for (let round = 0; round < config.pathRounds; round++) {
    for (const phase of phases) rounds[phase.key].push(await loadTest({ url: phase.url, headers: bearer, connections: config.connections, seconds: roundSeconds, title: phase.title }));
    const [x, h, y] = [rounds.a2[round], rounds.a3[round], rounds.b[round]].map((r) => r.okPerSec);
    // Printed at once: these ratios are the figures that matter, and the phases below can take long on a loaded machine.
    say(`[bench]   round ${round + 1}: (a2) ${int(x)}, (a3) ${int(h)}, (b) ${int(y)} req/s: (b)/(a2) = ${(y / x).toFixed(3)}, (a3)/(a2) = ${(h / x).toFixed(3)}, (b)/(a3) = ${(y / h).toFixed(3)}; load average ${loadAverage()}`);
  }
  await stopBaselines();
  const a2 = mergeLoadTests('GET /api/me in one process', rounds.a2);
  const a3 = mergeLoadTests('GET /api/me, bare hop', rounds.a3);
  const b = mergeLoadTests('GET /api/me', rounds.b);
  const perRound = (over, under) => rounds[over].map((r, i) => r.okPerSec / rounds[under][i].okPerSec);
  const roundRatios = perRound('b', 'a2');
  const floorRoundRatios = perRound('a3', 'a2');
  const toFloorRoundRatios = perRound('b', 'a3');

  say(`[bench] (c) ${config.signIns} sequential sign-ins`);
  for (let i = 0; i < 10; i++) await (await api('/api/auth/sign-in', { method: 'POST', body: users[i % users.length] })).arrayBuffer();
  const c = await sequentialLatency(config.signIns, (i) => api('/api/auth/sign-in', { method: 'POST', body: users[i % users.length] }));

  say(`[bench] (d) ${config.healthCalls} sequential GET /api/health`);
  for (let i = 0; i < 10; i++) await (await api('/api/health')).arrayBuffer();
  const d = await sequentialLatency(config.healthCalls, () => api('/api/health'));

  // For reading (b): the same call one at a time, so its latency without queueing.
  for (let i = 0; i < 10; i++) await (await api('/api/me', { token: accessToken })).arrayBuffer();
  const e = await sequentialLatency(config.healthCalls, () => api('/api/me', { token: accessToken }));

  const ratio = b.okPerSec / a.okPerSec;
  const pathRatio = b.okPerSec / a2.okPerSec;
  const floorRatio = a3.okPerSec / a2.okPerSec;
  const toFloorRatio = b.okPerSec / a3.okPerSec;
  const rounded = (values) => values.map((r) => Number(r.toFixed(3)));
  const loadRow = (r) => [r.title, int(r.okPerSec), ms(r.latency.p50), ms(r.latency.p95), ms(r.latency.p99), int(r.requests), String(r.non2xx + r.errors + r.timeouts)];
  const seqRow = (title, r) => [title, String(r.count), ms(r.p50), ms(r.p95), ms(r.p99), ms(r.max), String(Object.values(r.failures).reduce((x, y) => x + y, 0))];

  say('');
  say(`Throughput, ${config.seconds}s at ${config.connections} connections each (after a ${config.warmupSeconds}s warm-up):`);
  say(table([['', 'req/s', 'p50', 'p95', 'p99', 'requests', 'failed'], loadRow(a), loadRow(a2), loadRow(a3), loadRow(b)]));
  say(`ratio (b)/(a): ${ratio.toFixed(3)} (GET /api/me through the gateway and identity runs at ${(ratio * 100).toFixed(1)}% of a bare Fastify handler)`);
  say(`ratio (b)/(a2): ${pathRatio.toFixed(3)} (of the same work served in one process; goal >= 0.5); per round ${roundRatios.map((r) => r.toFixed(3)).join(', ')}`);
  say(`ratio (a3)/(a2): ${floorRatio.toFixed(3)} (the floor: what this machine allows any two-process hop doing the same work, no framework); per round ${floorRoundRatios.map((r) => r.toFixed(3)).join(', ')}`);
  say(`ratio (b)/(a3): ${toFloorRatio.toFixed(3)} (our path against that floor); per round ${toFloorRoundRatios.map((r) => r.toFixed(3)).join(', ')}`);
  say(`load average ${loadAverage()}`);
  say('');
  say('Latency, sequential requests (one at a time, keep-alive):');
  say(table([['', 'n', 'p50', 'p95', 'p99', 'max', 'failed'], seqRow('(c) POST /api/auth/sign-in', c), seqRow('(d) GET /api/health', d), seqRow('    GET /api/me (as in b)', e)]));
  say('');

  const result = {
    at: new Date().toISOString(),
    node: process.versions.node,
    config,
    baseline: { reqPerSec: a.okPerSec, ...a.latency, non2xx: a.non2xx, errors: a.errors, timeouts: a.timeouts },
    inProcess: { reqPerSec: a2.okPerSec, ...a2.latency, non2xx: a2.non2xx, errors: a2.errors, timeouts: a2.timeouts },
    hop: { reqPerSec: a3.okPerSec, ...a3.latency, non2xx: a3.non2xx, errors: a3.errors, timeouts: a3.timeouts, statuses: a3.statuses },
    pathRatio,
    pathRoundRatios: roundRatios,
    floorRatio,
    floorRoundRatios,
    toFloorRatio,
    toFloorRoundRatios,
    loadAverage: loadAverage(),
    me: { reqPerSec: b.okPerSec, ...b.latency, non2xx: b.non2xx, errors: b.errors, timeouts: b.timeouts, statuses: b.statuses },
    ratio,
    signIn: c,
    health: d,
    meSequential: e,
  };
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
  say(`BENCH_RESULT ${JSON.stringify({ baselineReqPerSec: Math.round(a.okPerSec), inProcessReqPerSec: Math.round(a2.okPerSec), hopReqPerSec: Math.round(a3.okPerSec), meReqPerSec: Math.round(b.okPerSec), ratio: Number(ratio.toFixed(3)), pathRatio: Number(pathRatio.toFixed(3)), pathRoundRatios: rounded(roundRatios), floorRatio: Number(floorRatio.toFixed(3)), floorRoundRatios: rounded(floorRoundRatios), toFloorRatio: Number(toFloorRatio.toFixed(3)), toFloorRoundRatios: rounded(toFloorRoundRatios), loadAverage: loadAverage(), mePctl: [b.latency.p50, b.latency.p95, b.latency.p99].map((v) => Number(v.toFixed(2))), signInPctl: [c.p50, c.p95, c.p99].map((v) => Number(v.toFixed(1))), healthPctl: [d.p50, d.p95, d.p99].map((v) => Number(v.toFixed(2))) })}`);

  const problems = [];
  for (const r of [a, a2, a3, b]) if (r.non2xx || r.errors || r.timeouts) problems.push(`${r.title}: ${r.non2xx} non-2xx ${JSON.stringify(r.statuses)}, ${r.errors} errors, ${r.timeouts} timeouts`);
  for (const [title, r] of [['sign-in', c], ['health', d], ['me (sequential)', e]]) if (Object.keys(r.failures).length) problems.push(`${title}: failed answers ${JSON.stringify(r.failures)}`);
  if (problems.length) {
    exitCode = 1;
    say(`[bench] some requests failed, the figures above are not trustworthy:\n  ${problems.join('\n  ')}`);
  }
} catch (err) {
  exitCode = 1;
  say(`[bench] failed: ${err instanceof StackError ? err.message : err.stack ?? err}`);
  say(`[bench] the stack's logs are in ${logFile}`);
} finally {
  finishing = true;
  await cleanup();
  clearTimeout(watchdog);
  say(`[bench] done in ${((Date.now() - startedAt) / 1000).toFixed(0)}s`);
}
process.exit(exitCode);
