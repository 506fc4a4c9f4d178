// What a stack leaves on its data dir and infrastructure: the data dir's lock, the processes of a
// stack that was killed outright, and (for a fresh start) the databases, streams and Redis db it owns.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { withRedisDb } from './infra.mjs';
import { databaseName, services } from './services.mjs';
import { StackError } from './stack-node.mjs';

export function dropLock(lockPath) {
  try {
    if (existsSync(lockPath) && readFileSync(lockPath, 'utf8').trim() === String(process.pid)) rmSync(lockPath);
  } catch {
    // nothing to clean
  }
}

export function takeLock(lockPath) {
  if (existsSync(lockPath)) {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    let alive = false;
    try {
      if (pid) { process.kill(pid, 0); alive = true; }
    } catch {
      alive = false;
    }
    if (alive) throw new StackError(`a stack using ${dirname(lockPath)} is already running (pid ${pid}); stop it first (Ctrl-C in its terminal, or kill ${pid})`);
  }
  mkdirSync(dirname(lockPath), { recursive: true });
  writeFileSync(lockPath, String(process.pid));
}

/**
 * Processes of an earlier stack on this data dir whose orchestrator was killed outright (SIGKILL
 * skips its clean-up): stop them, gateway first, before starting anew. Only pids still running the
 * entry recorded in stack.json are touched (a pid may have been reused).
 */
export async function reapLeftovers(dataDir, log) {
  const file = join(dataDir, 'stack.json');
  if (!existsSync(file)) return;
  let info;
  try {
    info = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    rmSync(file, { force: true });
    return;
  }
  const entries = new Map(services.map((svc) => [svc.name, svc.entry]));
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const commandLine = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      return '';
    }
  };
  const leftovers = [...(info.children ?? []), ...(info.s3Pid ? [{ name: 's3', pid: info.s3Pid }] : [])]
    .filter(({ name, pid }) => pid && alive(pid) && commandLine(pid).includes(name === 's3' ? 's3-server.mjs' : entries.get(name) ?? '\0'))
    .sort((a, b) => (b.name === 'gateway') - (a.name === 'gateway'));
  for (const { name, pid } of leftovers) {
    log(`[stack] stopping ${name} (pid ${pid}), left running by an earlier stack that was killed`);
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; waited < 10_000 && alive(pid); waited += 200) await new Promise((r) => setTimeout(r, 200));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(file, { force: true });
}

export async function resetDatabases(postgresUrl, prefix, suffixes, log) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const { rows } = await client.query('select datname from pg_database where datname like $1', [like]);
    for (const { datname } of rows) {
      await client.query(`drop database if exists "${datname.replace(/"/g, '""')}" with (force)`);
    }
    for (const suffix of suffixes) await client.query(`create database "${databaseName(prefix, suffix)}"`);
    log(`[stack] fresh databases: ${suffixes.map((s) => databaseName(prefix, s)).join(', ') || '(none)'}${rows.length ? ` (dropped ${rows.length})` : ''}`);
  } finally {
    await client.end();
  }
}

export async function resetJetStream(natsUrl, stackId, log) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: natsUrl, timeout: 3000 });
  try {
    const jsm = await jetstreamManager(nc);
    const id = stackId.toUpperCase();
    // The stack id is a prefix (E2E_LV_IDENTITY) or a suffix (LV_IDENTITY_E2E) of the stream name.
    const ours = (name) => {
      const n = name.toUpperCase().replace(/^(KV_|OBJ_)/, '');
      return n.startsWith(`${id}_`) || n.startsWith(`${id}-`) || n.endsWith(`_${id}`) || n.endsWith(`-${id}`);
    };
    const doomed = [];
    for await (const name of jsm.streams.names()) if (ours(name)) doomed.push(name);
    for (const name of doomed) await jsm.streams.delete(name);
    if (doomed.length) log(`[stack] deleted JetStream streams of STACK_ID ${stackId}: ${doomed.join(', ')}`);
  } finally {
    await nc.close();
  }
}

export async function flushRedisDb(redisUrl, db, log) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(withRedisDb(redisUrl, db), { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
  log(`[stack] flushed Redis database ${db}`);
}
