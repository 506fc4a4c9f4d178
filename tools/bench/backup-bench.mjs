#!/usr/bin/env node
// Backup and restore benchmark (issue 33), every figure measured in one run on this machine, 127.0.0.1 only.
//
// The vault: a fresh stack of its own (port 3290, databases lv_bkbench_*, data in .data/backup-bench,
// STACK_ID bkbench, Redis database 15, processes at "warn") fills its databases through the real API:
// 10 users write 1,000 letters each (POST /api/letters, 8 at a time), so 10,000 entries go through the
// letters service's commands, event store, outbox and projections. Then 1 GiB of media objects (8 MiB
// each, random bytes: recordings do not compress) is put into the vaultmedia bucket of the stack's S3
// stand-in. The stack's services are then stopped, and the S3 stand-in serves the same folder again
// as a process of its own (S3_PORT 0), so nothing idle competes with the measurements.
//
//   (a) backup    `vault backup` (tools/cli, its own process: pg_dump of every service's database, every
//                 object read from S3 and hashed, the keys, restic into a fresh repository) against the
//                 floor: pg_dump --format=custom of the same databases plus `cp -r` of the S3 stand-in's
//                 folder. Ratio floor time / our time; goal >= 0.7.
//   (b) again     a second `vault backup` with nothing changed: its time against (a)'s (goal < 10 %), and
//                 the bytes restic had to add against the first's; its floor: pg_dump of every database
//                 again plus restic alone over the floor's folder again (its parent skips the objects).
//   (c) restore   `vault restore <snapshot>` into empty databases (lv_bkbench_restore_*) and a second,
//                 empty S3 stand-in, against the floor: pg_restore of the floor's dumps into empty
//                 databases plus `cp -r` of the copied objects back. Ratio floor / ours; goal >= 0.7.
//   (d) memory    peak RSS of the backup's and the restore's process tree (the CLI, pg_dump, restic...),
//                 the sum over the tree sampled every 50 ms from /proc.
//   machine floor what this machine allows an encrypted backup through this object store, each part timed
//                 alone in the same run: (a) the dumps + every object read over S3 into files
//                 (s3-transfer-floor.mjs, 4 at a time, nothing hashed) + restic alone; (c) restic alone's
//                 restore + pg_restore + every object written over S3. Ratio floor / ours.
//   where the time goes: restic alone backs up the floor's folder (the same dumps and objects, on disk)
//                 into a repository of its own, and restores it into a folder: what the tool costs
//                 without our S3 reads, hashing, manifest and checks.
//
// Output: a table, a BENCH_BACKUP_RESULT {...} line and .data/backup-bench/last-result.json. `--small`
// (or BENCH_BACKUP_LETTERS / BENCH_BACKUP_MEDIA_MB) for a quick check: 500 letters and 64 MiB. Everything
// it creates (databases lv_bkbench_*, the folder) is its own; its databases are dropped at the end.
// Not a test; do not run it next to another stack or a test run on a two-core machine.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startStack, StackError, nodeBinary, root } from '../dev/stack.mjs';
import { startS3Process } from '../dev/stack-processes.mjs';
import { DEFAULT_S3_ACCESS_KEY, DEFAULT_S3_SECRET_KEY } from '../dev/s3-server.mjs';
import { buildIfNeeded } from './build-check.mjs';
import { table, positiveEnv as env } from './stats.mjs';

const MiB = 1024 * 1024;
const small = process.argv.includes('--small');
const config = {
  port: env('BENCH_BACKUP_PORT', 3290),
  letters: env('BENCH_BACKUP_LETTERS', small ? 500 : 10_000),
  mediaMb: env('BENCH_BACKUP_MEDIA_MB', small ? 64 : 1024),
  users: 10,
  concurrency: 8,
  objectMb: 8,
};
const STACK_ID = 'bkbench';
const DB_PREFIX = 'lv_bkbench_';
const RESTORE_PREFIX = 'lv_bkbench_restore_';
const FLOOR_PREFIX = 'lv_bkbench_floor_';
const REDIS_DB = 15;
const GOALS = { floorRatio: 0.7, secondBackupShare: 0.1 };
const WATCHDOG_MS = 1_800_000;
const PASSWORD = `bench-${randomBytes(16).toString('hex')}`;

const dataDir = join(root, '.data', 'backup-bench');
const say = (line) => console.log(line);

let stack;
const servers = [];
let finishing = false;
let logStream;
let postgresUrl;

/** Drops every database this bench made (its stack's, the restore's and the floor's). */
async function dropOwnDatabases() {
  if (!postgresUrl) return;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query("select datname from pg_database where datname like 'lv\\_bkbench\\_%'");
    for (const { datname } of rows) await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
  } finally {
    await client.end();
  }
}

async function cleanup() {
  if (stack) await stack.stop().catch((err) => say(`[bench-backup] stopping the stack: ${err.message}`));
  stack = undefined;
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
  await dropOwnDatabases().catch((err) => say(`[bench-backup] dropping its databases: ${err.message}`));
  if (logStream) await new Promise((r) => logStream.end(r));
}
const stopWith = (code) => void cleanup().catch((err) => say(`[bench-backup] cleanup: ${err.message}`)).finally(() => process.exit(code));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (finishing) process.exit(130);
    finishing = true;
    stopWith(130);
  });
}
const watchdog = setTimeout(() => {
  say(`[bench-backup] the run took longer than ${WATCHDOG_MS / 1000}s: stopping`);
  finishing = true;
  stopWith(1);
}, WATCHDOG_MS);
watchdog.unref();

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const ratio = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');

/** The RSS of `pid` and of every process under it (Linux /proc), in bytes; 0 once it is gone. */
function treeRss(pid) {
  let total = 0;
  try {
    total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) total += treeRss(Number(child));
    }
  } catch {
    // The process (or a child) ended between two reads.
  }
  return total;
}

/** Runs a command to its end, its process tree's RSS sampled every 50 ms; rejects on a non-zero exit. */
function timed(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let peakRss = 0;
    const sampler = setInterval(() => { peakRss = Math.max(peakRss, treeRss(child.pid)); }, 50);
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(sampler);
      const ms = performance.now() - started;
      const stdout = Buffer.concat(out).toString('utf8');
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString('utf8').trim().split('\n').slice(-5).join(' / ')}`));
      else resolve({ ms, peakRss, stdout });
    });
  });
}

/** A shell pipeline of the floor, timed the same way (its tree's RSS too). */
const timedShell = (script, envExtra = {}) => timed('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...envExtra } });

const quote = (s) => `'${s.replace(/'/g, "'\\''")}'`;

const SENTENCES = [
  'I kept the ticket from the day we drove to the sea, and it is in the blue box under the stairs.',
  'When you read this you will be older than I was when I first held you.',
  'Your grandmother taught me to bake bread on Sundays; the recipe is at the end of this letter.',
  'I was afraid of many things, and none of them turned out to matter as much as I thought.',
  'Call your brother on his birthday, even in the years when it is hard.',
  'The garden was always more yours than mine: you knew where every bulb was planted.',
];
const letterBody = (i) => Array.from({ length: 6 + (i % 20) }, (_, k) => SENTENCES[(i + k) % SENTENCES.length]).join(' ');

async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${stack.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Runs `work(i)` for i in [0, count) with `concurrency` in flight. */
async function pool(count, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await work(next++);
  }));
}

/** Every service's database of a prefix, as the CLI names them. */
async function serviceDatabases(prefix) {
  const { SERVICES } = await import(pathToFileURL(join(root, 'libs', 'contracts', 'dist', 'index.js')).href);
  return SERVICES.map((service) => ({ service, name: `${prefix}${service.replace(/-/g, '_')}` }));
}

let exitCode = 0;
try {
  say(`[bench-backup] ${buildIfNeeded(root, nodeBinary(), say)}`);
  // The CLI is not part of the stack: built here like `npm run vault` does.
  const build = spawnSync(nodeBinary(), [join(root, 'tools', 'build', 'build.mjs'), 'libs/contracts', 'libs/platform', 'tools/cli'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error(`building tools/cli failed (exit ${build.status})`);

  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'stack.log');
  logStream = createWriteStream(logFile, { flags: 'w' });

  say(`[bench-backup] starting a fresh stack on 127.0.0.1:${config.port} (logs: ${logFile})`);
  stack = await startStack({
    port: config.port, host: '127.0.0.1', dataDir, dbPrefix: DB_PREFIX, fresh: true, stackId: STACK_ID, redisDb: REDIS_DB, s3Port: 0, smtpPort: 0, mailHttpPort: 0, logLevel: 'warn',
    log: (line) => logStream.write(`${line}\n`),
  });
  postgresUrl = stack.postgresUrl;

  say(`[bench-backup] writing ${config.letters.toLocaleString('en-GB')} letters through the API (${config.users} users, ${config.concurrency} at a time)`);
  const tokens = [];
  for (let u = 0; u < config.users; u++) {
    const res = await api('/api/auth/sign-up', { method: 'POST', body: { email: `bkbench-${u}-${Date.now().toString(36)}@example.com`, password: 'bench-Password-1!' } });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
    tokens.push((await res.json()).accessToken);
  }
  const writeStarted = performance.now();
  await pool(config.letters, config.concurrency, async (i) => {
    const res = await api('/api/letters', { method: 'POST', token: tokens[i % tokens.length], body: { id: randomUUID(), title: `Letter ${i + 1}`, content: letterBody(i) } });
    if (res.status !== 201) throw new Error(`writing letter ${i} answered ${res.status}: ${await res.text()}`);
  });
  say(`[bench-backup] letters written in ${seconds(performance.now() - writeStarted)}`);

  // The platform's own client, from the build the stack runs.
  const { createObjectStorage } = await import(pathToFileURL(join(root, 'libs', 'platform', 'dist', 'storage', 'index.js')).href);
  const { Buckets } = await import(pathToFileURL(join(root, 'libs', 'contracts', 'dist', 'index.js')).href);
  const s3Of = (server) => ({ S3_ENDPOINT: server.endpoint, S3_REGION: server.region, S3_ACCESS_KEY: server.accessKey, S3_SECRET_KEY: server.secretKey });
  const source = createObjectStorage(s3Of(stack.s3), { partSize: 8 * MiB });
  const objectCount = Math.ceil(config.mediaMb / config.objectMb);
  say(`[bench-backup] putting ${objectCount} objects of ${config.objectMb} MiB (${config.mediaMb} MiB) into ${Buckets.vaultmedia}`);
  await source.ensureBucket(Buckets.vaultmedia);
  for (let i = 0; i < objectCount; i++) {
    await source.upload(Buckets.vaultmedia, `bench-owner-${i % config.users}/recordings/${randomUUID()}.webm`, Readable.from([randomBytes(config.objectMb * MiB)]), { contentType: 'video/webm' });
  }

  // The services stop (their databases stay); the S3 stand-in serves the same folder, alone.
  const s3Dir = join(dataDir, 's3');
  await stack.stop();
  stack = undefined;
  const sourceS3 = await startS3Process({ port: 0, host: '127.0.0.1', directory: s3Dir, accessKey: DEFAULT_S3_ACCESS_KEY, secretKey: DEFAULT_S3_SECRET_KEY, log: () => undefined });
  servers.push(sourceS3);
  const targetS3 = await startS3Process({ port: 0, host: '127.0.0.1', directory: join(dataDir, 's3-restored'), accessKey: DEFAULT_S3_ACCESS_KEY, secretKey: DEFAULT_S3_SECRET_KEY, log: () => undefined });
  servers.push(targetS3);

  const databases = await serviceDatabases(DB_PREFIX);
  const cli = join(root, 'tools', 'cli', 'dist', 'main.js');
  const cliEnv = (over) => ({
    ...process.env,
    NODE_ENV: 'development',
    POSTGRES_URL: postgresUrl,
    DATABASE_PREFIX: DB_PREFIX,
    ...s3Of(sourceS3),
    BACKUP_REPOSITORY: join(dataDir, 'repository'),
    BACKUP_PASSWORD: PASSWORD,
    BACKUP_KEYS_DIR: join(dataDir, 'keys'),
    BACKUP_STAGING_DIR: join(dataDir, 'staging'),
    RESTIC_CACHE_DIR: join(dataDir, 'restic-cache'),
    ...over,
  });
  const vault = (args, over = {}) => timed(nodeBinary(), [cli, ...args], { env: cliEnv(over) });

  // (a) the floor first, then ours: both read what the first left in the page cache.
  const floorDir = join(dataDir, 'floor');
  mkdirSync(join(floorDir, 'db'), { recursive: true });
  const dbUrl = (name) => { const url = new URL(postgresUrl); url.pathname = `/${name}`; return url.toString(); };
  say('[bench-backup] (a) floor: pg_dump of every database, cp -r of the objects');
  const floorDump = await timedShell(databases.map((d) => `pg_dump --format=custom --file=${quote(join(floorDir, 'db', `${d.service}.dump`))} --dbname=${quote(dbUrl(d.name))}`).join('\n'));
  const floorCopy = await timedShell(`cp -r ${quote(s3Dir)} ${quote(join(floorDir, 'objects'))}`);
  const floorBackup = { ms: floorDump.ms + floorCopy.ms, peakRss: Math.max(floorDump.peakRss, floorCopy.peakRss) };
  // The object store's own floor: every object read over S3 into files, 4 at a time, nothing hashed.
  const transfer = (mode, bucket, dir, server) => timed(nodeBinary(), [join(root, 'tools', 'bench', 's3-transfer-floor.mjs'), mode, bucket, dir], { env: { ...process.env, ...s3Of(server) } });
  say('[bench-backup] (a) floor: every object read over S3 (s3-transfer-floor.mjs get)');
  const s3Get = await transfer('get', Buckets.vaultmedia, join(dataDir, 's3-get'), sourceS3);
  // Where the time goes: restic alone on the floor's files (the same dumps and objects, already on disk).
  const resticEnv = { RESTIC_REPOSITORY: join(dataDir, 'repository-restic-only'), RESTIC_PASSWORD: PASSWORD, RESTIC_CACHE_DIR: join(dataDir, 'restic-cache-only') };
  say('[bench-backup] (a) restic alone: backup of the floor\'s folder');
  const resticOnly = await timedShell(`restic init --quiet && cd ${quote(floorDir)} && restic backup --quiet .`, resticEnv);
  say('[bench-backup] (a) vault backup');
  const first = await vault(['backup']);
  const firstSummary = JSON.parse(first.stdout);
  say('[bench-backup] (b) vault backup again, nothing changed');
  const second = await vault(['backup']);
  const secondSummary = JSON.parse(second.stdout);
  // The floor of a backup with nothing changed: the databases dumped afresh (a dump is new each time) and
  // restic alone over the floor's folder again, its parent snapshot skipping the unchanged objects.
  say('[bench-backup] (b) floor: pg_dump of every database again, restic alone over the floor\'s folder again');
  const resticOnlyAgain = await timedShell([
    ...databases.map((d) => `pg_dump --format=custom --file=${quote(join(floorDir, 'db', `${d.service}.dump`))} --dbname=${quote(dbUrl(d.name))}`),
    `cd ${quote(floorDir)} && restic backup --quiet .`,
  ].join('\n'), resticEnv);

  // (c) the floor's restore into empty databases of its own, then ours into another prefix and an empty S3.
  const floorDatabases = await serviceDatabases(FLOOR_PREFIX);
  say('[bench-backup] (c) floor: pg_restore into empty databases, cp -r of the objects back');
  const floorPgRestore = await timedShell(floorDatabases.map((d, i) => `createdb --maintenance-db=${quote(postgresUrl)} ${quote(d.name)} && pg_restore --no-owner --no-privileges --single-transaction --exit-on-error --dbname=${quote(dbUrl(d.name))} ${quote(join(floorDir, 'db', `${databases[i].service}.dump`))}`).join('\n'));
  const floorCopyBack = await timedShell(`cp -r ${quote(join(floorDir, 'objects'))} ${quote(join(dataDir, 'floor-restored-objects'))}`);
  const floorRestore = { ms: floorPgRestore.ms + floorCopyBack.ms, peakRss: Math.max(floorPgRestore.peakRss, floorCopyBack.peakRss) };
  say('[bench-backup] (c) floor: every object written over S3 (s3-transfer-floor.mjs put, a bucket of its own)');
  const s3Put = await transfer('put', 'bench-floor-put', join(dataDir, 's3-get'), targetS3);
  say('[bench-backup] (c) restic alone: restore of that snapshot into a folder');
  const resticOnlyRestore = await timedShell(`restic restore latest --target ${quote(join(dataDir, 'restic-only-restored'))}`, resticEnv);
  say(`[bench-backup] (c) vault restore ${firstSummary.shortId}`);
  const restore = await vault(['restore', firstSummary.snapshot], { DATABASE_PREFIX: RESTORE_PREFIX, ...s3Of(targetS3), BACKUP_KEYS_DIR: join(dataDir, 'restored-keys') });
  const restoreSummary = JSON.parse(restore.stdout);
  const restoredBytes = restoreSummary.buckets.reduce((sum, b) => sum + b.bytes, 0);
  if (restoredBytes !== firstSummary.buckets.reduce((sum, b) => sum + b.bytes, 0)) throw new Error(`the restore wrote ${restoredBytes} bytes of objects, the backup took ${firstSummary.buckets.reduce((sum, b) => sum + b.bytes, 0)}`);

  const rows = firstSummary.databases.reduce((sum, d) => sum + d.rows, 0);
  const objects = firstSummary.buckets.reduce((sum, b) => sum + b.objects, 0);
  const objectBytes = firstSummary.buckets.reduce((sum, b) => sum + b.bytes, 0);
  const result = {
    at: new Date().toISOString(),
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
    vault: { letters: config.letters, rows, objects, objectBytes, dumpBytes: firstSummary.databases.reduce((sum, d) => sum + d.bytes, 0) },
    resticOnly: { backupMs: resticOnly.ms, restoreMs: resticOnlyRestore.ms, backupPeakRss: resticOnly.peakRss, restorePeakRss: resticOnlyRestore.peakRss },
    backup: { ms: first.ms, floorMs: floorBackup.ms, floorRatio: floorBackup.ms / first.ms, peakRss: first.peakRss, floorPeakRss: floorBackup.peakRss, addedBytes: firstSummary.addedBytes },
    secondBackup: { ms: second.ms, share: second.ms / first.ms, floorMs: resticOnlyAgain.ms, floorRatio: resticOnlyAgain.ms / second.ms, addedBytes: secondSummary.addedBytes, addedShare: secondSummary.addedBytes / firstSummary.addedBytes, peakRss: second.peakRss },
    restore: { ms: restore.ms, floorMs: floorRestore.ms, floorRatio: floorRestore.ms / restore.ms, peakRss: restore.peakRss, floorPeakRss: floorRestore.peakRss },
    // What this machine allows an encrypted, deduplicated backup through this object store: the dumps, the
    // objects read over S3, restic alone; and the way back: restic alone, pg_restore, the objects written over S3.
    machineFloor: {
      backupMs: floorDump.ms + s3Get.ms + resticOnly.ms, backupRatio: (floorDump.ms + s3Get.ms + resticOnly.ms) / first.ms,
      restoreMs: resticOnlyRestore.ms + floorPgRestore.ms + s3Put.ms, restoreRatio: (resticOnlyRestore.ms + floorPgRestore.ms + s3Put.ms) / restore.ms,
      dumpMs: floorDump.ms, s3GetMs: s3Get.ms, pgRestoreMs: floorPgRestore.ms, s3PutMs: s3Put.ms,
    },
    goals: GOALS,
  };
  result.met = {
    backup: result.backup.floorRatio >= GOALS.floorRatio,
    restore: result.restore.floorRatio >= GOALS.floorRatio,
    secondBackup: result.secondBackup.share < GOALS.secondBackupShare,
  };

  say('');
  say(`vault: ${config.letters.toLocaleString('en-GB')} letters (${rows.toLocaleString('en-GB')} rows in ${databases.length} databases, dumps ${mb(result.vault.dumpBytes)}), ${objects} objects (${mb(objectBytes)})`);
  say(table([
    ['phase', 'ours', 'floor', 'floor / ours', 'goal', 'peak RSS (tree)'],
    ['(a) backup', seconds(first.ms), seconds(floorBackup.ms), ratio(result.backup.floorRatio), `>= ${GOALS.floorRatio} ${result.met.backup ? 'met' : 'MISSED'}`, `${mb(first.peakRss)} (floor ${mb(floorBackup.peakRss)})`],
    ['(b) backup again', seconds(second.ms), `${(result.secondBackup.share * 100).toFixed(0)} % of (a)`, `added ${mb(secondSummary.addedBytes)} of ${mb(firstSummary.addedBytes)}`, `< 10 % ${result.met.secondBackup ? 'met' : 'MISSED'}`, mb(second.peakRss)],
    ['(c) restore', seconds(restore.ms), seconds(floorRestore.ms), ratio(result.restore.floorRatio), `>= ${GOALS.floorRatio} ${result.met.restore ? 'met' : 'MISSED'}`, `${mb(restore.peakRss)} (floor ${mb(floorRestore.peakRss)})`],
    ['(b) floor: dumps + restic again', seconds(resticOnlyAgain.ms), `${((resticOnlyAgain.ms / first.ms) * 100).toFixed(0)} % of (a)`, ratio(result.secondBackup.floorRatio), '(floor / ours)', mb(resticOnlyAgain.peakRss)],
    ['(a) machine floor', seconds(result.machineFloor.backupMs), 'dumps + S3 reads + restic', ratio(result.machineFloor.backupRatio), '(floor / ours)', `S3 reads ${seconds(s3Get.ms)}`],
    ['(c) machine floor', seconds(result.machineFloor.restoreMs), 'restic + pg_restore + S3 writes', ratio(result.machineFloor.restoreRatio), '(floor / ours)', `S3 writes ${seconds(s3Put.ms)}`],
    ['restic alone, backup', seconds(resticOnly.ms), seconds(floorBackup.ms), ratio(floorBackup.ms / resticOnly.ms), '(where the time goes)', mb(resticOnly.peakRss)],
    ['restic alone, restore', seconds(resticOnlyRestore.ms), seconds(floorRestore.ms), ratio(floorRestore.ms / resticOnlyRestore.ms), '(where the time goes)', mb(resticOnlyRestore.peakRss)],
  ]));
  say(`load average ${result.loadAverage.join(' ')}`);
  say(`BENCH_BACKUP_RESULT ${JSON.stringify(result)}`);
  writeFileSync(join(dataDir, 'last-result.json'), JSON.stringify(result, null, 2));
} catch (err) {
  say(`[bench-backup] ${err instanceof StackError ? err.message : err.stack}`);
  exitCode = 1;
} finally {
  finishing = true;
  await cleanup();
  // The folder holds two copies of the media, the repository and the staging: gigabytes no one needs after the run.
  for (const name of existsSync(dataDir) ? readdirSync(dataDir) : []) {
    if (name !== 'last-result.json' && name !== 'stack.log') rmSync(join(dataDir, name), { recursive: true, force: true });
  }
}
process.exit(exitCode);
