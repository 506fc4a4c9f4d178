#!/usr/bin/env node
// Scale-out benchmark (issue 10, "The API path"): GET /api/me with 1, 2 and 3 replicas of identity
// sharing its NATS queue group, and what one replica's death under load costs. One run, 127.0.0.1 only:
//
//   (a) 3 replicas   autocannon, BENCH_SCALE_CONNECTIONS (10) connections, BENCH_SCALE_SECONDS (8) s
//   (b) SIGKILL      a closed-loop client (same connections) for BENCH_SCALE_FAULT_SECONDS (10) s; one
//                    replica is SIGKILLed a third of the way in. A request that fails (non-2xx, network
//                    error) is retried, up to 3 times. Reported: requests, first-try failures, failures
//                    left after retries (goal 0), and the slowest answer (what the kill cost a client).
//   (c) 2 replicas   as (a), with the two that are left
//   (d) 1 replica    as (a), after one more replica is stopped (SIGTERM)
//
// Its own fresh stack (port 3240, databases lv_scale_*, data in .data/bench-scale, STACK_ID scale, Redis
// database 7, supervision off so a killed replica stays down). Output: tables, a BENCH_SCALE_RESULT {...}
// line, .data/bench-scale/last-result.json. On two cores, throughput can only rise with the replicas
// until the cores are saturated by the gateway, NATS and the replicas together: each phase prints how
// busy the machine's cores were (/proc/stat, every process on the machine) and each replica's share of
// identity's CPU time (how evenly the queue group spreads the requests). Not a test.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, StackError, nodeBinary, root } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { loadTest } from './load.mjs';
import { cpuBusyShare, int, machineCpu, ms, processCpuMs, summarize, table, positiveEnv as env } from './stats.mjs';

const config = {
  port: env('BENCH_SCALE_PORT', 3240),
  connections: env('BENCH_SCALE_CONNECTIONS', 10),
  seconds: env('BENCH_SCALE_SECONDS', 8),
  faultSeconds: env('BENCH_SCALE_FAULT_SECONDS', 10),
};
const RETRIES = 3;
const WARMUP_SECONDS_PER_REPLICA = 2;
const dataDir = join(root, '.data', 'bench-scale');
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile, { flags: 'w' });
const say = (line) => console.log(line);

let stack;
async function cleanup() {
  if (stack) await stack.stop().catch((err) => say(`[scale] stopping the stack: ${err.message}`));
  stack = undefined;
  await new Promise((r) => logStream.end(r));
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void cleanup().finally(() => process.exit(130)));

const replicasLeft = () => stack.processes.filter((p) => p.name === 'identity' && !p.exited);

/** Closed loop: each connection sends its next request when the last one (retries included) is done. */
async function closedLoopWithRetries(url, headers, seconds, duringRun) {
  const deadline = performance.now() + seconds * 1000;
  const latencies = [];
  let requests = 0;
  let firstTryFailures = 0;
  let failuresAfterRetries = 0;
  const statuses = {};
  const once = async () => {
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      return res.ok;
    } catch (error) {
      statuses[error.name] = (statuses[error.name] ?? 0) + 1;
      return false;
    }
  };
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      requests++;
      let ok = await once();
      if (!ok) firstTryFailures++;
      for (let attempt = 1; !ok && attempt <= RETRIES; attempt++) ok = await once();
      if (!ok) failuresAfterRetries++;
      latencies.push(performance.now() - started);
    }
  };
  const run = Promise.all(Array.from({ length: config.connections }, worker));
  await duringRun?.();
  await run;
  return { requests, firstTryFailures, failuresAfterRetries, statuses, latency: summarize(latencies), okPerSec: (requests - failuresAfterRetries) / seconds };
}

let exitCode = 0;
const startedAt = Date.now();
try {
  say(`[scale] ${buildIfNeeded(root, nodeBinary(), say)}`);
  say(`[scale] starting a fresh stack with 3 identity replicas on 127.0.0.1:${config.port} (logs: ${logFile})`);
  stack = await startStack({
    port: config.port, host: '127.0.0.1', dataDir, dbPrefix: 'lv_scale_', fresh: true, stackId: 'scale', redisDb: 7,
    s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn', supervise: false, replicas: { identity: 3 },
    log: (line) => logStream.write(`${line}\n`),
  });
  const res = await fetch(`${stack.url}/api/auth/sign-up`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `scale-${Date.now().toString(36)}@example.com`, password: 'bench-Password-1!' }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const headers = { authorization: `Bearer ${(await res.json()).accessToken}` };
  const url = `${stack.url}/api/me`;
  const measure = async (title) => {
    // 2 s of warm-up per replica: the queue group gives each replica its share of the warm-up too, and
    // with 2 s in all the three replicas' code was still being optimised in the measured phase
    // (1,720 req/s after 2 s, 2,155 after 8 s, same run conditions).
    await loadTest({ url, headers, connections: config.connections, seconds: WARMUP_SECONDS_PER_REPLICA * replicasLeft().length, title: `${title} (warm-up)` });
    // How busy both cores were: once they are, another replica can only share them, not add to them.
    // And how the queue group spread the work: each replica's share of identity's CPU time.
    const replicas = replicasLeft();
    const before = machineCpu();
    const replicasBefore = replicas.map((r) => processCpuMs(r.pid));
    const result = await loadTest({ url, headers, connections: config.connections, seconds: config.seconds, title });
    const cpuBusy = cpuBusyShare(before, machineCpu());
    const replicaMs = replicas.map((r, i) => processCpuMs(r.pid) - replicasBefore[i]);
    const identityMs = replicaMs.reduce((sum, value) => sum + value, 0);
    return { ...result, cpuBusy, replicaShares: replicaMs.map((value) => value / identityMs) };
  };

  say(`[scale] (a) 3 replicas`);
  const three = await measure('3 replicas');
  say(`[scale] (b) ${config.faultSeconds}s under load; one replica SIGKILLed after ${(config.faultSeconds / 3).toFixed(1)}s`);
  let killedPid;
  const fault = await closedLoopWithRetries(url, headers, config.faultSeconds, async () => {
    await new Promise((r) => setTimeout(r, (config.faultSeconds * 1000) / 3));
    const victim = replicasLeft()[0];
    killedPid = victim.pid;
    victim.child.kill('SIGKILL');
  });
  if (replicasLeft().length !== 2) throw new Error(`expected 2 replicas after the kill, found ${replicasLeft().length}`);
  say(`[scale] (c) 2 replicas`);
  const two = await measure('2 replicas');
  await replicasLeft()[0].terminate(10_000);
  say(`[scale] (d) 1 replica`);
  const one = await measure('1 replica');

  const row = (r) => [r.title, int(r.okPerSec), ms(r.latency.p50), ms(r.latency.p95), ms(r.latency.p99), String(r.non2xx + r.errors + r.timeouts), `${(r.cpuBusy * 100).toFixed(0)} %`,
    r.replicaShares.map((share) => `${(share * 100).toFixed(0)} %`).join(' / ')];
  say('');
  say(`GET /api/me, ${config.seconds}s at ${config.connections} connections (after a warm-up of ${WARMUP_SECONDS_PER_REPLICA}s per replica):`);
  say(table([['identity', 'req/s', 'p50', 'p95', 'p99', 'failed', 'cores busy', "each replica's share of identity's CPU"], row(one), row(two), row(three)]));
  say(`2 / 1 replicas: ${(two.okPerSec / one.okPerSec).toFixed(2)}x; 3 / 1: ${(three.okPerSec / one.okPerSec).toFixed(2)}x`);
  say('');
  say(`One replica (pid ${killedPid}) SIGKILLed under load, closed loop with up to ${RETRIES} retries:`);
  say(table([
    ['requests', 'failed first try', 'failed after retries', 'slowest', 'p99', 'answers seen'],
    [int(fault.requests), int(fault.firstTryFailures), int(fault.failuresAfterRetries), ms(fault.latency.max), ms(fault.latency.p99), JSON.stringify(fault.statuses)],
  ]));
  const result = {
    at: new Date().toISOString(), config,
    throughput: { one: one.okPerSec, two: two.okPerSec, three: three.okPerSec },
    coresBusy: { one: one.cpuBusy, two: two.cpuBusy, three: three.cpuBusy },
    replicaShares: { one: one.replicaShares, two: two.replicaShares, three: three.replicaShares },
    fault: { requests: fault.requests, firstTryFailures: fault.firstTryFailures, failuresAfterRetries: fault.failuresAfterRetries, slowestMs: fault.latency.max, statuses: fault.statuses },
  };
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
  say(`BENCH_SCALE_RESULT ${JSON.stringify(result)}`);
  if (fault.failuresAfterRetries || [one, two, three].some((r) => r.non2xx || r.errors || r.timeouts)) exitCode = 1;
} catch (err) {
  exitCode = 1;
  say(`[scale] failed: ${err instanceof StackError ? err.message : err.stack ?? err}`);
  say(`[scale] the stack's logs are in ${logFile}`);
} finally {
  await cleanup();
  say(`[scale] done in ${((Date.now() - startedAt) / 1000).toFixed(0)}s`);
}
process.exit(exitCode);
