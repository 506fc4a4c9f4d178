#!/usr/bin/env node
// Timeline benchmark (issue 8): deep pagination of one vault of 10,000 entries, every figure measured
// in one run on this machine, 127.0.0.1 only.
//
//   (a) baseline  the raw keyset query the timeline service runs, straight on lv_tbench_timeline with
//                 `pg` (no service, no NATS, no titles): what the database alone costs
//   (b) service   rpc.timeline.list over NATS (Nest's wire format, the caller's token): guard, query,
//                 and the batch `titles` calls to letters and vault-media for the page's ids
//   (c) gateway   GET /api/timeline through the gateway (HTTP -> gateway -> NATS -> timeline -> ...)
//
// each for the first page and for page 50 (pages of 200, the SPA's default: page 50 holds entries
// 9,801-10,000), N sequential requests each, p50/p95/p99. Goal: p95 <= 50 ms at the service and
// through the gateway.
//
// The vault: 10,000 entries (half letters, half recordings) published as the owning services publish
// them (LetterWritten / RecordingSaved on their JetStream streams, ids, owner and times only), read by
// the timeline's durable consumers. They name no letter or recording stored in letters or vault-media,
// so the `titles` calls run their real query and find nothing (the page shows fallback titles): the
// cost measured is the lookup's, as for real ids. The reader is a synthetic user holding a pro token
// signed with the stack's own key (the timeline is gated), so no account or upload is needed.
//
// It builds what is stale, starts its own fresh stack (tools/dev/stack.mjs: port 3220, databases
// lv_tbench_*, data in .data/timeline-bench, STACK_ID tbench, Redis database 4, processes at "warn"),
// measures and stops the stack. Environment: BENCH_TIMELINE_PORT (3220), BENCH_TIMELINE_ENTRIES
// (10000), BENCH_TIMELINE_READS (200). Exit code 1 when a request failed, 2 when the goal is missed.
// Not a test: nothing here runs under Jest.
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { startStack, StackError, nodeBinary, root } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { ms, summarize, table, positiveEnv as env } from './stats.mjs';

const config = {
  port: env('BENCH_TIMELINE_PORT', 3220),
  entries: env('BENCH_TIMELINE_ENTRIES', 10_000),
  reads: env('BENCH_TIMELINE_READS', 200),
  pageSize: 200,
  deepPage: 50,
};
const GOAL_P95_MS = 50;
const STACK_ID = 'tbench';
const DB_PREFIX = 'lv_tbench_';
const WATCHDOG_MS = 300_000;

const dataDir = join(root, '.data', 'timeline-bench');
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile, { flags: 'w' });
const say = (line) => console.log(line);

let stack;
let nc;
let db;
let finishing = false;
async function cleanup() {
  await db?.end().catch(() => undefined);
  db = undefined;
  await nc?.close().catch(() => undefined);
  nc = undefined;
  if (stack) await stack.stop().catch((err) => say(`[timeline-bench] stopping the stack: ${err.message}`));
  stack = undefined;
  await new Promise((r) => logStream.end(r));
}
// Signal handlers and the watchdog cannot await: the process exits with `code` whatever cleanup does.
const stopWith = (code) => void cleanup().catch((err) => say(`[timeline-bench] cleanup: ${err.message}`)).finally(() => process.exit(code));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (finishing) process.exit(130);
    finishing = true;
    say(`\n[timeline-bench] ${sig}: stopping`);
    stopWith(130);
  });
}
const watchdog = setTimeout(() => {
  say(`[timeline-bench] took longer than ${WATCHDOG_MS / 1000}s: stopping`);
  finishing = true;
  stopWith(1);
}, WATCHDOG_MS);
watchdog.unref();

/** N sequential runs of `once()` (which throws on a failure); latencies in ms. */
async function sequential(count, once) {
  const latencies = [];
  const failures = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    try {
      await once();
      latencies.push(performance.now() - started);
    } catch (err) {
      failures.push(err.message);
    }
  }
  return { ...summarize(latencies), failures: failures.slice(0, 5), failed: failures.length };
}

/** A request-reply call in Nest's NATS wire format, as the gateway's RpcClient sends it. */
async function rpc(subject, payload, token) {
  const packet = { pattern: subject, data: { auth: { accessToken: token }, meta: { requestId: 'timeline-bench' }, payload }, id: randomUUID() };
  const reply = await nc.request(`${STACK_ID}.${subject}`, JSON.stringify(packet), { timeout: 5000 });
  const body = reply.json();
  if (body.err) throw new Error(`${subject}: ${JSON.stringify(body.err)}`);
  return body.response;
}

let exitCode = 0;
const startedAt = Date.now();
try {
  say(`[timeline-bench] ${buildIfNeeded(root, nodeBinary(), say)}`);
  say(`[timeline-bench] starting a fresh stack on 127.0.0.1:${config.port} (logs: ${logFile})`);
  stack = await startStack({
    port: config.port, host: '127.0.0.1', dataDir, dbPrefix: DB_PREFIX, fresh: true, stackId: STACK_ID, redisDb: 4,
    s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn', log: (line) => logStream.write(`${line}\n`),
  });
  say(`[timeline-bench] stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);

  // The reader: a pro token signed with the stack's key, as identity signs them.
  const privateKey = readFileSync(join(dataDir, 'keys', 'jwt-private.pem'), 'utf8');
  const ownerId = randomUUID();
  const token = jwt.sign({ sub: ownerId, sid: randomUUID(), email: 'tbench@example.com', tier: 'pro', admin: false, kind: 'user' }, privateKey, {
    algorithm: 'RS256', expiresIn: 900, issuer: 'legacy-vault-identity', audience: 'legacy-vault',
  });

  // The vault: entries published as letters and vault-media publish them, 256 in flight.
  nc = await connect({ servers: '127.0.0.1:4222', name: 'timeline-bench' });
  const js = jetstream(nc);
  const fillStarted = Date.now();
  const base = Date.now() - config.entries * 60_000;
  let next = 0;
  await Promise.all(Array.from({ length: 256 }, async () => {
    for (;;) {
      const i = next++;
      if (i >= config.entries) return;
      const id = randomUUID();
      const at = new Date(base + i * 60_000).toISOString();
      const letter = i % 2 === 0;
      const subject = letter ? 'letters.letter.written.v1' : 'vault-media.recording.saved.v1';
      const data = letter
        ? { letterId: id, ownerId, wordCount: 120, writtenAt: at }
        : { recordingId: id, ownerId, type: 'video', bucket: 'vaultmedia', objectKey: `${ownerId}/video_${Date.parse(at)}.webm`, size: 2_000_000, sha256: 'a'.repeat(64), savedAt: at };
      const eventId = randomUUID();
      const h = natsHeaders();
      h.set('Nats-Msg-Id', eventId);
      await js.publish(`${STACK_ID}.${subject}`, JSON.stringify({ eventId, type: letter ? 'LetterWritten' : 'RecordingSaved', streamId: `${letter ? 'letter' : 'recording'}-${id}`, version: 1, occurredAt: at, data, metadata: {} }), { headers: h });
    }
  }));
  db = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${DB_PREFIX}timeline` });
  await db.connect();
  const count = async () => Number((await db.query('select count(*)::int as n from timeline_entries where owner_id = $1 and deleted_at is null', [ownerId])).rows[0].n);
  for (let n = await count(); n < config.entries; n = await count()) {
    if (Date.now() - fillStarted > 180_000) throw new Error(`the timeline holds ${n} of ${config.entries} entries after 180 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const fillSeconds = (Date.now() - fillStarted) / 1000;
  say(`[timeline-bench] ${config.entries} entries published and on the timeline in ${fillSeconds.toFixed(1)}s`);
  await db.query('analyze timeline_entries');

  // The cursor of page 50: walk the pages once through the service.
  let before;
  for (let page = 1; page < config.deepPage; page++) {
    const reply = await rpc('rpc.timeline.list', { limit: config.pageSize, ...(before ? { before } : {}) }, token);
    before = reply.nextCursor;
    if (!before) throw new Error(`page ${page} has no next page: the vault is smaller than ${config.deepPage} pages`);
  }
  const deepCursor = before;
  const position = Buffer.from(deepCursor, 'base64url').toString('utf8').split('|');

  // (a) The raw keyset query, as TimelineRepository.page runs it.
  const columns = `id, source, type, entry_type, file_path, blob_hash, size::text as size, integrity, word_count, metadata, "timestamp", created_at`;
  const firstSql = `select ${columns} from timeline_entries where owner_id = $1 and deleted_at is null order by "timestamp" desc, source desc, id desc limit $2`;
  const deepSql = `select ${columns} from timeline_entries where owner_id = $1 and deleted_at is null and ("timestamp", source, id) < ($3::timestamptz, $4, $5::uuid) order by "timestamp" desc, source desc, id desc limit $2`;
  const expectRows = (rows) => { if (rows.length !== config.pageSize) throw new Error(`a page of ${rows.length} rows`); };
  const expectPage = (page) => { if (page.entries.length !== config.pageSize) throw new Error(`a page of ${page.entries.length} entries`); };
  const url = (cursor) => `${stack.url}/api/timeline?limit=${config.pageSize}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`;
  const viaGateway = async (cursor) => {
    const res = await fetch(url(cursor), { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET /api/timeline answered ${res.status}: ${await res.text()}`);
    expectPage(await res.json());
  };
  // Warm-up (not counted): connections, prepared plans, JIT.
  for (let i = 0; i < 20; i++) {
    await db.query(firstSql, [ownerId, config.pageSize + 1]);
    await rpc('rpc.timeline.list', { limit: config.pageSize }, token);
    await viaGateway(deepCursor);
  }
  say(`[timeline-bench] ${config.reads} sequential reads per row: first page and page ${config.deepPage} (pages of ${config.pageSize})`);
  const results = {
    sqlFirst: await sequential(config.reads, async () => expectRows((await db.query(firstSql, [ownerId, config.pageSize])).rows)),
    sqlDeep: await sequential(config.reads, async () => expectRows((await db.query(deepSql, [ownerId, config.pageSize, position[0], position[1], position[2]])).rows)),
    rpcFirst: await sequential(config.reads, async () => expectPage(await rpc('rpc.timeline.list', { limit: config.pageSize }, token))),
    rpcDeep: await sequential(config.reads, async () => expectPage(await rpc('rpc.timeline.list', { limit: config.pageSize, before: deepCursor }, token))),
    httpFirst: await sequential(config.reads, () => viaGateway(undefined)),
    httpDeep: await sequential(config.reads, () => viaGateway(deepCursor)),
  };

  const row = (label, r) => [label, String(r.count), ms(r.p50), ms(r.p95), ms(r.p99), ms(r.max)];
  say('');
  say(`Timeline of one vault, ${config.entries.toLocaleString('en-GB')} entries, pages of ${config.pageSize} (sequential, keep-alive):`);
  say(table([
    ['', 'n', 'p50', 'p95', 'p99', 'max'],
    row('(a) SQL keyset, first page', results.sqlFirst),
    row(`(a) SQL keyset, page ${config.deepPage}`, results.sqlDeep),
    row('(b) rpc.timeline.list, first page', results.rpcFirst),
    row(`(b) rpc.timeline.list, page ${config.deepPage}`, results.rpcDeep),
    row('(c) GET /api/timeline, first page', results.httpFirst),
    row(`(c) GET /api/timeline, page ${config.deepPage}`, results.httpDeep),
  ]));
  const goals = ['rpcFirst', 'rpcDeep', 'httpFirst', 'httpDeep'].map((k) => ({ k, p95: results[k].p95, met: results[k].p95 <= GOAL_P95_MS }));
  say('');
  say(`Goal p95 <= ${GOAL_P95_MS} ms: ${goals.map((g) => `${g.k} ${ms(g.p95)} ${g.met ? 'met' : 'MISSED'}`).join(', ')}`);
  say(`Page ${config.deepPage} vs the first page at the service (p95): ${(results.rpcDeep.p95 / results.rpcFirst.p95).toFixed(2)}x; service over raw SQL (p95, page ${config.deepPage}): +${ms(results.rpcDeep.p95 - results.sqlDeep.p95)}`);
  const result = { at: new Date().toISOString(), node: process.versions.node, config, fillSeconds, goalP95Ms: GOAL_P95_MS, ...results };
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
  say(`TIMELINE_BENCH_RESULT ${JSON.stringify(Object.fromEntries(Object.entries(results).map(([k, r]) => [`${k}P95`, Number(r.p95.toFixed(2))])))}`);
  const failed = Object.values(results).reduce((n, r) => n + r.failed, 0);
  if (failed) {
    exitCode = 1;
    say(`[timeline-bench] ${failed} requests failed, the figures above are not trustworthy: ${JSON.stringify(Object.fromEntries(Object.entries(results).map(([k, r]) => [k, r.failures])))}`);
  } else if (goals.some((g) => !g.met)) {
    exitCode = 2;
  }
} catch (err) {
  exitCode = 1;
  say(`[timeline-bench] failed: ${err instanceof StackError ? err.message : err.stack ?? err}`);
  say(`[timeline-bench] the stack's logs are in ${logFile}`);
} finally {
  finishing = true;
  await cleanup();
  clearTimeout(watchdog);
  say(`[timeline-bench] done in ${((Date.now() - startedAt) / 1000).toFixed(0)}s`);
}
process.exit(exitCode);
