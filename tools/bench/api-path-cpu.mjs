#!/usr/bin/env node
// CPU per request of `GET /api/me` (issue 10), per process: what the gateway, identity, the
// in-process baseline (identity-in-process.mjs, phase (a2) of run.mjs) and the bare hop's two processes
// (identity-hop.mjs front and back, phase (a3): the floor for any hop) spend on each request, read
// from /proc/<pid>/stat (user + system time) around a fixed number of requests. Unlike req/s, this
// does not move with what else runs on the machine (only the cache misses a neighbour causes do).
//
//   node tools/bench/api-path-cpu.mjs        env BENCH_CPU_REQUESTS (5000), BENCH_CONNECTIONS (10),
//                                            BENCH_CPU_ROUNDS (3), BENCH_CPU_PROF (e.g. "gateway,identity":
//                                            those processes run with --cpu-prof; profiles in
//                                            .data/bench/profiles, written when the stack stops),
//                                            BENCH_CPU_APP_ROOT (the checkout whose build the stack runs, e.g.
//                                            another worktree's for a before/after; default this one)
//
// Its own fresh stack, as run.mjs's (port 3200, lv_bench_*, STACK_ID bench, Redis database 2): do not
// run the two at once. Linux only (/proc). Not a test.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { withDatabase } from '../dev/infra.mjs';
import { databaseName } from '../dev/services.mjs';
import { nodeBinary, root, SERVICE_NODE_FLAGS, startStack } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { positiveEnv, processCpuMs } from './stats.mjs';

const requests = positiveEnv('BENCH_CPU_REQUESTS', 5000);
const connections = positiveEnv('BENCH_CONNECTIONS', 10);
const rounds = positiveEnv('BENCH_CPU_ROUNDS', 3);
const profiled = (process.env.BENCH_CPU_PROF ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const dataDir = join(root, '.data', 'bench');
const profileDir = join(dataDir, 'profiles');
mkdirSync(profileDir, { recursive: true });

function fire(url, headers, amount) {
  return new Promise((resolve, reject) => {
    let failed = 0;
    const instance = autocannon({ url, headers, connections, amount }, (err, result) => (err ? reject(err) : resolve({ result, failed })));
    instance.on('response', (_client, status) => { if (status !== 200) failed += 1; });
  });
}

/** CPU ms per request of each pid while `amount` requests are answered, and the run's req/s. */
async function measure(url, headers, pids) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuMs(pid)]));
  const started = performance.now();
  const { result, failed } = await fire(url, headers, requests);
  const seconds = (performance.now() - started) / 1000;
  if (failed || result.errors || result.timeouts) throw new Error(`${url}: ${failed} non-200, ${result.errors} errors, ${result.timeouts} timeouts`);
  const perRequest = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, (processCpuMs(pid) - before[name]) / requests]));
  return { perRequest, reqPerSec: requests / seconds };
}

let stack;
const baselines = [];
const stop = async () => {
  for (const child of baselines) child.kill('SIGTERM');
  await stack?.stop();
};
/** Starts tools/bench/<script> <args> (a session of its own, as run.mjs does); resolves to its pid and the JSON line it prints when ready. */
function startBaseline(script, args, env) {
  const child = spawn(nodeBinary(), [...SERVICE_NODE_FLAGS, join(root, 'tools', 'bench', script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true, env: { ...process.env, ...env } });
  baselines.push(child);
  return new Promise((resolve) => createInterface({ input: child.stdout }).once('line', (line) => resolve({ pid: child.pid, ...JSON.parse(line) })));
}
process.on('SIGINT', () => void stop().finally(() => process.exit(130)));
try {
  console.log(`[cpu] ${buildIfNeeded(root, nodeBinary(), console.log)}`);
  stack = await startStack({
    port: 3200, host: '127.0.0.1', dataDir, dbPrefix: 'lv_bench_', fresh: true, stackId: 'bench', redisDb: 2,
    s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn', log: () => undefined, appRoot: process.env.BENCH_CPU_APP_ROOT ?? root,
    nodeArgs: Object.fromEntries(profiled.map((name) => [name, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`]])),
  });
  const pidOf = (name) => stack.processes.find((p) => p.name === name).pid;
  const res = await fetch(`${stack.url}/api/auth/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `cpu-${Date.now().toString(36)}@example.com`, password: 'bench-Password-1!' }) });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}`);
  const bearer = { authorization: `Bearer ${(await res.json()).accessToken}` };

  const identityEnv = { DATABASE_URL: withDatabase(stack.postgresUrl, databaseName(stack.dbPrefix, 'identity')), REDIS_URL: stack.redisUrl, JWT_PUBLIC_KEY: join(dataDir, 'keys', 'jwt-public.pem') };
  const a2Process = await startBaseline('identity-in-process.mjs', ['0'], identityEnv);
  const hopEnv = { ...identityEnv, NATS_URL: stack.natsUrl, STACK_ID: stack.stackId };
  const back = await startBaseline('identity-hop.mjs', ['back'], hopEnv);
  const front = await startBaseline('identity-hop.mjs', ['front', '0'], hopEnv);

  const path = { url: `${stack.url}/api/me`, pids: { gateway: pidOf('gateway'), identity: pidOf('identity') } };
  const inProcess = { url: `http://127.0.0.1:${a2Process.port}/api/me`, pids: { a2: a2Process.pid } };
  const hop = { url: `http://127.0.0.1:${front.port}/api/me`, pids: { front: front.pid, back: back.pid } };
  for (const phase of [inProcess, hop, path]) await fire(phase.url, bearer, 2000);
  console.log(`[cpu] ${requests} requests per phase at ${connections} connections; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  const median = (values) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const seen = { a2: [], front: [], back: [], gateway: [], identity: [], ratio: [], floor: [] };
  for (let round = 1; round <= rounds; round++) {
    const a2 = await measure(inProcess.url, bearer, inProcess.pids);
    const a3 = await measure(hop.url, bearer, hop.pids);
    const b = await measure(path.url, bearer, path.pids);
    const total = b.perRequest.gateway + b.perRequest.identity;
    const hopTotal = a3.perRequest.front + a3.perRequest.back;
    for (const [name, value] of Object.entries({ ...a2.perRequest, ...a3.perRequest, ...b.perRequest })) seen[name].push(value);
    seen.ratio.push(a2.perRequest.a2 / total);
    seen.floor.push(a2.perRequest.a2 / hopTotal);
    console.log(`[cpu] round ${round}: (a2) ${a2.perRequest.a2.toFixed(3)} ms/req (${Math.round(a2.reqPerSec)} req/s); (a3) front ${a3.perRequest.front.toFixed(3)} + back ${a3.perRequest.back.toFixed(3)} = ${hopTotal.toFixed(3)} ms/req (${Math.round(a3.reqPerSec)} req/s); (b) gateway ${b.perRequest.gateway.toFixed(3)} + identity ${b.perRequest.identity.toFixed(3)} = ${total.toFixed(3)} ms/req (${Math.round(b.reqPerSec)} req/s); CPU (a2)/(a3) ${(a2.perRequest.a2 / hopTotal).toFixed(3)}, (a2)/(b) ${(a2.perRequest.a2 / total).toFixed(3)}`);
  }
  console.log(`[cpu] median of ${rounds} rounds: (a2) ${median(seen.a2).toFixed(3)}, (a3) front ${median(seen.front).toFixed(3)}, back ${median(seen.back).toFixed(3)}, gateway ${median(seen.gateway).toFixed(3)}, identity ${median(seen.identity).toFixed(3)} ms/req; CPU (a2)/(a3) ${median(seen.floor).toFixed(3)}, (a2)/(b) ${median(seen.ratio).toFixed(3)}`);
  console.log(`[cpu] load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  await stop();
  if (profiled.length) console.log(`[cpu] profiles in ${profileDir}`);
}
process.exit(0);
