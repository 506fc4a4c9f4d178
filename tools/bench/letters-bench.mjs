#!/usr/bin/env node
// Letters Unsent benchmark (issue 3), every figure measured in one run on this machine, 127.0.0.1 only:
//
//   (a) list      a user with 1,000 letters: N sequential GET /api/letters (the first page, 100 letters,
//                 what /letters shows first), p50/p95/p99; and walking all 1,000 in pages of 200
//   (b) write     open loop at 50 writes/s for BENCH_LETTERS_SECONDS: each POST /api/letters is sent on
//                 schedule, then GET /api/letters?limit=5 is polled until the new letter is listed;
//                 write-to-visible = listed - scheduled, p50/p95/p99 (a late send counts against it)
//   (c) event     the same writes, time from schedule to the LetterWritten event arriving on NATS
//                 (what the timeline would see), through the outbox relay and JetStream
//
// It builds what is stale, starts its own fresh stack (tools/dev/stack.mjs: port 3210, databases
// lv_lbench_*, data in .data/letters-bench, STACK_ID lbench, Redis database 3, processes at "warn"),
// measures and stops the stack. Environment: BENCH_LETTERS_PORT (3210), BENCH_LETTERS_COUNT (1000),
// BENCH_LETTERS_LISTS (200), BENCH_LETTERS_RATE (50), BENCH_LETTERS_SECONDS (10). Exit code 1 when
// a request failed. Not a test: nothing here runs under Jest.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { startStack, StackError, nodeBinary, root } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { sequentialLatency } from './load.mjs';
import { ms, summarize, table, positiveEnv as env } from './stats.mjs';

const config = {
  port: env('BENCH_LETTERS_PORT', 3210),
  letters: env('BENCH_LETTERS_COUNT', 1000),
  lists: env('BENCH_LETTERS_LISTS', 200),
  rate: env('BENCH_LETTERS_RATE', 50),
  seconds: env('BENCH_LETTERS_SECONDS', 10),
};
const STACK_ID = 'lbench';
const WATCHDOG_MS = 240_000;

const dataDir = join(root, '.data', 'letters-bench');
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile, { flags: 'w' });
const say = (line) => console.log(line);

let stack;
let nc;
let finishing = false;
async function cleanup() {
  await nc?.close().catch(() => undefined);
  nc = undefined;
  if (stack) await stack.stop().catch((err) => say(`[letters-bench] stopping the stack: ${err.message}`));
  stack = undefined;
  await new Promise((r) => logStream.end(r));
}
// Signal handlers and the watchdog cannot await: the process exits with `code` whatever cleanup does.
const stopWith = (code) => void cleanup().catch((err) => say(`[letters-bench] cleanup: ${err.message}`)).finally(() => process.exit(code));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (finishing) process.exit(130);
    finishing = true;
    say(`\n[letters-bench] ${sig}: stopping`);
    stopWith(130);
  });
}
const watchdog = setTimeout(() => {
  say(`[letters-bench] took longer than ${WATCHDOG_MS / 1000}s: stopping`);
  finishing = true;
  stopWith(1);
}, WATCHDOG_MS);
watchdog.unref();

async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${stack.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

const SENTENCES = [
  'I think about you every morning when the light comes through the kitchen window.',
  'You were so small the first time I held you, and you held my finger like you would never let go.',
  'There are things I wish I had said sooner, and I am saying them now.',
  'Be kind to yourself on the days that are hard; they pass, even when it does not feel like it.',
  'I kept every drawing you ever gave me, the crooked house with the purple sun most of all.',
  'Whatever happens between the grown-ups, none of it was ever your fault.',
];
/** A plausible letter of 60 to 300 words. */
function letterBody(i) {
  const sentences = 5 + (i * 7) % 30;
  return Array.from({ length: sentences }, (_, k) => SENTENCES[(i + k) % SENTENCES.length] + (k % 4 === 3 ? '\n\n' : ' ')).join('').trim();
}

let exitCode = 0;
const startedAt = Date.now();
try {
  say(`[letters-bench] ${buildIfNeeded(root, nodeBinary(), say)}`);
  say(`[letters-bench] starting a fresh stack on 127.0.0.1:${config.port} (logs: ${logFile})`);
  stack = await startStack({
    port: config.port, host: '127.0.0.1', dataDir, dbPrefix: 'lv_lbench_', fresh: true, stackId: STACK_ID, redisDb: 3,
    s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn', log: (line) => logStream.write(`${line}\n`),
  });
  say(`[letters-bench] stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);

  const signUp = async (tag) => {
    const res = await api('/api/auth/sign-up', { method: 'POST', body: { email: `lbench-${tag}-${Date.now().toString(36)}@example.com`, password: 'bench-Password-1!' } });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    return (await res.json()).accessToken;
  };

  // (a) A user with 1,000 letters.
  const reader = await signUp('reader');
  const fillStarted = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (;;) {
      const i = next++;
      if (i >= config.letters) return;
      const res = await api('/api/letters', { method: 'POST', token: reader, body: { id: randomUUID(), title: `Letter ${i + 1}`, content: letterBody(i) } });
      if (res.status !== 201) throw new Error(`writing letter ${i} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  }));
  const fillSeconds = (Date.now() - fillStarted) / 1000;
  say(`[letters-bench] wrote ${config.letters} letters in ${fillSeconds.toFixed(1)}s (${Math.round(config.letters / fillSeconds)}/s with 8 writers)`);

  say(`[letters-bench] (a) ${config.lists} sequential GET /api/letters (first page of 100) for a user with ${config.letters} letters`);
  for (let i = 0; i < 10; i++) await (await api('/api/letters', { token: reader })).arrayBuffer();
  const first = await api('/api/letters', { token: reader });
  const firstPage = await first.json();
  if (firstPage.letters.length !== Math.min(100, config.letters)) throw new Error(`the first page held ${firstPage.letters.length} letters`);
  const listPage = await sequentialLatency(config.lists, () => api('/api/letters', { token: reader }));
  const walks = [];
  let walked = 0;
  for (let round = 0; round < 20; round++) {
    const t0 = performance.now();
    let cursor = null;
    walked = 0;
    do {
      const res = await api(`/api/letters?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: reader });
      const page = await res.json();
      walked += page.letters.length;
      cursor = page.nextCursor;
    } while (cursor);
    walks.push(performance.now() - t0);
  }
  if (walked !== config.letters) throw new Error(`walking the list found ${walked} letters, not ${config.letters}`);
  const walk = summarize(walks);

  // (b) and (c): open loop at `rate` writes per second.
  const writer = await signUp('writer');
  nc = await connect({ servers: '127.0.0.1:4222', name: 'letters-bench' });
  const eventAt = new Map();
  const sub = nc.subscribe(`${STACK_ID}.letters.letter.written.v1`);
  void (async () => {
    for await (const msg of sub) {
      try {
        eventAt.set(msg.json().data.letterId, performance.now());
      } catch {
        // not ours
      }
    }
  })();
  await nc.flush();
  const total = Math.round(config.rate * config.seconds);
  say(`[letters-bench] (b) ${total} writes at ${config.rate}/s (open loop), each polled until it is listed`);
  const visible = [];
  const lateSends = [];
  const scheduledAt = new Map();
  const failures = [];
  const t0 = performance.now() + 200;
  await Promise.all(Array.from({ length: total }, async (_, i) => {
    const at = t0 + (i * 1000) / config.rate;
    await new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));
    lateSends.push(performance.now() - at);
    const id = randomUUID();
    scheduledAt.set(id, at);
    const res = await api('/api/letters', { method: 'POST', token: writer, body: { id, title: `Rate ${i}`, content: letterBody(i) } });
    if (res.status !== 201) {
      failures.push(`POST ${res.status}`);
      return;
    }
    await res.arrayBuffer();
    for (let attempt = 0; attempt < 200; attempt++) {
      const list = await api('/api/letters?limit=5', { token: writer });
      if (list.status !== 200) {
        failures.push(`GET ${list.status}`);
        return;
      }
      const page = await list.json();
      if (page.letters.some((l) => l.id === id)) {
        visible.push(performance.now() - at);
        return;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    failures.push(`letter ${i} never listed`);
  }));
  const loopSeconds = (performance.now() - t0) / 1000;
  const deadline = Date.now() + 10_000;
  while (eventAt.size < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const toEvent = [...scheduledAt].filter(([id]) => eventAt.has(id)).map(([id, at]) => eventAt.get(id) - at);
  if (toEvent.length < total - failures.length) failures.push(`${total - toEvent.length} LetterWritten events did not arrive within 10 s`);

  const w = summarize(visible);
  const e = summarize(toEvent);
  const late = summarize(lateSends);
  say('');
  say(`Letters list, a user with ${config.letters.toLocaleString('en-GB')} letters (sequential, keep-alive):`);
  say(table([
    ['', 'n', 'p50', 'p95', 'p99', 'max'],
    ['GET /api/letters (first 100)', String(listPage.count), ms(listPage.p50), ms(listPage.p95), ms(listPage.p99), ms(listPage.max)],
    [`all ${config.letters} in pages of 200`, String(walk.count), ms(walk.p50), ms(walk.p95), ms(walk.p99), ms(walk.max)],
  ]));
  say('');
  say(`Writes at ${config.rate}/s for ${config.seconds}s (open loop, ${total} letters, ${(total / loopSeconds).toFixed(1)}/s achieved):`);
  say(table([
    ['', 'n', 'p50', 'p95', 'p99', 'max'],
    ['write -> visible in the list', String(w.count), ms(w.p50), ms(w.p95), ms(w.p99), ms(w.max)],
    ['write -> LetterWritten on NATS', String(e.count), ms(e.p50), ms(e.p95), ms(e.p99), ms(e.max)],
    ['(send delay vs schedule)', String(late.count), ms(late.p50), ms(late.p95), ms(late.p99), ms(late.max)],
  ]));
  say('');
  const result = {
    at: new Date().toISOString(), node: process.versions.node, config, fillPerSecond: config.letters / fillSeconds,
    list: listPage, listWalk: walk, writeToVisible: w, writeToEvent: e, sendDelay: late, failures,
  };
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
  say(`LETTERS_BENCH_RESULT ${JSON.stringify({
    listP50: Number(listPage.p50.toFixed(2)), listP95: Number(listPage.p95.toFixed(2)), walkP50: Number(walk.p50.toFixed(1)),
    writeToVisibleP50: Number(w.p50.toFixed(1)), writeToVisibleP95: Number(w.p95.toFixed(1)), writeToEventP95: Number(e.p95.toFixed(1)),
  })}`);
  if (failures.length || Object.keys(listPage.failures).length) {
    exitCode = 1;
    say(`[letters-bench] some requests failed, the figures above are not trustworthy: ${JSON.stringify({ failures: failures.slice(0, 10), list: listPage.failures })}`);
  }
} catch (err) {
  exitCode = 1;
  say(`[letters-bench] failed: ${err instanceof StackError ? err.message : err.stack ?? err}`);
  say(`[letters-bench] the stack's logs are in ${logFile}`);
} finally {
  finishing = true;
  await cleanup();
  clearTimeout(watchdog);
  say(`[letters-bench] done in ${((Date.now() - startedAt) / 1000).toFixed(0)}s`);
}
process.exit(exitCode);
