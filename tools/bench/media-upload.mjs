#!/usr/bin/env node
// Media upload benchmark (issue 4), every figure measured in one run on this machine, against a fresh
// stack of its own (port 3210, databases lv_benchmedia_*, data in .data/bench-media, STACK_ID
// benchmedia, Redis database 5; processes logging at "warn"):
//
//   (a) throughput  a 200 MB WebM through the gateway (browser -> gateway -> vault-media -> object
//                   storage, streamed, hashed on the way) against a direct PUT of the same file to the
//                   same object store (the platform's multipart upload, the same 8 MiB parts). Three rounds,
//                   alternating; ratio of the mean throughputs. Goal >= 0.9 (issue 34).
//   (b) memory      peak RSS growth of the gateway and vault-media processes during the gateway uploads
//                   (sampled every 50 ms from /proc, over their RSS after a warm-up upload). Goal <= 64 MB.
//   (c) hashing     the worker's media-hashing job on the stored 200 MB object (streamed from storage
//                   and hashed, then reported to vault-media; BullMQ's processedOn..finishedOn) against
//                   the floor: a bare Node HTTP server (its own process, 4 MiB reads) streaming the
//                   same file to this process, which reads it as the worker does (readWholeObject,
//                   one reused buffer) and hashes it. Three rounds (the job, then its data
//                   again under new ids), each followed by one floor GET and one openssl run; ratio
//                   per round and best against best. Goals: job >= 0.8x the floor, and the worker's
//                   own hashing time >= 0.8x `openssl dgst -sha256` on the file.
//   (e) resumable   the same 200 MB through the gateway as the app now sends it: the tus PATCH of the
//                   whole body to the ticket's resumableUrl (parts stored as they fill, the hash state
//                   saved with each), in the same rounds, against the single PUT. Goal >= 0.8.
//   (f) transcode   a 30 s 640x360 VP8/Opus recording made by ffmpeg, saved as the app saves it: the
//                   worker's media-transcoding job (processedOn..finishedOn) against the same ffprobe and
//                   ffmpeg commands (libs/platform media-tools) run directly on the file, three rounds
//                   alternating (one sample each swung 0.77-1.02 on this machine); best against best.
//                   Goal >= 0.9.
//   (d) duplicate   saving the same recording again, as the SPA does it: its fingerprint is kept per
//                   recording (apps/web/src/api/media.ts fingerprintOf), so the POST is answered 409
//                   before any byte is sent, against the first upload (SHA-256 + POST + PUT).
//                   Goal >= 10x faster. Also shown: the same with the SHA-256 computed again.
//
// The media-hashing and media-transcoding queues are paused while (a) and (b) run, so the worker's
// hashing and conversion (which read each object back) do not compete with the uploads on two cores. Output: a table per phase, a BENCH_MEDIA_RESULT {...} line, and the
// result in .data/bench-media/last-result.json. Knobs: BENCH_MEDIA_PORT (3210), BENCH_MEDIA_MB (200).
// Not a test; do not run it next to another stack or a test run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStack, StackError, nodeBinary, root } from '../dev/stack.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { startFloorServer } from './media-upload-floor.mjs';
import { browserSha256, makeFile, patchFile, putFile, rssOf, sampleRss } from './media-upload-measure.mjs';
import { table } from './stats.mjs';

const MiB = 1024 * 1024;
const port = Number(process.env.BENCH_MEDIA_PORT ?? 3210);
const sizeMb = Number(process.env.BENCH_MEDIA_MB ?? 200);
const redisDb = 5;
const stackId = 'benchmedia';
const GOALS = { throughputRatio: 0.9, rssGrowthMb: 64, jobFloorRatio: 0.8, hashingCpuRatio: 0.8, duplicateSpeedup: 10, resumableRatio: 0.8, transcodeRatio: 0.9 };
const TRANSCODE_SECONDS = 30;
const TRANSCODE_ROUNDS = 3;
/** Rounds of (a): a direct PUT, the gateway's PUT and the resumable upload in each. */
const UPLOAD_ROUNDS = 3;
/** Users 0..UPLOAD_ROUNDS-1 save in the PUT rounds, this one the warm-up, the next ones in the resumable rounds. */
const WARM_UP_USER = UPLOAD_ROUNDS;
const HASH_ROUNDS = 3;
const WATCHDOG_MS = 300_000;

const dataDir = join(root, '.data', 'bench-media');
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile, { flags: 'w' });
const say = (line) => console.log(line);
let stack;
let finishing = false;

/** The floor's server while it runs: detached, so it must be stopped here on every way out. */
let floorServer;

async function cleanup() {
  floorServer?.kill();
  if (stack) await stack.stop().catch((err) => say(`[bench-media] stopping the stack: ${err.message}`));
  stack = undefined;
  await new Promise((r) => logStream.end(r));
}
// Signal handlers and the watchdog cannot await: the process exits with `code` whatever cleanup does.
const stopWith = (code) => void cleanup().catch((err) => say(`[bench-media] cleanup: ${err.message}`)).finally(() => process.exit(code));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (finishing) process.exit(130);
    finishing = true;
    stopWith(130);
  });
}
// One watchdog for the build and the stack's start, another for the measurements: on a loaded two-core
// machine the start alone can take two minutes.
const armWatchdog = (what) => {
  const timer = setTimeout(() => {
    say(`[bench-media] ${what} took longer than ${WATCHDOG_MS / 1000}s: stopping`);
    finishing = true;
    stopWith(1);
  }, WATCHDOG_MS);
  timer.unref();
  return timer;
};
let watchdog = armWatchdog('the build and the stack\'s start');

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mbps = (bytes, ms) => bytes / MiB / (ms / 1000);
const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${stack.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}


let exitCode = 0;
const startedAt = Date.now();
try {
  say(`[bench-media] ${buildIfNeeded(root, nodeBinary(), say)}`);
  const file = join(dataDir, `recording-${sizeMb}mb.webm`);
  const small = join(dataDir, 'warm-up-20mb.webm');
  say(`[bench-media] writing a ${sizeMb} MB test recording`);
  await makeFile(file, sizeMb * MiB);
  await makeFile(small, 20 * MiB);
  const size = statSync(file).size;

  say(`[bench-media] starting a fresh stack on 127.0.0.1:${port} (logs: ${logFile})`);
  stack = await startStack({
    port, host: '127.0.0.1', dataDir, dbPrefix: 'lv_benchmedia_', fresh: true, stackId, redisDb, s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn',
    log: (line) => logStream.write(`${line}\n`),
  });
  clearTimeout(watchdog);
  watchdog = armWatchdog('the measurements');
  const pid = (name) => stack.processes.find((p) => p.name === name).pid;
  const pids = { gateway: pid('gateway'), 'vault-media': pid('vault-media') };

  // The platform's own clients, from the build the stack runs.
  const { createObjectStorage } = await import(pathToFileURL(join(root, 'libs', 'platform', 'dist', 'storage', 'index.js')).href);
  const { createQueue, createRedisConnection } = await import(pathToFileURL(join(root, 'libs', 'platform', 'dist', 'queues', 'index.js')).href);
  const storage = createObjectStorage({ S3_ENDPOINT: stack.s3.endpoint, S3_REGION: stack.s3.region, S3_ACCESS_KEY: stack.s3.accessKey, S3_SECRET_KEY: stack.s3.secretKey }, { partSize: 8 * MiB });
  const connection = createRedisConnection(`redis://127.0.0.1:6379/${redisDb}`, { role: 'producer', name: 'bench-media' });
  const { Queues } = await import(pathToFileURL(join(root, 'libs', 'contracts', 'dist', 'index.js')).href);
  const queue = createQueue(Queues.MediaHashing, connection, { prefix: `lv-${stackId}` });
  await queue.pause();
  // Every saved recording also gets a playback copy: the job reads the whole object back from storage
  // (and gives up on these random bytes), so it too waits until (f), off the uploads' cores and storage.
  const transcodeQueue = createQueue(Queues.MediaTranscoding, connection, { prefix: `lv-${stackId}` });
  await transcodeQueue.pause();

  const password = 'bench-Password-1!';
  const tokens = [];
  // A user saves one recording once: one per PUT round, the warm-up's, one per resumable round. The
  // transcoding rounds use the warm-up's and the resumable rounds' users (another recording).
  for (let i = 0; i < 2 * UPLOAD_ROUNDS + 1; i++) {
    const email = `bench-media-${i}-${Date.now().toString(36)}@example.com`;
    const res = await api('/api/auth/sign-up', { method: 'POST', body: { email, password } });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    // Saving a video is Pro's (the plans table): the operator's CLI puts the user on it, and a new sign-in carries the tier.
    const tier = spawnSync(nodeBinary(), [join(root, 'tools', 'cli', 'dist', 'main.js'), 'user:tier', email, 'pro'], {
      cwd: root, encoding: 'utf8', env: { ...process.env, STACK_ID: stackId, JWT_PRIVATE_KEY: join(dataDir, 'keys', 'jwt-private.pem'), NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' },
    });
    if (tier.status !== 0) throw new Error(`user:tier failed: ${tier.stderr}`);
    const signIn = await api('/api/auth/sign-in', { method: 'POST', body: { email, password } });
    if (signIn.status !== 200 && signIn.status !== 201) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    tokens.push((await signIn.json()).accessToken);
  }

  /** The browser's whole save: hash, POST (dedupe), PUT (streamed); times of each step. */
  async function saveThroughGateway(path, token, sha256) {
    const t0 = performance.now();
    const start = await api('/api/media/uploads', { method: 'POST', token, body: { type: 'video', title: 'Bench recording', sha256, size: statSync(path).size } });
    const t1 = performance.now();
    if (start.status !== 201) return { status: start.status, postMs: t1 - t0, body: await start.text() };
    const ticket = await start.json();
    const put = await putFile(`${stack.url}${ticket.uploadUrl}`, path, token);
    const t2 = performance.now();
    if (put.status !== 201) throw new Error(`upload answered ${put.status}: ${put.body}`);
    return { status: 201, postMs: t1 - t0, putMs: t2 - t1, recording: JSON.parse(put.body) };
  }

  /** The app's save since uploads resume: POST, then the tus PATCH of the whole body (the connection holds). */
  async function saveResumably(path, token, sha256) {
    const start = await api('/api/media/uploads', { method: 'POST', token, body: { type: 'video', title: 'Bench recording', sha256, size: statSync(path).size } });
    if (start.status !== 201) throw new Error(`the POST answered ${start.status}: ${await start.text()}`);
    const ticket = await start.json();
    const t0 = performance.now();
    const patch = await patchFile(`${stack.url}${ticket.resumableUrl}`, path, token);
    const ms = performance.now() - t0;
    if (patch.status !== 200) throw new Error(`the resumable upload answered ${patch.status}: ${patch.body}`);
    return { ms, recording: JSON.parse(patch.body) };
  }

  say('[bench-media] client-side SHA-256 of the recording (what the browser does before the POST)');
  const fileBytes = readFileSync(file);
  const { hex: fileSha, ms: clientHashMs } = await browserSha256(fileBytes);
  const { hex: smallSha } = await browserSha256(readFileSync(small));
  let t;

  say('[bench-media] warm-up: a 20 MB upload through the gateway, and a direct one');
  await saveThroughGateway(small, tokens[WARM_UP_USER], smallSha);
  await storage.upload('vaultmedia', 'bench/warm-up.webm', createReadStream(small), { contentType: 'video/webm' });
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = Object.fromEntries(Object.entries(pids).map(([name, p]) => [name, rssOf(p)]));

  // (a) + (b): UPLOAD_ROUNDS rounds, alternating direct and gateway.
  const direct = [];
  const gateway = [];
  const resumable = [];
  const peaks = [];
  for (let round = 0; round < UPLOAD_ROUNDS; round++) {
    say(`[bench-media] round ${round + 1}: direct PUT of ${sizeMb} MB to object storage`);
    t = performance.now();
    await storage.upload('vaultmedia', `bench/direct-${round}.webm`, createReadStream(file, { highWaterMark: MiB }), { contentType: 'video/webm' });
    direct.push(performance.now() - t);
    say(`[bench-media] round ${round + 1}: ${sizeMb} MB through the gateway`);
    const stopSampling = sampleRss(pids);
    const saved = await saveThroughGateway(file, tokens[round], fileSha);
    peaks.push(stopSampling());
    gateway.push({ ...saved, totalMs: saved.postMs + saved.putMs });
    if (saved.recording.blob_hash !== fileSha || saved.recording.size !== size) throw new Error('the stored recording does not match the file');
    say(`[bench-media] round ${round + 1}: ${sizeMb} MB through the gateway, resumable (tus PATCH)`);
    const resumed = await saveResumably(file, tokens[WARM_UP_USER + 1 + round], fileSha);
    if (resumed.recording.blob_hash !== fileSha || resumed.recording.size !== size) throw new Error('the resumable upload does not match the file');
    resumable.push(resumed.ms);
  }
  const meanThroughput = (list) => list.reduce((a, b) => a + b, 0) / list.length;
  const directMbps = meanThroughput(direct.map((ms) => mbps(size, ms)));
  const gatewayMbps = meanThroughput(gateway.map((g) => mbps(size, g.putMs)));
  const throughputRatio = gatewayMbps / directMbps;
  const resumableMbps = meanThroughput(resumable.map((ms) => mbps(size, ms)));
  const resumableRatio = resumableMbps / gatewayMbps;
  const growth = Object.fromEntries(Object.keys(pids).map((name) => [name, Math.max(...peaks.map((p) => p[name])) - rssBefore[name]]));

  // (d) duplicate: the same recording again, for the owner of round 1.
  say('[bench-media] duplicate re-upload of the round-1 recording');
  const { hex: dupSha, ms: dupHashMs } = await browserSha256(fileBytes);
  if (dupSha !== fileSha) throw new Error('the fingerprint changed');
  const duplicate = await saveThroughGateway(file, tokens[0], fileSha);
  if (duplicate.status !== 409) throw new Error(`the duplicate was answered ${duplicate.status}, not 409`);
  const firstMs = clientHashMs + gateway[0].totalMs;
  // The SPA keeps the fingerprint of the recording it holds: saving it again is the POST alone.
  const duplicateMs = duplicate.postMs;
  const duplicateSpeedup = firstMs / duplicateMs;
  const duplicateRehashSpeedup = firstMs / (dupHashMs + duplicate.postMs);

  // (c) hashing, in HASH_ROUNDS rounds: the worker's job on round 1's object, then the same job's data
  // again under a new id (the job is idempotent: the same result reported twice changes nothing),
  // each round followed by one floor GET, one in-bench stream and one openssl run, so that every
  // figure of a round sees the same load. Ratios per round, and best against best.
  say(`[bench-media] server hashing: the media-hashing job of the round-1 recording, ${HASH_ROUNDS} rounds against the floor and openssl`);
  for (const later of gateway.slice(1)) await queue.remove(later.recording.id).catch(() => undefined);
  for (const job of await queue.getJobs(['waiting', 'delayed'])) if (job.id !== gateway[0].recording.id) await job.remove().catch(() => undefined);
  const { enqueue } = await import(pathToFileURL(join(root, 'libs', 'platform', 'dist', 'queues', 'index.js')).href);
  // The worker's reader (libs/platform/dist, built by the bench's build check).
  const { readWholeObject } = await import(pathToFileURL(join(root, 'libs', 'platform', 'dist', 'storage', 'whole-object-read.js')).href);
  const floor = await startFloorServer(file, fileSha, { readWholeObject, onSpawn: (server) => { floorServer = server; } });
  const hashRounds = [];
  let firstJob;
  try {
    await queue.resume();
    for (let r = 0; r < HASH_ROUNDS; r++) {
      const jobId = r === 0 ? gateway[0].recording.id : `${gateway[0].recording.id}-bench-${r}`;
      if (r > 0) await enqueue(queue, firstJob.data, jobId);
      let job;
      for (let i = 0; i < 600; i++) {
        job = await queue.getJob(jobId);
        if (job?.finishedOn) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      if (!job?.finishedOn) throw new Error(`the media-hashing job ${jobId} did not finish within 30 s`);
      if (job.returnvalue?.integrity !== 'verified' || job.returnvalue.sha256 !== fileSha) throw new Error(`the job reported ${JSON.stringify(job.returnvalue)}`);
      if (r === 0) firstJob = job;
      const floorMs = await floor.hashOnce();
      const nodeHttpFloorMs = await floor.hashWithNodeHttp();
      t = performance.now();
      const streamed = createHash('sha256');
      for await (const chunk of await storage.getObject('vaultmedia', gateway[0].recording.file_path)) streamed.update(chunk);
      const inBenchStreamMs = performance.now() - t;
      if (streamed.digest('hex') !== fileSha) throw new Error('the in-bench stream hashed differently');
      t = performance.now();
      const ssl = spawnSync('openssl', ['dgst', '-sha256', file], { encoding: 'utf8' });
      const opensslMs = performance.now() - t;
      if (!ssl.stdout.includes(fileSha)) throw new Error(`openssl disagrees: ${ssl.stdout}`);
      const { firstByteMs, readMs, ms, hashMs, chunks } = job.returnvalue;
      hashRounds.push({ jobMs: job.finishedOn - job.processedOn, jobHashMs: hashMs, firstByteMs, readMs, reportMs: ms - readMs, processorMs: ms, chunks, floorMs, nodeHttpFloorMs, inBenchStreamMs, opensslMs });
    }
  } finally {
    floor.close();
  }
  const best = (key) => Math.min(...hashRounds.map((h) => h[key]));
  const jobMs = best('jobMs');
  const jobHashMs = best('jobHashMs');
  const floorMs = best('floorMs');
  const opensslMs = best('opensslMs');
  const inBenchStreamMs = best('inBenchStreamMs');
  // Time ratios are throughput ratios: the same bytes each time.
  const jobFloorRatio = floorMs / jobMs;
  const hashingCpuRatio = opensslMs / jobHashMs;
  const hashingRatio = opensslMs / jobMs;
  const floorOpensslRatio = opensslMs / floorMs;

  // (f) transcoding: a real recording (made here by ffmpeg), saved as the app saves it; the worker's
  // media-transcoding job (BullMQ processedOn..finishedOn: download, probe, rendition, probe, poster,
  // uploads, report) against the same ffmpeg and ffprobe commands run directly on the file.
  say(`[bench-media] transcoding: a ${TRANSCODE_SECONDS} s 640x360 VP8/Opus recording, the media-transcoding job against its ffmpeg commands run directly`);
  const tools = await import(pathToFileURL(join(root, 'libs', 'platform', 'dist', 'media-tools', 'index.js')).href);
  const transcodeFile = join(dataDir, 'transcode.webm');
  await tools.runTool('ffmpeg', ['-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=30:duration=${TRANSCODE_SECONDS}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${TRANSCODE_SECONDS}`,
    '-c:v', 'libvpx', '-b:v', '1M', '-deadline', 'realtime', '-c:a', 'libopus', '-shortest', transcodeFile], 300_000);
  // Only this recording's job: the random files' jobs (nothing to convert) are set aside.
  await transcodeQueue.drain();
  await transcodeQueue.resume();
  const { hex: recordingSha } = await browserSha256(readFileSync(transcodeFile));
  // TRANSCODE_ROUNDS rounds, each the job (the recording saved by another owner: a new job) then the
  // commands run directly, so both see the same load; ratio best against best, each round's shown.
  const transcodeJobs = [];
  const transcodeJobTimes = [];
  const transcodeDirectTimes = [];
  for (let round = 0; round < TRANSCODE_ROUNDS; round++) {
    const transcoded = await saveResumably(transcodeFile, tokens[WARM_UP_USER + round], recordingSha);
    let transcodeJob;
    for (let i = 0; i < 6000 && !transcodeJob?.finishedOn; i++) {
      transcodeJob = await transcodeQueue.getJob(transcoded.recording.id);
      if (!transcodeJob?.finishedOn) await new Promise((res) => setTimeout(res, 100));
    }
    if (!transcodeJob?.finishedOn || transcodeJob.returnvalue?.transcode !== 'ready') throw new Error(`the media-transcoding job did not make a playback copy: ${JSON.stringify(transcodeJob?.returnvalue ?? transcodeJob?.failedReason)}`);
    transcodeJobs.push(transcodeJob.returnvalue);
    transcodeJobTimes.push(transcodeJob.finishedOn - transcodeJob.processedOn);
    const directCopy = join(dataDir, 'transcode-direct.mp4');
    t = performance.now();
    const probed = tools.parseProbe(await tools.runTool('ffprobe', [...tools.PROBE_ARGS, transcodeFile], 60_000));
    await tools.runTool('ffmpeg', tools.renditionArgs(tools.renditionKindOf('video', probed), transcodeFile, directCopy), 600_000);
    const made = tools.parseProbe(await tools.runTool('ffprobe', [...tools.PROBE_ARGS, directCopy], 60_000));
    await tools.runTool('ffmpeg', tools.posterArgs(directCopy, join(dataDir, 'transcode-direct.jpg'), made.durationSeconds), 60_000);
    transcodeDirectTimes.push(performance.now() - t);
  }
  const transcodeJobMs = Math.min(...transcodeJobTimes);
  const transcodeDirectMs = Math.min(...transcodeDirectTimes);
  const transcodeRatio = transcodeDirectMs / transcodeJobMs;
  await transcodeQueue.close();

  await queue.close();
  connection.disconnect();

  say('');
  say(`(a) ${sizeMb} MB upload, ${UPLOAD_ROUNDS} rounds (MiB/s):`);
  say(table([
    ['', ...direct.map((_, i) => `round ${i + 1}`), 'mean MiB/s'],
    ['direct PUT to object storage', ...direct.map((ms) => `${fmt(mbps(size, ms))} (${seconds(ms)})`), fmt(directMbps)],
    ['through the gateway (PUT)', ...gateway.map((g) => `${fmt(mbps(size, g.putMs))} (${seconds(g.putMs)})`), fmt(gatewayMbps)],
    ['through the gateway, resumable (tus PATCH)', ...resumable.map((ms) => `${fmt(mbps(size, ms))} (${seconds(ms)})`), fmt(resumableMbps)],
  ]));
  say(`ratio gateway/direct: ${throughputRatio.toFixed(2)} (goal >= ${GOALS.throughputRatio}); resumable/PUT: ${resumableRatio.toFixed(2)} (goal >= ${GOALS.resumableRatio}); resumable/direct: ${(resumableMbps / directMbps).toFixed(2)}`);
  say('');
  say('(b) peak RSS growth during the gateway uploads (over RSS after the warm-up):');
  say(table([['', 'RSS before', 'peak', 'growth'], ...Object.keys(pids).map((name) => [name, `${fmt(rssBefore[name] / MiB)} MB`, `${fmt(Math.max(...peaks.map((p) => p[name])) / MiB)} MB`, `${fmt(growth[name] / MiB)} MB`])]));
  say(`goal <= ${GOALS.rssGrowthMb} MB each`);
  say('');
  say(`(c) SHA-256 of the ${sizeMb} MB object, ${HASH_ROUNDS} rounds (time, MiB/s):`);
  const cell = (ms) => `${seconds(ms)} (${fmt(mbps(size, ms), 0)})`;
  const per = (label, key) => [label, ...hashRounds.map((h) => cell(h[key])), cell(best(key))];
  say(table([
    ['', ...hashRounds.map((_, i) => `round ${i + 1}`), 'best'],
    per('worker media-hashing job (BullMQ processedOn..finishedOn)', 'jobMs'),
    ['  in the job: first byte / read + hash / report to vault-media', ...hashRounds.map((h) => `${seconds(h.firstByteMs)} / ${seconds(h.readMs)} / ${seconds(h.reportMs)}`), ''],
    per('  of which hashing in the worker (hash.update/digest)', 'jobHashMs'),
    ['  pieces the worker read the object in (mean KiB)', ...hashRounds.map((h) => `${h.chunks} (${fmt(size / h.chunks / 1024, 0)})`), ''],
    per('floor: bare Node HTTP server -> the same reader + hash in this process', 'floorMs'),
    per('  the same GET through Node\'s HTTP client (for scale)', 'nodeHttpFloorMs'),
    per('the platform\'s getObject + hash in this process (no queue)', 'inBenchStreamMs'),
    per('openssl dgst -sha256 on the file', 'opensslMs'),
    ['job / floor (throughput)', ...hashRounds.map((h) => (h.floorMs / h.jobMs).toFixed(2)), jobFloorRatio.toFixed(2)],
  ]));
  say(`job / floor: ${jobFloorRatio.toFixed(2)} (goal >= ${GOALS.jobFloorRatio}); the worker's hashing / openssl: ${hashingCpuRatio.toFixed(2)} (goal >= ${GOALS.hashingCpuRatio})`);
  say(`  for scale: job / openssl ${hashingRatio.toFixed(2)}, floor / openssl ${floorOpensslRatio.toFixed(2)}: moving ${sizeMb} MB over loopback HTTP costs both processes CPU on the cores the hash needs`);
  say('');
  say('(d) duplicate re-upload against the first upload:');
  say(table([
    ['', 'client SHA-256', 'POST', 'PUT', 'total'],
    ['first upload (round 1)', seconds(clientHashMs), seconds(gateway[0].postMs), seconds(gateway[0].putMs), seconds(firstMs)],
    ['duplicate (fingerprint kept; 409 before the body)', '-', seconds(duplicate.postMs), '-', seconds(duplicateMs)],
    ['  the same, had the SHA-256 been computed again', seconds(dupHashMs), seconds(duplicate.postMs), '-', seconds(dupHashMs + duplicate.postMs)],
  ]));
  say(`duplicate is ${duplicateSpeedup.toFixed(0)}x faster (goal >= ${GOALS.duplicateSpeedup}x); ${duplicateRehashSpeedup.toFixed(1)}x had the SHA-256 been computed again`);

  say('');
  say(`(f) the playback copy of a ${TRANSCODE_SECONDS} s 640x360 recording, ${TRANSCODE_ROUNDS} rounds: the media-transcoding job ${transcodeJobTimes.map(seconds).join(', ')}, the same ffprobe/ffmpeg commands run directly ${transcodeDirectTimes.map(seconds).join(', ')}; best against best ${transcodeRatio.toFixed(2)} (goal >= ${GOALS.transcodeRatio}), per round ${transcodeJobTimes.map((ms, i) => (transcodeDirectTimes[i] / ms).toFixed(2)).join(', ')}`);

  const result = {
    at: new Date().toISOString(), node: process.versions.node, sizeBytes: size,
    throughput: { directMs: direct, gatewayPutMs: gateway.map((g) => g.putMs), directMbps, gatewayMbps, ratio: throughputRatio, resumableMs: resumable, resumableMbps, resumableRatio },
    rss: { before: rssBefore, peaks, growth },
    hashing: { rounds: hashRounds, jobMs, jobHashMs, inBenchStreamMs, opensslMs, floorMs, jobFloorRatio, cpuRatio: hashingCpuRatio, opensslRatio: hashingRatio, floorOpensslRatio },
    duplicate: { clientHashMs, firstMs, duplicateMs, duplicatePostMs: duplicate.postMs, speedup: duplicateSpeedup, rehashMs: dupHashMs, rehashSpeedup: duplicateRehashSpeedup },
    transcoding: { seconds: TRANSCODE_SECONDS, jobMs: transcodeJobTimes, directMs: transcodeDirectTimes, ratio: transcodeRatio, jobs: transcodeJobs },
    goals: GOALS,
  };
  writeFileSync(join(dataDir, 'last-result.json'), `${JSON.stringify(result, null, 2)}\n`);
  const met = {
    throughput: throughputRatio >= GOALS.throughputRatio,
    resumable: resumableRatio >= GOALS.resumableRatio,
    rss: Object.values(growth).every((g) => g / MiB <= GOALS.rssGrowthMb),
    hashing: jobFloorRatio >= GOALS.jobFloorRatio && hashingCpuRatio >= GOALS.hashingCpuRatio,
    duplicate: duplicateSpeedup >= GOALS.duplicateSpeedup,
    transcode: transcodeRatio >= GOALS.transcodeRatio,
  };
  say(`BENCH_MEDIA_RESULT ${JSON.stringify({
    throughputRatio: Number(throughputRatio.toFixed(2)), resumableRatio: Number(resumableRatio.toFixed(2)), resumableDirectRatio: Number((resumableMbps / directMbps).toFixed(2)), resumableMbps: Number(resumableMbps.toFixed(1)), gatewayMbps: Number(gatewayMbps.toFixed(1)), directMbps: Number(directMbps.toFixed(1)),
    rssGrowthMb: Object.fromEntries(Object.entries(growth).map(([k, v]) => [k, Number((v / MiB).toFixed(1))])),
    hashingJobFloorRatio: Number(jobFloorRatio.toFixed(2)), hashingJobFloorRounds: hashRounds.map((h) => Number((h.floorMs / h.jobMs).toFixed(2))), hashingCpuRatio: Number(hashingCpuRatio.toFixed(2)), hashingRatio: Number(hashingRatio.toFixed(2)), hashingFloorRatio: Number(floorOpensslRatio.toFixed(2)), duplicateSpeedup: Number(duplicateSpeedup.toFixed(1)), duplicateRehashSpeedup: Number(duplicateRehashSpeedup.toFixed(1)), transcodeRatio: Number(transcodeRatio.toFixed(2)), goalsMet: met,
  })}`);
} catch (err) {
  exitCode = 1;
  say(`[bench-media] failed: ${err instanceof StackError ? err.message : err.stack ?? err}`);
  say(`[bench-media] the stack's logs are in ${logFile}`);
} finally {
  finishing = true;
  await cleanup();
  for (const name of [`recording-${sizeMb}mb.webm`, 'warm-up-20mb.webm', 'transcode.webm', 'transcode-direct.mp4', 'transcode-direct.jpg']) rmSync(join(dataDir, name), { force: true });
  clearTimeout(watchdog);
  say(`[bench-media] done in ${((Date.now() - startedAt) / 1000).toFixed(0)}s`);
}
process.exit(exitCode);
