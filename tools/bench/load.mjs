// HTTP load and latency measurements for the benchmark, all against 127.0.0.1.
import autocannon from 'autocannon';
import { summarize } from './stats.mjs';

/**
 * Runs autocannon for `seconds` at `connections` and returns req/s and the latency of every response
 * (autocannon's own summary has no p95, so the per-response times are collected here).
 */
export function loadTest({ url, headers = {}, connections = 10, seconds = 10, title }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = new Map();
    const instance = autocannon({ url, headers, connections, duration: seconds, pipelining: 1, title }, (err, result) => {
      if (err) return reject(err);
      const ok = latencies.length;
      resolve({
        title,
        connections,
        seconds: result.duration,
        requests: result.requests.total,
        reqPerSec: result.requests.average,
        // Successful responses per second over the whole run (the figure the ratio uses).
        okPerSec: ok / result.duration,
        latency: summarize(latencies),
        // Every successful response's time, to pool several runs (mergeLoadTests).
        samples: latencies,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statuses: Object.fromEntries(statuses),
      });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** Pools several loadTest results of the same target (rounds): totals, and percentiles over every response. */
export function mergeLoadTests(title, results) {
  const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
  const seconds = sum((r) => r.seconds);
  const samples = results.flatMap((r) => r.samples);
  const statuses = {};
  for (const r of results) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    title,
    connections: results[0]?.connections,
    seconds,
    requests: sum((r) => r.requests),
    reqPerSec: sum((r) => r.requests) / seconds,
    okPerSec: samples.length / seconds,
    latency: summarize(samples),
    samples,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statuses,
  };
}

/**
 * `count` requests one after the other (keep-alive), each timed from sending to the end of its
 * body. `request(i)` returns a fetch Response promise. Non-2xx answers are counted and excluded.
 */
export async function sequentialLatency(count, request) {
  const latencies = [];
  const failures = new Map();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await request(i);
    await res.arrayBuffer();
    const elapsed = performance.now() - started;
    if (res.ok) latencies.push(elapsed);
    else failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
  }
  return { ...summarize(latencies), failures: Object.fromEntries(failures) };
}
