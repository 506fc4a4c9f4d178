#!/usr/bin/env node
// `npm start` (after tools/dev/ensure-install.mjs): builds what changed, starts the whole stack
// (tools/dev/stack.mjs) on PORT (default 3000) with data under .data/, and stops every process on
// Ctrl-C / SIGTERM. Data (databases, objects, mail, keys) survives a restart.
//
// Environment: PORT, HOST, S3_PORT (9000), SMTP_PORT (1025), MAIL_HTTP_PORT (1080), LOG_LEVEL,
// LV_FORCE_BUILD=1 (rebuild even if dist looks current), LV_SKIP_BUILD=1, LV_RAW_LOGS=1 (print the
// apps' JSON logs as is), LV_APP_ROOT (run the entries of another tree: for testing this script).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, StackError, nodeBinary, root } from './stack.mjs';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.warn(`[start] running on Node ${process.versions.node}; Legacy Vault needs 22 (use \`npm start\`, which puts the project's Node 22 first on PATH)`);
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** Projects whose dist is missing or older than their sources (or than the build tooling). */
function staleProjects() {
  const tooling = Math.max(newestMtime(join(root, 'tools', 'build')), newestMtime(join(root, 'package-lock.json')));
  const stale = [];
  const check = (name, sources, dist) => {
    const built = newestMtime(dist);
    if (!built || built < Math.max(tooling, ...sources.map(newestMtime))) stale.push(name);
  };
  for (const group of ['libs', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      if (name === 'web' || name === 'web-e2e' || !existsSync(join(dir, 'src'))) continue;
      check(`${group}/${name}`, [join(dir, 'src')], join(dir, 'dist'));
    }
  }
  if (existsSync(join(root, 'tools', 'cli', 'src'))) check('tools/cli', [join(root, 'tools', 'cli', 'src')], join(root, 'tools', 'cli', 'dist'));
  const web = join(root, 'apps', 'web');
  if (existsSync(join(web, 'vite.config.ts'))) {
    check('apps/web', [join(web, 'src'), join(web, 'index.html'), join(web, 'public'), join(web, 'vite.config.ts'), join(root, 'libs', 'contracts', 'src')], join(web, 'dist'));
  }
  return stale;
}

const stale = process.env.LV_SKIP_BUILD ? [] : process.env.LV_FORCE_BUILD ? ['(forced)'] : staleProjects();
if (stale.length) {
  console.log(`[start] building (${stale.join(', ')} changed)...`);
  const r = spawnSync(nodeBinary(), [join(root, 'tools', 'build', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('[start] the build failed: fix the errors above and run `npm start` again.');
    process.exit(r.status ?? 1);
  }
} else {
  console.log('[start] build is up to date');
}

const abort = new AbortController();
let stack;
let stopping = false;

async function shutdown(code, why) {
  if (stopping) {
    console.log('[start] stopping already; press Ctrl-C again to kill everything at once');
    process.exit(130);
  }
  stopping = true;
  if (why) console.log(`[start] ${why}: stopping...`);
  abort.abort();
  try {
    await stack?.stop();
  } finally {
    console.log('[start] stopped');
    process.exit(code);
  }
}

// shutdown() exits in its `finally`, whatever stopping does: nothing to await here.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => void shutdown(sig === 'SIGINT' ? 130 : 143, `${sig} received`));

const num = (value, fallback) => (value === undefined || value === '' ? fallback : Number(value));

try {
  stack = await startStack({
    port: num(process.env.PORT, 3000),
    host: process.env.HOST || '127.0.0.1',
    dataDir: '.data',
    dbPrefix: 'lv_',
    fresh: false,
    s3Port: num(process.env.S3_PORT, 9000),
    smtpPort: num(process.env.SMTP_PORT, 1025),
    mailHttpPort: num(process.env.MAIL_HTTP_PORT, 1080),
    signal: abort.signal,
    ...(process.env.LV_APP_ROOT ? { appRoot: process.env.LV_APP_ROOT } : {}),
  });
} catch (err) {
  if (stopping) await new Promise(() => {}); // shutdown() exits
  console.error(err instanceof StackError ? `[start] ${err.message}` : err);
  process.exit(1);
}

// A process that dies is restarted by the stack, with backoff; the log says so ([stack] ... restarting).

console.log('');
console.log(`Legacy Vault is running at ${stack.url}`);
console.log(`Mail catcher: ${stack.mailUrl} (SMTP on 127.0.0.1:${stack.smtpPort}); objects: ${stack.s3Endpoint}`);
console.log('Press Ctrl-C to stop.');
