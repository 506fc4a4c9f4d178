#!/usr/bin/env node
// Fault benchmark through the front door (issue 10, "Faults through the front door"), Jepsen-style:
// clients write letters and recordings through the HTTP API while every backend process is SIGKILLed
// in turn, and every write the API acknowledged must be there afterwards, exactly once.
//
//   writers   BENCH_FAULT_LETTER_WRITERS (4) clients write letters, each with an id of its own chosen
//             before the first try (POST /api/letters { id, title, content }); a failure (5xx, network
//             error, timeout) is retried with the same id and words until acknowledged. One client
//             saves small WebM recordings (POST /api/media/uploads, then PUT the bytes); a retry starts
//             over, and a 409 "Duplicate" counts as the acknowledgement of an earlier try that was
//             saved but whose answer was lost.
//   faults    every BENCH_FAULT_INTERVAL_S (10) s the next process is SIGKILLed: each
//             service (each runs its own outbox relay), then the worker, then the gateway. The stack supervises them:
//             each comes back after its backoff (1 s).
//   check     after the last restart and a quiet period, every acknowledged letter is read back by id
//             and in the list, every acknowledged recording is in "Your Recordings": acknowledged and
//             lost must be 0, duplicated (two letters or recordings for one write) must be 0.
//   figure    per kill, how long writes were unavailable: from the kill to the first acknowledgement
//             after it, per kind of write.
//
// Its own fresh stack (port 3250, databases lv_fault_*, data in .data/bench-fault, STACK_ID fault,
// Redis database 8). About 1-2 minutes. Output: tables, BENCH_FAULT_RESULT {...},
// .data/bench-fault/last-result.json. Exit code 1 when a write was lost or duplicated. Not a test.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, StackError, nodeBinary, root } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { int, ms, table, positiveEnv as env } from './stats.mjs';

const config = {
  port: env('BENCH_FAULT_PORT', 3250),
  letterWriters: env('BENCH_FAULT_LETTER_WRITERS', 4),
  intervalSeconds: env('BENCH_FAULT_INTERVAL_S', 10),
};
/** "Your Recordings" lists 100 at most: the recording client stops before that. */
const MAX_RECORDINGS = 90;
const REQUEST_TIMEOUT_MS = 15_000;
const dataDir = join(root, '.data', 'bench-fault');
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile, { flags: 'w' });
const say = (line) => console.log(line);

let stack;
async function cleanup() {
  if (stack) await stack.stop().catch((err) => say(`[fault] stopping the stack: ${err.message}`));
  stack = undefined;
  await new Promise((r) => logStream.end(r));
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void cleanup().finally(() => process.exit(130)));

const sleep = (msec) => new Promise((r) => setTimeout(r, msec));

async function api(path, { method = 'GET', body, token, raw, contentType } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (raw !== undefined) headers['content-type'] = contentType;
  const res = await fetch(`${stack.url}${path}`, {
    method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let json;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, json, text };
}

/** Tries `attempt` until it answers a value (not undefined); counts the failed tries. */
async function untilAcknowledged(attempt, stats) {
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch {
      // network error, timeout: the same write again
    }
    stats.retries++;
    await sleep(100);
  }
}

/** A small well-formed WebM: the EBML header, then random bytes (vault-media checks the header). */
const webm = () => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(16 * 1024)]);

let exitCode = 0;
const startedAt = Date.now();
try {
  say(`[fault] ${buildIfNeeded(root, nodeBinary(), say)}`);
  say(`[fault] starting a fresh stack on 127.0.0.1:${config.port} (logs: ${logFile})`);
  stack = await startStack({
    port: config.port, host: '127.0.0.1', dataDir, dbPrefix: 'lv_fault_', fresh: true, stackId: 'fault', redisDb: 8,
    s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn', supervise: true, restartBackoffMs: 1000,
    log: (line) => logStream.write(`${line}\n`),
  });
  const signUp = await api('/api/auth/sign-up', { method: 'POST', body: { email: `fault-${Date.now().toString(36)}@example.com`, password: 'bench-Password-1!' } });
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}: ${signUp.text}`);
  const token = signUp.json.accessToken;

  const victims = [...new Set(stack.processes.map((p) => p.name))];
  const acks = { letter: [], recording: [] }; // { id, at } in order of acknowledgement
  const stats = { letter: { retries: 0 }, recording: { retries: 0 } };
  let writing = true;

  const letterWriter = async (writer) => {
    for (let n = 0; writing; n++) {
      const id = randomUUID();
      const letter = { id, title: `Fault letter ${writer}-${n}`, content: `Written by client ${writer}, number ${n}. ${randomBytes(8).toString('hex')}` };
      await untilAcknowledged(async () => {
        const res = await api('/api/letters', { method: 'POST', token, body: letter });
        return res.status === 201 || res.status === 200 ? true : undefined;
      }, stats.letter);
      acks.letter.push({ id, at: performance.now(), title: letter.title });
    }
  };
  // Paced so that its MAX_RECORDINGS last the whole run: every kill has recordings in flight after it
  // (a fast machine saved all 90 in the first 35 s, and the later kills measured a writer at rest).
  const recordingPauseMs = Math.max(300, ((victims.length + 1) * config.intervalSeconds * 1000) / MAX_RECORDINGS);
  let recordingWriterDoneAt;
  const recordingWriter = async () => {
    for (let n = 0; writing && n < MAX_RECORDINGS; n++) {
      const bytes = webm();
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await untilAcknowledged(async () => {
        const start = await api('/api/media/uploads', { method: 'POST', token, body: { type: 'video', title: `Fault recording ${n}`, sha256, size: bytes.length } });
        if (start.status === 409 && start.json?.code === 'DUPLICATE_MEDIA') return true; // saved by an earlier try
        if (start.status !== 201) return undefined;
        const put = await api(start.json.uploadUrl, { method: 'PUT', token, raw: bytes, contentType: 'video/webm' });
        return put.status === 201 ? true : undefined;
      }, stats.recording);
      acks.recording.push({ id: sha256, at: performance.now() });
      await sleep(recordingPauseMs);
    }
    recordingWriterDoneAt = performance.now();
  };

  const writers = [...Array.from({ length: config.letterWriters }, (_, i) => letterWriter(i)), recordingWriter()];
  await sleep(config.intervalSeconds * 1000);
  const kills = [];
  for (const name of victims) {
    const target = stack.processes.find((p) => p.name === name && !p.exited);
    if (!target) throw new Error(`${name} is not running`);
    say(`[fault] SIGKILL ${name} (pid ${target.pid})`);
    kills.push({ name, at: performance.now() });
    target.child.kill('SIGKILL');
    await sleep(config.intervalSeconds * 1000);
  }
  writing = false;
  const writingStoppedAt = performance.now();
  await Promise.all(writers);
  // Quiet period: restarted processes settle, relays drain their outboxes.
  await sleep(3000);

  // Read everything back.
  const lost = { letter: [], recording: [] };
  const listed = [];
  for (let cursor; ;) {
    const page = await api(`/api/letters?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    if (page.status !== 200) throw new Error(`GET /api/letters answered ${page.status}: ${page.text}`);
    listed.push(...page.json.letters);
    cursor = page.json.nextCursor;
    if (!cursor) break;
  }
  const listedIds = new Set(listed.map((l) => l.id));
  for (const ack of acks.letter) {
    const one = await api(`/api/letters/${ack.id}`, { token });
    if (one.status !== 200 || one.json.title !== ack.title || !listedIds.has(ack.id)) lost.letter.push(ack.id);
  }
  // Every id a client chose was retried until acknowledged, so a listed letter that no client
  // acknowledged, or one listed twice, would be a write applied twice.
  const ackedIds = new Set(acks.letter.map((a) => a.id));
  const duplicatedLetters = listed.length - listedIds.size + [...listedIds].filter((id) => !ackedIds.has(id)).length;
  const recordings = await api('/api/media/recordings?limit=100', { token });
  if (recordings.status !== 200) throw new Error(`GET /api/media/recordings answered ${recordings.status}`);
  const savedHashes = recordings.json.map((r) => r.blob_hash);
  for (const ack of acks.recording) if (!savedHashes.includes(ack.id)) lost.recording.push(ack.id);
  const duplicatedRecordings = savedHashes.length - new Set(savedHashes).size;

  // Unavailability per kill: the longest time without an acknowledgement between the kill and the next
  // kill (the first gap starts at the kill itself). Answers already on their way when the process died
  // do not hide the outage that follows.
  const gapAfter = (kind, index) => {
    const from = kills[index].at;
    // A writer that had finished (the recordings' MAX_RECORDINGS) before this kill measures nothing.
    const writerDoneAt = kind === 'recording' ? recordingWriterDoneAt ?? Infinity : Infinity;
    if (writerDoneAt <= from) return null;
    const to = Math.min(kills[index + 1]?.at ?? writingStoppedAt, writerDoneAt);
    let last = from;
    let longest = 0;
    for (const ack of acks[kind]) {
      if (ack.at <= from || ack.at > to) continue;
      longest = Math.max(longest, ack.at - last);
      last = ack.at;
    }
    return Math.max(longest, to - last);
  };
  const killRows = kills.map((k, i) => [k.name, ms(gapAfter('letter', i)), ms(gapAfter('recording', i))]);

  say('');
  say(`Writes while ${victims.length} processes were SIGKILLed in turn (every ${config.intervalSeconds} s):`);
  say(table([
    ['', 'acknowledged', 'retries', 'lost', 'duplicated'],
    ['letters', int(acks.letter.length), int(stats.letter.retries), int(lost.letter.length), int(duplicatedLetters)],
    ['recordings', int(acks.recording.length), int(stats.recording.retries), int(lost.recording.length), int(duplicatedRecordings)],
  ]));
  say('');
  say('Writes unavailable after each kill (longest time without an acknowledgement until the next kill):');
  say(table([['killed', 'letters', 'recordings'], ...killRows]));
  const result = {
    at: new Date().toISOString(), config,
    letters: { acknowledged: acks.letter.length, retries: stats.letter.retries, lost: lost.letter.length, duplicated: duplicatedLetters },
    recordings: { acknowledged: acks.recording.length, retries: stats.recording.retries, lost: lost.recording.length, duplicated: duplicatedRecordings },
    unavailableMs: Object.fromEntries(kills.map((k, i) => [k.name, { letters: gapAfter('letter', i), recordings: gapAfter('recording', i) }])),
  };
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
  say(`BENCH_FAULT_RESULT ${JSON.stringify(result)}`);
  if (lost.letter.length || lost.recording.length || duplicatedLetters || duplicatedRecordings) {
    exitCode = 1;
    say(`[fault] LOST or DUPLICATED writes: ${JSON.stringify({ lost, duplicatedLetters, duplicatedRecordings })}`);
  }
} catch (err) {
  exitCode = 1;
  say(`[fault] failed: ${err instanceof StackError ? err.message : err.stack ?? err}`);
  say(`[fault] the stack's logs are in ${logFile}`);
} finally {
  await cleanup();
  say(`[fault] done in ${((Date.now() - startedAt) / 1000).toFixed(0)}s`);
}
process.exit(exitCode);
